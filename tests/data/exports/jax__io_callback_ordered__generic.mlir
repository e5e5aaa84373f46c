"builtin.module"() <{sym_name = "jit__lambda"}> ({
  "sdy.mesh"() <{mesh = #sdy.mesh<[], device_ids=[0]>, sym_name = "maximal_mesh_0"}> {stablehlo.mesh = {axes = [], device_ids = dense<0> : tensor<1xi64>}} : () -> ()
  "func.func"() <{arg_attrs = [{jax.token = true}, {}], function_type = (!stablehlo.token, tensor<4xf32>) -> (!stablehlo.token, tensor<4xf32>), res_attrs = [{jax.token = true}, {jax.result_info = "result"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg0: !stablehlo.token, %arg1: tensor<4xf32>):
    %0:2 = "stablehlo.custom_call"(%arg0, %arg1) <{api_version = 1 : i32, backend_config = "", call_target_name = "xla_ffi_python_cpu_callback", called_computations = [], has_side_effect = true, operand_layouts = [dense<> : tensor<0xindex>, dense<0> : tensor<1xindex>], result_layouts = [dense<> : tensor<0xindex>, dense<0> : tensor<1xindex>]}> {mhlo.backend_config = {index = 0 : ui64}, sdy.sharding = #sdy.sharding_per_value<[<@maximal_mesh_0, []>, <@maximal_mesh_0, []>]>} : (!stablehlo.token, tensor<4xf32>) -> (!stablehlo.token, tensor<4xf32>)
    "func.return"(%0#0, %0#1) : (!stablehlo.token, tensor<4xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
