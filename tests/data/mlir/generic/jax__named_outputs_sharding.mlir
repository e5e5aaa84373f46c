"builtin.module"() <{sym_name = "jit__lambda"}> ({
  "func.func"() <{function_type = (tensor<16x16xf32>) -> tensor<16x16xf32>, res_attrs = [{jax.result_info = "result[0]"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg0: tensor<16x16xf32>):
    %0 = "stablehlo.transpose"(%arg0) <{permutation = array<i64: 1, 0>}> : (tensor<16x16xf32>) -> tensor<16x16xf32>
    %1 = "stablehlo.dot_general"(%arg0, %0) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<16x16xf32>, tensor<16x16xf32>) -> tensor<16x16xf32>
    "func.return"(%1) : (tensor<16x16xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
