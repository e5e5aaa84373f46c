// MHLO variant: inputs are copied without neuron.actual_shape; a zero-element input is left
// un-copied (TL006); a constant is copied, splat or not (TL002).
func.func @main(%arg0: tensor<4xf32>, %arg1: tensor<0x4xf32>) -> (tensor<4xf32>, tensor<0x4xf32>, tensor<4xf32>, tensor<4xf32>) attributes {output_names = ["x", "empty", "ones", "sum"]} {
  %cst = mhlo.constant dense<1.000000e+00> : tensor<4xf32>
  %0 = mhlo.add %arg0, %cst {neuron.symName = [@sum]} : tensor<4xf32>
  %x_copy = mhlo.copy %arg0 {neuron.symName = [@x]} : tensor<4xf32>
  %ones_copy = mhlo.copy %cst {neuron.symName = [@ones]} : tensor<4xf32>
  return %x_copy, %arg1, %ones_copy, %0 : tensor<4xf32>, tensor<0x4xf32>, tensor<4xf32>, tensor<4xf32>
}
