// Stage B: a zero-element op result becomes an AwsNeuronZeroSizedOp custom call carrying its
// logical shape, named in place; a returned zero-element input is replaced by one before the
// return (TL006).
func.func @main(%arg0: tensor<0x4xf32>) -> (tensor<0x4xf32>, tensor<2x0xf32>) {
  %0 = stablehlo.custom_call @AwsNeuronZeroSizedOp() {neuron.actual_shape = "2x0", neuron.symName = [@output1]} : () -> tensor<2x0xf32>
  %output0_zero = stablehlo.custom_call @AwsNeuronZeroSizedOp() {neuron.actual_shape = "0x4", neuron.symName = [@output0]} : () -> tensor<0x4xf32>
  return %output0_zero, %0 : tensor<0x4xf32>, tensor<2x0xf32>
}
