module @jit_model attributes {mhlo.num_partitions = 1 : i32} {
  func.func public @main(%arg0: tensor<4xf32> loc("x"), %arg1: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
    %0 = stablehlo.sine %arg0 : tensor<4xf32> loc(#loc6)
    %1 = call @helper(%0) : (tensor<4xf32>) -> tensor<4xf32> loc(#loc7)
    %2 = stablehlo.add %1, %arg1 : tensor<4xf32> loc("/somewhere/else/project/model.py":9:10)
    return %2, %arg0 : tensor<4xf32>, tensor<4xf32> loc(#loc)
  } loc(#loc)
  func.func private @helper(%arg0: tensor<4xf32>) -> tensor<4xf32> {
    %0 = stablehlo.cosine %arg0 : tensor<4xf32> loc(#loc8)
    return %0 : tensor<4xf32> loc(#loc)
  } loc(#loc)
  func.func private @loop(%arg0: tensor<i32>) -> tensor<i32> {
    cf.br ^bb1(%arg0 : tensor<i32>)
  ^bb1(%x: tensor<i32>):
    %c = stablehlo.constant dense<true> : tensor<i1>
    cf.cond_br %c, ^bb2, ^bb1(%x : tensor<i32>)
  ^bb2:
    return %arg0 : tensor<i32>
  } loc(#loc)
} loc(#loc)
#loc = loc(unknown)
#loc2 = loc("model.py":3:11)
#loc3 = loc("model.py":7:9)
#loc4 = loc("sin"(#loc2))
#loc5 = loc("helper"(#loc3))
#loc6 = loc(callsite(#loc4 at #loc3))
#loc7 = loc(fused[#loc5, "model.py":1:1])
#loc8 = loc("model.py":4:12 to :20)
{-#
  dialect_resources: {
    builtin: {
      blob: "0x040000000000803F0000004000004040"
    }
  }
#-}
