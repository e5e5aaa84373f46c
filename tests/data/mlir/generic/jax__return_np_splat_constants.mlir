"builtin.module"() <{sym_name = "jit_np_splat"}> ({
  "func.func"() <{function_type = () -> (tensor<4x4xf32>, tensor<2x3xi32>), res_attrs = [{jax.result_info = "result[0]"}, {jax.result_info = "result[1]"}], sym_name = "main", sym_visibility = "public"}> ({
    %0 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<4x4xf32>}> : () -> tensor<4x4xf32>
    %1 = "stablehlo.constant"() <{value = dense<7> : tensor<2x3xi32>}> : () -> tensor<2x3xi32>
    "func.return"(%0, %1) : (tensor<4x4xf32>, tensor<2x3xi32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
