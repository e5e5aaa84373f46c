"builtin.module"() <{sym_name = "jit__lambda"}> ({
  "func.func"() <{function_type = (tensor<3x3xf32>) -> (tensor<3x3xf32>, tensor<3x3xf32>, tensor<3x3xf32>), res_attrs = [{jax.result_info = "result['a']"}, {jax.result_info = "result['b'][0]"}, {jax.result_info = "result['b'][1]"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg0: tensor<3x3xf32>):
    %0 = "stablehlo.constant"() <{value = dense<2.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %1 = "stablehlo.broadcast_in_dim"(%0) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<3x3xf32>
    %2 = "stablehlo.multiply"(%arg0, %1) : (tensor<3x3xf32>, tensor<3x3xf32>) -> tensor<3x3xf32>
    %3 = "stablehlo.sine"(%arg0) : (tensor<3x3xf32>) -> tensor<3x3xf32>
    "func.return"(%2, %arg0, %3) : (tensor<3x3xf32>, tensor<3x3xf32>, tensor<3x3xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
