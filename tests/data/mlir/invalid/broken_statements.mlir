func.func @f(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.add %arg0, %arg0 : tensor<4xf32>
  %1 = stablehlo.multiply %0, ) : tensor<4xf32>
  %2 = stablehlo.abs %1 : tensor<4xf32>
  %3 = = stablehlo.abs %2
  %4 = "stablehlo.neg"(%3 : tensor<4xf32>
  %5 = stablehlo.abs %4 : tensor<4xf32>
  return %5 : tensor<4xf32>
}
