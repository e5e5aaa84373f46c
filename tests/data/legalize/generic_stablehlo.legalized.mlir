"builtin.module"() ({
  "func.func"() <{function_type = (tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<4xf32>):
    %scalar_0 = "stablehlo.constant"() <{value = dense<2.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %0 = "stablehlo.broadcast_in_dim"(%scalar_0) <{broadcast_dimensions = array<i64>}> {neuron.symName = [@output1]} : (tensor<f32>) -> tensor<4xf32>
    %1 = "stablehlo.multiply"(%arg0, %0) {neuron.symName = [@output0]} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    %output2_copy = "mhlo.copy"(%arg0) {neuron.actual_shape = "4", neuron.symName = [@output2]} : (tensor<4xf32>) -> tensor<4xf32>
    "func.return"(%1, %0, %output2_copy) : (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> ()
  }) : () -> ()
}) : () -> ()
