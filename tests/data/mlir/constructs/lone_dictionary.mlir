func.func @lone(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "mhlo.custom_call"(%arg0)
  {
    call_target_name = "foo",
    backend_config = ""
  } : (tensor<4xf32>) -> tensor<4xf32>
  %1 = "test.unit"(%0)
  {
    flag
  } : (tensor<4xf32>) -> tensor<4xf32>
  %2 = "test.empty"(%1)
  {
  } : (tensor<4xf32>) -> tensor<4xf32>
  %3 = "test.region"(%2) ({
    "test.yield"(%2) : (tensor<4xf32>) -> ()
  }) : (tensor<4xf32>) -> tensor<4xf32>
  %4 = "test.region2"(%3) (
  {
    test.yield %3 : tensor<4xf32>
  }) : (tensor<4xf32>) -> tensor<4xf32>
  %5 = "stablehlo.case"(%0) ({
    stablehlo.return %1 : tensor<4xf32>
  }, {
    stablehlo.return %2 : tensor<4xf32>
  }) : (tensor<4xf32>) -> tensor<4xf32>
  return %5 : tensor<4xf32>
}
