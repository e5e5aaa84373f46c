// Three independent modules, as lit tests write them.
func.func @main(%arg0: tensor<2xf32>) -> tensor<2xf32> {
  %0 = stablehlo.abs %arg0 : tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @main(%arg0: tensor<2xf32>) -> tensor<2xf32> {
  %output0_copy = mhlo.copy %arg0 : tensor<2xf32>
  return %output0_copy : tensor<2xf32>
}

// -----

func.func @main() -> (tensor<3xi32>, tensor<3xi32>) {
  %0 = mhlo.constant dense<[1, 2, 3]> : tensor<3xi32>
  %1:2 = "mhlo.fusion"(%0) ({
  ^bb0(%p: tensor<3xi32>):
    %2 = mhlo.add %p, %p : tensor<3xi32>
    mhlo.return %2, %p : tensor<3xi32>, tensor<3xi32>
  }) : (tensor<3xi32>) -> (tensor<3xi32>, tensor<3xi32>)
  %output0_copy = mhlo.copy %0 : tensor<3xi32>
  return %output0_copy, %1#1 : tensor<3xi32>, tensor<3xi32>
}
