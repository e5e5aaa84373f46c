// MHLO variant: inputs are copied without neuron.actual_shape; a zero-element input is left
// un-copied (TL006); a constant is copied, splat or not (TL002).
func.func @main(%arg0: tensor<4xf32>, %arg1: tensor<0x4xf32>) -> (tensor<4xf32>, tensor<0x4xf32>, tensor<4xf32>, tensor<4xf32>) attributes {output_names = ["x", "empty", "ones", "sum"]} {
  %cst = mhlo.constant dense<1.000000e+00> : tensor<4xf32>
  %0 = mhlo.add %arg0, %cst : tensor<4xf32>
  return %arg0, %arg1, %cst, %0 : tensor<4xf32>, tensor<0x4xf32>, tensor<4xf32>, tensor<4xf32>
}
