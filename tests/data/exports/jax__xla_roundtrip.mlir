module @jit__round_trip_program attributes {mhlo.cross_program_prefetches = [], mhlo.input_output_alias = [], mhlo.is_dynamic = false, mhlo.use_auto_spmd_partitioning = false} {
  func.func @main(%arg0: tensor<8xf32>, %arg1: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>, tensor<0xf32>) {
    %0 = stablehlo.sine %arg0 : tensor<8xf32>
    %1 = stablehlo.multiply %0, %arg1 : tensor<8xf32>
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<8xf32>
    %3 = stablehlo.add %1, %2 : tensor<8xf32>
    %cst_0 = stablehlo.constant dense<> : tensor<0xf32>
    return %3, %arg0, %cst_0 : tensor<8xf32>, tensor<8xf32>, tensor<0xf32>
  }
}
