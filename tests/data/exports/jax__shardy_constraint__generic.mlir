"builtin.module"() <{sym_name = "jit_constrained"}> ({
  "sdy.mesh"() <{mesh = #sdy.mesh<["x"=2]>, sym_name = "mesh"}> {stablehlo.mesh = {axes = [{name = "x", size = 2 : i64}]}} : () -> ()
  "func.func"() <{arg_attrs = [{}], function_type = (tensor<4x4xf32>) -> tensor<4x4xf32>, res_attrs = [{jax.result_info = "result"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg0: tensor<4x4xf32>):
    %0 = "stablehlo.cosine"(%arg0) : (tensor<4x4xf32>) -> tensor<4x4xf32>
    %1 = "sdy.sharding_constraint"(%0) <{sharding = #sdy.sharding<@mesh, [{}, {"x"}]>}> : (tensor<4x4xf32>) -> tensor<4x4xf32>
    "func.return"(%1) : (tensor<4x4xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 2 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
