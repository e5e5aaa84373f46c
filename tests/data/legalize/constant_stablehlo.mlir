// A non-splat constant and a resource constant are copied (TL002), with their logical shape.
module {
  func.func @main() -> (tensor<2xf32>, tensor<2x2xi32>) {
    %cst = stablehlo.constant dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>
    %c = stablehlo.constant dense_resource<blob> : tensor<2x2xi32>
    return %cst, %c : tensor<2xf32>, tensor<2x2xi32>
  }
}
{-#
  dialect_resources: {
    builtin: {
      blob: "0x0400000001000000020000000300000004000000"
    }
  }
#-}
