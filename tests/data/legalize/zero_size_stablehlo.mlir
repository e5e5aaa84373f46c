// Stage B: a zero-element op result becomes an AwsNeuronZeroSizedOp custom call carrying its
// logical shape, named in place; a returned zero-element input is replaced by one before the
// return (TL006).
func.func @main(%arg0: tensor<0x4xf32>) -> (tensor<0x4xf32>, tensor<2x0xf32>) {
  %0 = stablehlo.iota dim = 0 : tensor<2x0xf32>
  return %arg0, %0 : tensor<0x4xf32>, tensor<2x0xf32>
}
