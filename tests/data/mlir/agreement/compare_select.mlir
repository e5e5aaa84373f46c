func.func @main(%arg0: tensor<2x3xf32>, %arg1: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<3x2xf32>, tensor<2x3xi32>) {
  %0 = stablehlo.compare  GT, %arg0, %arg1,  FLOAT : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>
  %1 = stablehlo.select %0, %arg0, %arg1 : tensor<2x3xi1>, tensor<2x3xf32>
  %2 = stablehlo.transpose %1, dims = [1, 0] : (tensor<2x3xf32>) -> tensor<3x2xf32>
  %3 = stablehlo.convert %1 : (tensor<2x3xf32>) -> tensor<2x3xi32>
  %4 = stablehlo.slice %1 [0:2, 1:3] : (tensor<2x3xf32>) -> tensor<2x2xf32>
  %5 = stablehlo.concatenate %4, %4, dim = 1 : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x4xf32>
  %6 = stablehlo.iota dim = 0 : tensor<2x3xi32>
  %7 = stablehlo.add %3, %6 : tensor<2x3xi32>
  %8 = "stablehlo.reduce"(%1, %arg0) ({
  ^bb0(%a: tensor<2x3xf32>, %b: tensor<2x3xf32>):
    "stablehlo.return"(%a) : (tensor<2x3xf32>) -> ()
  }) {dimensions = array<i64>} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  return %8, %2, %7 : tensor<2x3xf32>, tensor<3x2xf32>, tensor<2x3xi32>
}
