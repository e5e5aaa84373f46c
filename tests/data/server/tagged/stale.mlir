func.func @main(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.abs %arg0 : tensor<4xf32>
  // passlint: ignore[TL002]
  return %0 : tensor<4xf32>
}
