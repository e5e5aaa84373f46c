"builtin.module"() <{sym_name = "hybrid"}> ({
  "func.func"() <{function_type = (tensor<8x4xf32>, tensor<4xf32>, tensor<0x4xf32>) -> (tensor<8x4xf32>, tensor<4xf32>, tensor<8x4xf32>, tensor<8x4xf32>, tensor<4xf32>, tensor<0x4xf32>, tensor<8x4xf32>, tensor<4xf32>), sym_name = "main"}> ({
  ^bb0(%arg1: tensor<8x4xf32>, %arg2: tensor<4xf32>, %arg3: tensor<0x4xf32>):
    %1 = "mhlo.constant"() <{value = dense<0.000000e+00> : tensor<4xf32>}> : () -> tensor<4xf32>
    %2 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %3 = "mhlo.fusion"(%arg1, %arg2) <{fusion_kind = #mhlo<fusion_kind kLoop>}> ({
    ^bb0(%arg6: tensor<8x4xf32>, %arg7: tensor<4xf32>):
      %10 = "stablehlo.broadcast_in_dim"(%arg7) <{broadcast_dimensions = array<i64: 1>}> : (tensor<4xf32>) -> tensor<8x4xf32>
      %11 = "stablehlo.add"(%arg6, %10) : (tensor<8x4xf32>, tensor<8x4xf32>) -> tensor<8x4xf32>
      %12 = "mhlo.copy"(%11) : (tensor<8x4xf32>) -> tensor<8x4xf32>
      "mhlo.return"(%12) : (tensor<8x4xf32>) -> ()
    }) {output_operand_aliasing = []} : (tensor<8x4xf32>, tensor<4xf32>) -> tensor<8x4xf32>
    %4 = "mhlo.fusion"(%3) ({
    ^bb0(%arg5: tensor<8x4xf32>):
      %9 = "stablehlo.tanh"(%arg5) : (tensor<8x4xf32>) -> tensor<8x4xf32>
      "mhlo.return"(%9) : (tensor<8x4xf32>) -> ()
    }) {FusionKind = "ScheduleFusion"} : (tensor<8x4xf32>) -> tensor<8x4xf32>
    %5:2 = "mhlo.fusion"(%arg2) <{fusion_kind = #mhlo<fusion_kind kCustom>}> ({
    ^bb0(%arg4: tensor<4xf32>):
      %8 = "stablehlo.negate"(%arg4) : (tensor<4xf32>) -> tensor<4xf32>
      "mhlo.return"(%8, %arg4) : (tensor<4xf32>, tensor<4xf32>) -> ()
    }) : (tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
    %6 = "stablehlo.composite"(%3) <{composite_attributes = {factor = 2.000000e+00 : f32}, decomposition = @my.scale, name = "my.scale", version = 1 : i32}> : (tensor<8x4xf32>) -> tensor<8x4xf32>
    %7 = "mhlo.copy"(%5#0) : (tensor<4xf32>) -> tensor<4xf32>
    "func.return"(%arg1, %arg2, %3, %4, %1, %arg3, %6, %7) : (tensor<8x4xf32>, tensor<4xf32>, tensor<8x4xf32>, tensor<8x4xf32>, tensor<4xf32>, tensor<0x4xf32>, tensor<8x4xf32>, tensor<4xf32>) -> ()
  }) {output_names = ["passthrough", "bias_copy", "fused", "sched", "splat", "empty", "comp", "copied"]} : () -> ()
  "func.func"() <{function_type = (tensor<8x4xf32>) -> tensor<8x4xf32>, sym_name = "my.scale", sym_visibility = "private"}> ({
  ^bb0(%arg0: tensor<8x4xf32>):
    %0 = "stablehlo.add"(%arg0, %arg0) : (tensor<8x4xf32>, tensor<8x4xf32>) -> tensor<8x4xf32>
    "func.return"(%0) : (tensor<8x4xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
