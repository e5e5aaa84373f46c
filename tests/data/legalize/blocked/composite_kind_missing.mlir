// TL009: a composite with CompositeKind is named inside its decomposition, and this module
// lacks it: the pass fails, and `passlint legalize` exits 2.
func.func @main(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.composite "neuron.fused" %arg0 {CompositeKind = "FusedComposite", decomposition = @fused} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
