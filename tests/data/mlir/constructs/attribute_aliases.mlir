// Attribute aliases (`#name = attr`) where the pass reads an attribute: @main's
// output_names, a constant's value (a splat or not), a fusion's kind; #loc aliases after
// their uses.
#names = ["x", "y", "z"]
#splat = dense<2.000000e+00> : tensor<4xf32>
#values = dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
#kind = "ScheduleFusion"
module @attribute_aliases {
  func.func @main(%arg0: tensor<4xf32> loc(#loc1)) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) attributes {output_names = #names} {
    %cst = "stablehlo.constant"() {value = #splat} : () -> tensor<4xf32> loc(#loc2)
    %cst_0 = "stablehlo.constant"() {value = #values} : () -> tensor<4xf32>
    %fused = "mhlo.fusion"(%arg0) ({
      %inner = stablehlo.abs %arg0 : tensor<4xf32>
      "mhlo.return"(%inner) : (tensor<4xf32>) -> ()
    }) {FusionKind = #kind} : (tensor<4xf32>) -> tensor<4xf32>
    return %cst, %cst_0, %fused : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
  } loc(#loc)
} loc(#loc)
#loc = loc(unknown)
#loc1 = loc("a.py":1:2)
#loc2 = loc("b"(#loc1))
