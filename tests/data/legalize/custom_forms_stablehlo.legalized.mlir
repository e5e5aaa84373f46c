// Each op takes neuron.symName where its custom form takes attributes: before the ':'
// (elementwise ops, custom calls, joined to an existing dictionary), after the op name
// (optimization_barrier), as `attributes {...}` after the types (while); an op of a custom
// form passlint does not know (chlo.erf) is printed again in generic form.
func.func @main(%a: tensor<4xf32>, %b: tensor<?x4xf32>, %i: tensor<i64>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<?x4xf32>, tensor<i64>, tensor<4xf32>, tensor<4xf32>) {
  %0:2 = stablehlo.optimization_barrier {neuron.symName = [@"", @output0]} %a, %a : tensor<4xf32>, tensor<4xf32>
  %1 = stablehlo.custom_call @foo(%a) {api_version = 2 : i32, neuron.symName = [@output1]} : (tensor<4xf32>) -> tensor<4xf32> loc(unknown)
  %2:2 = stablehlo.while(%iterArg = %i, %iterArg_0 = %a) : tensor<i64>, tensor<4xf32> attributes {neuron.symName = [@output4, @output2]}
    cond {
    %3 = stablehlo.compare  LT, %iterArg, %iterArg,  SIGNED : (tensor<i64>, tensor<i64>) -> tensor<i1>
    stablehlo.return %3 : tensor<i1>
  } do {
    %3 = stablehlo.add %iterArg_0, %iterArg_0 : tensor<4xf32>
    stablehlo.return %iterArg, %3 : tensor<i64>, tensor<4xf32>
  }
  %4 = stablehlo.abs %b {neuron.symName = [@output3]} : tensor<?x4xf32>
  %5 = "chlo.erf"(%a) {neuron.symName = [@output5]} : (tensor<4xf32>) -> tensor<4xf32> loc("erf")
  %6 = stablehlo.custom_call @bar(%a) {neuron.symName = [@output6]} : (tensor<4xf32>) -> tensor<4xf32>
  return %0#1, %1, %2#1, %4, %2#0, %5, %6 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<?x4xf32>, tensor<i64>, tensor<4xf32>, tensor<4xf32>
}
