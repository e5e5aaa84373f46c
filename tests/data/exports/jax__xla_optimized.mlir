module @jit__round_trip_program attributes {mhlo.cross_program_prefetches = [], mhlo.input_output_alias = [], mhlo.is_dynamic = false, mhlo.use_auto_spmd_partitioning = false} {
  func.func private @fused_computation(%arg0: tensor<8xf32>, %arg1: tensor<8xf32>) -> tensor<8xf32> {
    %0 = stablehlo.sine %arg1 : tensor<8xf32>
    %1 = stablehlo.multiply %0, %arg0 : tensor<8xf32>
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<8xf32>
    %3 = stablehlo.add %1, %2 : tensor<8xf32>
    return %3 : tensor<8xf32>
  }
  func.func @main(%arg0: tensor<8xf32>, %arg1: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>, tensor<0xf32>) {
    %0 = "mhlo.fusion"(%arg1, %arg0) <{fusion_kind = #mhlo<fusion_kind kLoop>}> ({
    ^bb0(%arg2: tensor<8xf32>, %arg3: tensor<8xf32>):
      %3 = stablehlo.sine %arg3 : tensor<8xf32>
      %4 = stablehlo.multiply %3, %arg2 : tensor<8xf32>
      %cst_0 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
      %5 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<8xf32>
      %6 = stablehlo.add %4, %5 : tensor<8xf32>
      mhlo.return %6 : tensor<8xf32>
    }) {output_operand_aliasing = []} : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
    %1 = mhlo.copy %arg0 : tensor<8xf32>
    %cst = stablehlo.constant dense<> : tensor<0xf32>
    %2 = mhlo.copy %cst : tensor<0xf32>
    return %0, %1, %2 : tensor<8xf32>, tensor<8xf32>, tensor<0xf32>
  }
}
