// A multi-result op gets one neuron.symName array, one slot per result (@"" where unnamed),
// accumulated across outputs; an existing array is extended, never reset.
func.func @main(%arg0: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) attributes {output_names = ["b", "a", "c"]} {
  %0:3 = "test.triple"(%arg0) : (tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>)
  %1:2 = "test.pair"(%arg0) {neuron.symName = [@keep, @""]} : (tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
  return %0#2, %0#0, %1#1 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}
