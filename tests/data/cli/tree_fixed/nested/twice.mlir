module @jit_input_twice attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<4xf32>) -> (tensor<4xf32> {jax.result_info = "result[0]"}, tensor<4xf32> {jax.result_info = "result[1]"}) {
    %output0_copy = mhlo.copy %arg0 : tensor<4xf32>
    %output1_copy = mhlo.copy %arg0 : tensor<4xf32>
    return %output0_copy, %output1_copy : tensor<4xf32>, tensor<4xf32>
  }
}
