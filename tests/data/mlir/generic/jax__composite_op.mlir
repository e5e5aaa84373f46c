"builtin.module"() <{sym_name = "jit__lambda"}> ({
  "func.func"() <{function_type = (tensor<8xf32>) -> tensor<8xf32>, res_attrs = [{jax.result_info = "result"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg4: tensor<8xf32>):
    %10 = "stablehlo.composite"(%arg4) <{composite_attributes = {eps = 9.9999999999999995E-7 : f64}, decomposition = @my.normalize, name = "my.normalize"}> : (tensor<8xf32>) -> tensor<8xf32>
    "func.return"(%10) : (tensor<8xf32>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<8xf32>) -> tensor<8xf32>, sym_name = "my.normalize", sym_visibility = "private"}> ({
  ^bb0(%arg3: tensor<8xf32>):
    %5 = "func.call"(%arg3) <{callee = @norm}> : (tensor<8xf32>) -> tensor<f32>
    %6 = "stablehlo.constant"() <{value = dense<9.99999997E-7> : tensor<f32>}> : () -> tensor<f32>
    %7 = "stablehlo.add"(%5, %6) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    %8 = "stablehlo.broadcast_in_dim"(%7) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8xf32>
    %9 = "stablehlo.divide"(%arg3, %8) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
    "func.return"(%9) : (tensor<8xf32>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<8xf32>) -> tensor<f32>, sym_name = "norm", sym_visibility = "private"}> ({
  ^bb0(%arg0: tensor<8xf32>):
    %0 = "stablehlo.multiply"(%arg0, %arg0) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
    %1 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %2 = "stablehlo.reduce"(%0, %1) <{dimensions = array<i64: 0>}> ({
    ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
      %4 = "stablehlo.add"(%arg1, %arg2) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%4) : (tensor<f32>) -> ()
    }) : (tensor<8xf32>, tensor<f32>) -> tensor<f32>
    %3 = "stablehlo.sqrt"(%2) : (tensor<f32>) -> tensor<f32>
    "func.return"(%3) : (tensor<f32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
