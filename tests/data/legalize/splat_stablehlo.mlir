// Stage A: every splat stablehlo.constant (rank 0 and all-equal lists too) becomes a scalar
// constant and a broadcast_in_dim keeping its name; a returned one is named in place (TL007).
func.func @main(%arg0: tensor<f32>) -> (tensor<4x4xf32>, tensor<f32>, tensor<2xi32>) {
  %cst = stablehlo.constant dense<0.000000e+00> : tensor<4x4xf32>
  %cst_0 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
  %0 = stablehlo.add %arg0, %cst_0 : tensor<f32>
  %c = stablehlo.constant dense<[7, 7]> : tensor<2xi32>
  return %cst, %0, %c : tensor<4x4xf32>, tensor<f32>, tensor<2xi32>
}
