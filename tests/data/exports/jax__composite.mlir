module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<8xf32>) -> (tensor<8xf32> {jax.result_info = "result[0]"}, tensor<8xf32> {jax.result_info = "result[1]"}) {
    %0 = stablehlo.composite "passlint.normalize" %arg0 {composite_attributes = {eps = 9.9999999999999995E-7 : f64}, decomposition = @passlint.normalize} : (tensor<8xf32>) -> tensor<8xf32>
    %cst = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<8xf32>
    %2 = stablehlo.multiply %arg0, %1 : tensor<8xf32>
    %3 = stablehlo.composite "passlint.normalize" %2 {composite_attributes = {eps = 1.000000e-03 : f64}, decomposition = @passlint.normalize_0} : (tensor<8xf32>) -> tensor<8xf32>
    return %0, %3 : tensor<8xf32>, tensor<8xf32>
  }
  func.func private @passlint.normalize(%arg0: tensor<8xf32>) -> tensor<8xf32> {
    %0 = stablehlo.multiply %arg0, %arg0 : tensor<8xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1 = stablehlo.reduce(%0 init: %cst) applies stablehlo.add across dimensions = [0] : (tensor<8xf32>, tensor<f32>) -> tensor<f32>
    %2 = stablehlo.sqrt %1 : tensor<f32>
    %cst_0 = stablehlo.constant dense<9.99999997E-7> : tensor<f32>
    %3 = stablehlo.add %2, %cst_0 : tensor<f32>
    %4 = stablehlo.broadcast_in_dim %3, dims = [] : (tensor<f32>) -> tensor<8xf32>
    %5 = stablehlo.divide %arg0, %4 : tensor<8xf32>
    return %5 : tensor<8xf32>
  }
  func.func private @passlint.normalize_0(%arg0: tensor<8xf32>) -> tensor<8xf32> {
    %0 = stablehlo.multiply %arg0, %arg0 : tensor<8xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1 = stablehlo.reduce(%0 init: %cst) applies stablehlo.add across dimensions = [0] : (tensor<8xf32>, tensor<f32>) -> tensor<f32>
    %2 = stablehlo.sqrt %1 : tensor<f32>
    %cst_0 = stablehlo.constant dense<1.000000e-03> : tensor<f32>
    %3 = stablehlo.add %2, %cst_0 : tensor<f32>
    %4 = stablehlo.broadcast_in_dim %3, dims = [] : (tensor<f32>) -> tensor<8xf32>
    %5 = stablehlo.divide %arg0, %4 : tensor<8xf32>
    return %5 : tensor<8xf32>
  }
}
