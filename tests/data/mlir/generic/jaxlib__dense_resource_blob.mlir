"builtin.module"() ({
  "func.func"() <{function_type = () -> tensor<4x4xf32>, sym_name = "main"}> ({
    %0 = "stablehlo.constant"() <{value = dense_resource<my_weights> : tensor<4x4xf32>}> : () -> tensor<4x4xf32>
    "func.return"(%0) : (tensor<4x4xf32>) -> ()
  }) : () -> ()
}) : () -> ()

{-#
  dialect_resources: {
    builtin: {
      my_weights: "0x04000000000000000000803F0000004000004040000080400000A0400000C0400000E0400000004100001041000020410000304100004041000050410000604100007041"
    }
  }
#-}
