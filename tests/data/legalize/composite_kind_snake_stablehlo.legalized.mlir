// A stablehlo.composite with `composite_kind` (the pass reads it as `CompositeKind`)
// is named at its decomposition's return value.
module {
  func.func @main(%arg0: tensor<4xf32>) -> tensor<4xf32> {
    %0 = stablehlo.composite "neuron.fused" %arg0 {composite_kind = "FusedComposite", decomposition = @fused} : (tensor<4xf32>) -> tensor<4xf32>
    return %0 : tensor<4xf32>
  }
  func.func private @fused(%arg0: tensor<4xf32>) -> tensor<4xf32> {
    %0 = stablehlo.tanh %arg0 {neuron.symName = [@output0]} : tensor<4xf32>
    return %0 : tensor<4xf32>
  }
}
