// Signatures MLIR's parser reads (jaxlib 0.10.2 accepts each chunk): function types as
// argument and result types, unnamed arguments with a body whose entry block names them,
// blanks inside shapes, a blank before an argument's ':'.
func.func private @takes_callbacks((tensor<4xf32>) -> tensor<4xf32>, () -> ()) -> (() -> ())
func.func private @spaced(tensor<* x f32>, vector<1 x f32>,
                          tensor<2x?xi8>) -> (i1, index)
func.func @callback(%fn : (tensor<4xf32>) -> tensor<4xf32>) -> ((tensor<4xf32>) -> tensor<4xf32>) {
  return %fn : (tensor<4xf32>) -> tensor<4xf32>
}
func.func @labelled(tensor<4xf32>, i32) -> tensor<4xf32> {
^entry(%x: tensor<4xf32>, %n: i32):
  %0 = "test.op"(%x, %n) : (tensor<4xf32>, i32) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @main(tensor<4xf32>) -> tensor<4xf32> {
^bb0(%arg0 : tensor<4xf32>):
  return %arg0 : tensor<4xf32>
}
