module {
  func.func @main(%arg0: tensor<0x4xf32>) -> tensor<0x4xf32> {
    return %arg0 : tensor<0x4xf32>
  }
}
