func.func @main(%arg0: tensor<4xf32>) -> (tensor<4xf32>) attributes {output_names = ["𝔬𝔲𝔱😀", "extra"]} {
  %0 = stablehlo.abs %arg0 : tensor<4xf32> loc("é😀")
  %_____copy = mhlo.copy %arg0 : tensor<4xf32>
  return %_____copy : tensor<4xf32>
}
