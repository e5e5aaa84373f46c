// An input returned (TL001): the pass copies it with mhlo.copy, names the copy and records
// the logical shape; a dynamic dimension is a `?` in that string.
func.func @main(%arg0: tensor<2x3xf32>, %arg1: tensor<?x4xf32>) -> (tensor<2x3xf32>, tensor<?x4xf32>) {
  return %arg0, %arg1 : tensor<2x3xf32>, tensor<?x4xf32>
}
