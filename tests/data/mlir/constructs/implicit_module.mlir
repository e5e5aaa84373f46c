#map = affine_map<(d0) -> (d0)>
!t = tensor<4xf32>
sdy.mesh @mesh = <["x"=2]>
func.func @f(%a: !t loc("a.py":1:2), %b: tensor<?x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> !t {
  %x, %y = "test.two"(%a) : (!t) -> (!t, !t) loc(#loc3)
  %0:2 = chlo.foo %x, %y : !t
  %1 = tosa.add %0#0, %0#1 : (!t, !t) -> !t
  check.expect_almost_eq %1, %a : !t
  %2 = "some.op"(%1) {attr = affine_map<(d0) -> (d0)>, dims = #map} : (!t) -> !t loc(callsite(#loc1 at #loc2))
  return %2 : !t loc(unknown)
} loc(#loc)
#loc = loc("x.py":1:1)
#loc1 = loc("f"(#loc))
#loc2 = loc("x.py":3:5 to :9)
#loc3 = loc(fused[#loc1, #loc2])
{-#
  dialect_resources: {
    builtin: {
      blob1: "0x0400000000010203"
    }
  }
#-}
