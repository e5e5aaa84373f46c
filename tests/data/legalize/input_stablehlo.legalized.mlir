// An input returned (TL001): the pass copies it with mhlo.copy, names the copy and records
// the logical shape; a dynamic dimension is a `?` in that string.
func.func @main(%arg0: tensor<2x3xf32>, %arg1: tensor<?x4xf32>) -> (tensor<2x3xf32>, tensor<?x4xf32>) {
  %output0_copy = mhlo.copy %arg0 {neuron.actual_shape = "2x3", neuron.symName = [@output0]} : tensor<2x3xf32>
  %output1_copy = mhlo.copy %arg1 {neuron.actual_shape = "?x4", neuron.symName = [@output1]} : tensor<?x4xf32>
  return %output0_copy, %output1_copy : tensor<2x3xf32>, tensor<?x4xf32>
}
