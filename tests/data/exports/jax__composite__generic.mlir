"builtin.module"() <{sym_name = "jit__lambda"}> ({
  "func.func"() <{arg_attrs = [{}], function_type = (tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>), res_attrs = [{jax.result_info = "result[0]"}, {jax.result_info = "result[1]"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg6: tensor<8xf32>):
    %18 = "stablehlo.composite"(%arg6) <{composite_attributes = {eps = 9.9999999999999995E-7 : f64}, decomposition = @passlint.normalize, name = "passlint.normalize", version = 0 : i32}> : (tensor<8xf32>) -> tensor<8xf32>
    %19 = "stablehlo.constant"() <{value = dense<2.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %20 = "stablehlo.broadcast_in_dim"(%19) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8xf32>
    %21 = "stablehlo.multiply"(%arg6, %20) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
    %22 = "stablehlo.composite"(%21) <{composite_attributes = {eps = 1.000000e-03 : f64}, decomposition = @passlint.normalize_0, name = "passlint.normalize", version = 0 : i32}> : (tensor<8xf32>) -> tensor<8xf32>
    "func.return"(%18, %22) : (tensor<8xf32>, tensor<8xf32>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<8xf32>) -> tensor<8xf32>, res_attrs = [{}], sym_name = "passlint.normalize", sym_visibility = "private"}> ({
  ^bb0(%arg3: tensor<8xf32>):
    %9 = "stablehlo.multiply"(%arg3, %arg3) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
    %10 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %11 = "stablehlo.reduce"(%9, %10) <{dimensions = array<i64: 0>}> ({
    ^bb0(%arg4: tensor<f32>, %arg5: tensor<f32>):
      %17 = "stablehlo.add"(%arg4, %arg5) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%17) : (tensor<f32>) -> ()
    }) : (tensor<8xf32>, tensor<f32>) -> tensor<f32>
    %12 = "stablehlo.sqrt"(%11) : (tensor<f32>) -> tensor<f32>
    %13 = "stablehlo.constant"() <{value = dense<9.99999997E-7> : tensor<f32>}> : () -> tensor<f32>
    %14 = "stablehlo.add"(%12, %13) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    %15 = "stablehlo.broadcast_in_dim"(%14) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8xf32>
    %16 = "stablehlo.divide"(%arg3, %15) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
    "func.return"(%16) : (tensor<8xf32>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<8xf32>) -> tensor<8xf32>, res_attrs = [{}], sym_name = "passlint.normalize_0", sym_visibility = "private"}> ({
  ^bb0(%arg0: tensor<8xf32>):
    %0 = "stablehlo.multiply"(%arg0, %arg0) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
    %1 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %2 = "stablehlo.reduce"(%0, %1) <{dimensions = array<i64: 0>}> ({
    ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
      %8 = "stablehlo.add"(%arg1, %arg2) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%8) : (tensor<f32>) -> ()
    }) : (tensor<8xf32>, tensor<f32>) -> tensor<f32>
    %3 = "stablehlo.sqrt"(%2) : (tensor<f32>) -> tensor<f32>
    %4 = "stablehlo.constant"() <{value = dense<1.000000e-03> : tensor<f32>}> : () -> tensor<f32>
    %5 = "stablehlo.add"(%3, %4) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    %6 = "stablehlo.broadcast_in_dim"(%5) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8xf32>
    %7 = "stablehlo.divide"(%arg0, %6) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
    "func.return"(%7) : (tensor<8xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
