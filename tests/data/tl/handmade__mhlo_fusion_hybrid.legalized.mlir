// Hand-written, modeled on XLA post-optimization dumps (HLO -> MHLO/StableHLO hybrid with mhlo.fusion).
// Exercises: block-arg return, constant return, mhlo.fusion (kLoop/kCustom + Neuron-style FusionKind attr),
// stablehlo.composite, mhlo.copy (pretty + generic), result groups, output_names func attribute.
module @hybrid attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func @main(%arg0: tensor<8x4xf32>, %arg1: tensor<4xf32>, %arg2: tensor<0x4xf32>) -> (tensor<8x4xf32>, tensor<4xf32>, tensor<8x4xf32>, tensor<8x4xf32>, tensor<4xf32>, tensor<0x4xf32>, tensor<8x4xf32>, tensor<4xf32>) attributes {output_names = ["passthrough", "bias_copy", "fused", "sched", "splat", "empty", "comp", "copied"]} {
    %cst = mhlo.constant dense<0.000000e+00> : tensor<4xf32>
    %cst_0_scalar = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %cst_0 = stablehlo.broadcast_in_dim %cst_0_scalar, dims = [] : (tensor<f32>) -> tensor<f32>
    %0 = "mhlo.fusion"(%arg0, %arg1) <{fusion_kind = #mhlo<fusion_kind kLoop>}> ({
    ^bb0(%p0: tensor<8x4xf32>, %p1: tensor<4xf32>):
      %10 = stablehlo.broadcast_in_dim %p1, dims = [1] : (tensor<4xf32>) -> tensor<8x4xf32>
      %11 = stablehlo.add %p0, %10 : tensor<8x4xf32>
      %12 = mhlo.copy %11 : tensor<8x4xf32>
      mhlo.return %12 : tensor<8x4xf32>
    }) {output_operand_aliasing = [], neuron.symName = [@fused]} : (tensor<8x4xf32>, tensor<4xf32>) -> tensor<8x4xf32>
    %1 = "mhlo.fusion"(%0) ({
    ^bb0(%q0: tensor<8x4xf32>):
      %20 = stablehlo.tanh %q0 {neuron.symName = [@sched]} : tensor<8x4xf32>
      mhlo.return %20 : tensor<8x4xf32>
    }) {FusionKind = "ScheduleFusion"} : (tensor<8x4xf32>) -> tensor<8x4xf32>
    %2:2 = "mhlo.fusion"(%arg1) <{fusion_kind = #mhlo<fusion_kind kCustom>}> ({
    ^bb0(%r0: tensor<4xf32>):
      %30 = stablehlo.negate %r0 : tensor<4xf32>
      mhlo.return %30, %r0 : tensor<4xf32>, tensor<4xf32>
    }) : (tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
    %3 = stablehlo.composite "my.scale" %0 {composite_attributes = {factor = 2.000000e+00 : f32}, decomposition = @my.scale, version = 1 : i32, neuron.symName = [@comp]} : (tensor<8x4xf32>) -> tensor<8x4xf32>
    %4 = "mhlo.copy"(%2#0) {neuron.symName = [@copied]} : (tensor<4xf32>) -> tensor<4xf32>
    %passthrough_copy = mhlo.copy %arg0 {neuron.actual_shape = "8x4", neuron.symName = [@passthrough]} : tensor<8x4xf32>
    %bias_copy_copy = mhlo.copy %arg1 {neuron.actual_shape = "4", neuron.symName = [@bias_copy]} : tensor<4xf32>
    %splat_copy = mhlo.copy %cst {neuron.actual_shape = "4", neuron.symName = [@splat]} : tensor<4xf32>
    %empty_zero = stablehlo.custom_call @AwsNeuronZeroSizedOp() {neuron.actual_shape = "0x4", neuron.symName = [@empty]} : () -> tensor<0x4xf32>
    func.return %passthrough_copy, %bias_copy_copy, %0, %1, %splat_copy, %empty_zero, %3, %4 : tensor<8x4xf32>, tensor<4xf32>, tensor<8x4xf32>, tensor<8x4xf32>, tensor<4xf32>, tensor<0x4xf32>, tensor<8x4xf32>, tensor<4xf32>
  }
  func.func private @my.scale(%arg0: tensor<8x4xf32>) -> tensor<8x4xf32> {
    %0 = stablehlo.add %arg0, %arg0 : tensor<8x4xf32>
    return %0 : tensor<8x4xf32>
  }
}
