// One chunk per error MLIR's parser reports, so that every E code has a message here.
func.func @main(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  return %nothere : tensor<4xf32>
}

// -----

func.func @main(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.abs %arg0 : tensor<4xf32>
  %0 = stablehlo.abs %arg0 : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @main(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.add %arg0 %arg0 : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @main(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  %0:2 = "stablehlo.abs"(%arg0) : (tensor<4xf32>) -> tensor<4xf32>
  return %0#0 : tensor<4xf32>
}

// -----

func.func @main(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.abs %arg0 : tensor<4xf32> loc(#nowhere)
  return %0 : tensor<4xf32>
}

// -----

func.func @main(%arg0: tensor<4xf32>, %p: i1) -> tensor<4xf32> {
  cf.cond_br %p, ^bb1, ^missing
^bb1:
  return %arg0 : tensor<4xf32>
}
