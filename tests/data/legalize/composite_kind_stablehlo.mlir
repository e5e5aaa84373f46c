// A stablehlo.composite with Neuron's CompositeKind is named at its decomposition's return
// value; one without (as jax writes them) is named in place.
module {
  func.func @main(%arg0: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
    %0 = stablehlo.composite "neuron.fused" %arg0 {CompositeKind = "FusedComposite", decomposition = @fused} : (tensor<4xf32>) -> tensor<4xf32>
    %1 = stablehlo.composite "my.scale" %0 {composite_attributes = {factor = 2.000000e+00 : f32}, decomposition = @my.scale, version = 1 : i32} : (tensor<4xf32>) -> tensor<4xf32>
    return %0, %1 : tensor<4xf32>, tensor<4xf32>
  }
  func.func private @fused(%arg0: tensor<4xf32>) -> tensor<4xf32> {
    %0 = stablehlo.tanh %arg0 : tensor<4xf32>
    return %0 : tensor<4xf32>
  }
  func.func private @my.scale(%arg0: tensor<4xf32>) -> tensor<4xf32> {
    %0 = stablehlo.add %arg0, %arg0 : tensor<4xf32>
    return %0 : tensor<4xf32>
  }
}
