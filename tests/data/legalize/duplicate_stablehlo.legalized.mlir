// TL003: one compute value returned at two slots is named twice by the pass, in the same
// neuron.symName slot: the later name overwrites the earlier. (No copy: that is passlint's
// quick fix, not the pass.) An input returned twice is copied once per slot.
func.func @main(%arg0: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) attributes {output_names = ["first", "second", "in0", "in1"]} {
  %0 = stablehlo.sine %arg0 {neuron.symName = [@second]} : tensor<4xf32>
  %in0_copy = mhlo.copy %arg0 {neuron.actual_shape = "4", neuron.symName = [@in0]} : tensor<4xf32>
  %in1_copy = mhlo.copy %arg0 {neuron.actual_shape = "4", neuron.symName = [@in1]} : tensor<4xf32>
  return %0, %0, %in0_copy, %in1_copy : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}
