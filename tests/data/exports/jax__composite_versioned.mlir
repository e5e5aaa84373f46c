module @jit_softplus attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<8xf32>) -> (tensor<8xf32> {jax.result_info = "result[0]"}, tensor<8xf32> {jax.result_info = "result[1]"}) {
    %0:2 = stablehlo.composite "passlint.softplus" %arg0 {decomposition = @passlint.softplus, version = 2 : i32} : (tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>)
    return %0#0, %0#1 : tensor<8xf32>, tensor<8xf32>
  }
  func.func private @passlint.softplus(%arg0: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
    %0 = stablehlo.exponential %arg0 : tensor<8xf32>
    %1 = stablehlo.log_plus_one %0 : tensor<8xf32>
    %2 = stablehlo.exponential %arg0 : tensor<8xf32>
    return %1, %2 : tensor<8xf32>, tensor<8xf32>
  }
}
