module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<0x3xf32>, %arg1: tensor<4xf32>) -> (tensor<0x3xf32> {jax.result_info = "result[0]"}, tensor<0xf32> {jax.result_info = "result[1]"}) {
    %cst = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<0x3xf32>
    %1 = stablehlo.multiply %arg0, %0 : tensor<0x3xf32>
    %2 = stablehlo.slice %arg1 [0:0] : (tensor<4xf32>) -> tensor<0xf32>
    %cst_0 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %3 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<0xf32>
    %4 = stablehlo.add %2, %3 : tensor<0xf32>
    return %1, %4 : tensor<0x3xf32>, tensor<0xf32>
  }
}
