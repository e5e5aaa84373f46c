// Constants whose value (and type) is an attribute alias: stage A reads the splat's type from
// the alias, stage B sees the aliased zero-element constant, the non-splat one is copied.
#s = dense<1.0> : tensor<4xf32>
#d = dense<[1.0, 2.0]> : tensor<2xf32>
#z = dense<> : tensor<0x3xf32>
module {
  func.func @main(%arg0: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<2xf32>, tensor<0x3xf32>) {
    %c_scalar = stablehlo.constant dense<1.0> : tensor<f32>
    %c = stablehlo.broadcast_in_dim %c_scalar, dims = [] {neuron.symName = [@output1]} : (tensor<f32>) -> tensor<4xf32>
    %d = stablehlo.constant #d
    %z = stablehlo.custom_call @AwsNeuronZeroSizedOp() {neuron.actual_shape = "0x3", neuron.symName = [@output3]} : () -> tensor<0x3xf32>
    %0 = stablehlo.add %arg0, %c {neuron.symName = [@output0]} : tensor<4xf32>
    %output2_copy = mhlo.copy %d {neuron.actual_shape = "2", neuron.symName = [@output2]} : tensor<2xf32>
    return %0, %c, %output2_copy, %z : tensor<4xf32>, tensor<4xf32>, tensor<2xf32>, tensor<0x3xf32>
  }
}
