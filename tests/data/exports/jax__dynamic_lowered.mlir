module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<i32> {jax.global_constant = "b"}, %arg1: tensor<?x4xf32>) -> (tensor<?x4xf32> {jax.result_info = "result[0]"}, tensor<?x4xf32> {jax.result_info = "result[1]"}, tensor<?x0xf32> {jax.result_info = "result[2]"}) {
    %cst = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %c = stablehlo.constant dense<4> : tensor<i32>
    %0 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %c_0 = stablehlo.constant dense<4> : tensor<1xi32>
    %1 = stablehlo.concatenate %0, %c_0, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %2 = stablehlo.dynamic_broadcast_in_dim %cst, %1, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<?x4xf32>
    %3 = stablehlo.multiply %arg1, %2 : tensor<?x4xf32>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %c_2 = stablehlo.constant dense<0> : tensor<i32>
    %4 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %c_3 = stablehlo.constant dense<0> : tensor<1xi32>
    %5 = stablehlo.concatenate %4, %c_3, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %6 = stablehlo.dynamic_broadcast_in_dim %cst_1, %5, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<?x0xf32>
    return %arg1, %3, %6 : tensor<?x4xf32>, tensor<?x4xf32>, tensor<?x0xf32>
  }
}
