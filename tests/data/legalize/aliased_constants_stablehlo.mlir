// Constants whose value (and type) is an attribute alias: stage A reads the splat's type from
// the alias, stage B sees the aliased zero-element constant, the non-splat one is copied.
#s = dense<1.0> : tensor<4xf32>
#d = dense<[1.0, 2.0]> : tensor<2xf32>
#z = dense<> : tensor<0x3xf32>
module {
  func.func @main(%arg0: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<2xf32>, tensor<0x3xf32>) {
    %c = stablehlo.constant #s
    %d = stablehlo.constant #d
    %z = stablehlo.constant #z
    %0 = stablehlo.add %arg0, %c : tensor<4xf32>
    return %0, %c, %d, %z : tensor<4xf32>, tensor<4xf32>, tensor<2xf32>, tensor<0x3xf32>
  }
}
