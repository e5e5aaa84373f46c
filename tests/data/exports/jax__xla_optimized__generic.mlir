"builtin.module"() <{sym_name = "jit__round_trip_program"}> ({
  "func.func"() <{function_type = (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>, sym_name = "fused_computation", sym_visibility = "private"}> ({
  ^bb0(%arg4: tensor<8xf32>, %arg5: tensor<8xf32>):
    %9 = "stablehlo.sine"(%arg5) : (tensor<8xf32>) -> tensor<8xf32>
    %10 = "stablehlo.multiply"(%9, %arg4) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
    %11 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %12 = "stablehlo.broadcast_in_dim"(%11) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8xf32>
    %13 = "stablehlo.add"(%10, %12) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
    "func.return"(%13) : (tensor<8xf32>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<8xf32>, tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>, tensor<0xf32>), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<8xf32>, %arg1: tensor<8xf32>):
    %0 = "mhlo.fusion"(%arg1, %arg0) <{fusion_kind = #mhlo<fusion_kind kLoop>}> ({
    ^bb0(%arg2: tensor<8xf32>, %arg3: tensor<8xf32>):
      %4 = "stablehlo.sine"(%arg3) : (tensor<8xf32>) -> tensor<8xf32>
      %5 = "stablehlo.multiply"(%4, %arg2) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
      %6 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
      %7 = "stablehlo.broadcast_in_dim"(%6) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8xf32>
      %8 = "stablehlo.add"(%5, %7) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
      "mhlo.return"(%8) : (tensor<8xf32>) -> ()
    }) {output_operand_aliasing = []} : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
    %1 = "mhlo.copy"(%arg0) : (tensor<8xf32>) -> tensor<8xf32>
    %2 = "stablehlo.constant"() <{value = dense<> : tensor<0xf32>}> : () -> tensor<0xf32>
    %3 = "mhlo.copy"(%2) : (tensor<0xf32>) -> tensor<0xf32>
    "func.return"(%0, %1, %3) : (tensor<8xf32>, tensor<8xf32>, tensor<0xf32>) -> ()
  }) : () -> ()
}) {mhlo.cross_program_prefetches = [], mhlo.input_output_alias = [], mhlo.is_dynamic = false, mhlo.use_auto_spmd_partitioning = false} : () -> ()
