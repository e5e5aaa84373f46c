module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<4xf32>) -> (tensor<0x3xf32> {jax.result_info = "result[0]"}, tensor<0xf32> {jax.result_info = "result[1]"}) {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<0x3xf32>
    %1 = stablehlo.slice %arg0 [0:0] : (tensor<4xf32>) -> tensor<0xf32>
    return %0, %1 : tensor<0x3xf32>, tensor<0xf32>
  }
}
