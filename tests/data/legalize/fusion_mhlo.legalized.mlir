// MHLO: a ScheduleFusion mhlo.fusion is named at the matching operand of its region's
// mhlo.return; any other fusion is named in place.
func.func @main(%arg0: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %0:2 = "mhlo.fusion"(%arg0) ({
  ^bb0(%p0: tensor<4xf32>):
    %10 = mhlo.abs %p0 {neuron.symName = [@output2]} : tensor<4xf32>
    %11 = mhlo.negate %p0 {neuron.symName = [@output0]} : tensor<4xf32>
    mhlo.return %10, %11 : tensor<4xf32>, tensor<4xf32>
  }) {FusionKind = "ScheduleFusion"} : (tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
  %1 = "mhlo.fusion"(%0#0) <{fusion_kind = #mhlo<fusion_kind kLoop>}> ({
  ^bb0(%q0: tensor<4xf32>):
    %20 = mhlo.exponential %q0 : tensor<4xf32>
    mhlo.return %20 : tensor<4xf32>
  }) {neuron.symName = [@output1]} : (tensor<4xf32>) -> tensor<4xf32>
  return %0#1, %1, %0#0 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}
