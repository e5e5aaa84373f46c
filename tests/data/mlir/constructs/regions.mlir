module @regions attributes {mhlo.num_partitions = 1 : i32} {
  sdy.mesh @mesh = <["x"=2]>
  func.func @main(%arg0: tensor<8xf32>, %arg1: i1) -> (tensor<8xf32>, tensor<f32>) {
    %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"x"}]>] out_shardings=[<@mesh, [{"x"}]>] manual_axes={"x"} (%arg2: tensor<4xf32>) {
      %1 = stablehlo.abs %arg2 : tensor<4xf32>
      sdy.return %1 : tensor<4xf32>
    } : (tensor<8xf32>) -> tensor<8xf32>
    %1 = "stablehlo.if"(%arg1) ({
      %2 = stablehlo.negate %0 : tensor<8xf32>
      stablehlo.return %2 : tensor<8xf32>
    }, {
      %2 = stablehlo.abs %0 : tensor<8xf32>
      stablehlo.return %2 : tensor<8xf32>
    }) : (i1) -> tensor<8xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %2 = "stablehlo.reduce"(%1, %cst) ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %3 = "stablehlo.while"(%a) ({
      ^bb0(%c: tensor<f32>):
        %4 = stablehlo.compare LT, %c, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
        stablehlo.return %4 : tensor<i1>
      }, {
      ^bb0(%c: tensor<f32>):
        %4 = stablehlo.add %c, %a : tensor<f32>
        stablehlo.return %4 : tensor<f32>
      }) : (tensor<f32>) -> tensor<f32>
      stablehlo.return %3 : tensor<f32>
    }) {dimensions = array<i64: 0>} : (tensor<8xf32>, tensor<f32>) -> tensor<f32>
    cf.cond_br %arg1, ^bb1(%2 : tensor<f32>), ^bb2
  ^bb1(%x: tensor<f32>):
    cf.br ^bb2
  ^bb2:
    return %1, %2 : tensor<8xf32>, tensor<f32>
  }
}
