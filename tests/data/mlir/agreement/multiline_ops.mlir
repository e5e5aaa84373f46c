module @m attributes {mhlo.num_partitions = 1 : i32} {
  func.func @main(%arg0: tensor<4x4xf32>,
                  %arg1: tensor<f32>) -> (tensor<4xf32>, tensor<4x4xf32>, tensor<f32>) {
    %0 = stablehlo.reduce(%arg0 init: %arg1)
           applies stablehlo.add across dimensions = [1]
           : (tensor<4x4xf32>, tensor<f32>) -> tensor<4xf32>
    %1 = stablehlo.broadcast_in_dim %0,
           dims = [0]
           : (tensor<4xf32>) -> tensor<4x4xf32>
    %2 = stablehlo.dot_general %1, %arg0, contracting_dims = [1] x [0],
           precision = [DEFAULT, DEFAULT] : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
    %c = stablehlo.constant dense<2.0> : tensor<f32> %3 = stablehlo.multiply %c, %arg1 : tensor<f32>
    return %0,
           %2, %3 : tensor<4xf32>, tensor<4x4xf32>, tensor<f32>
  }
  func.func private @helper(%a: tensor<f32>) -> tensor<f32> { %b = stablehlo.negate %a : tensor<f32> return %b : tensor<f32> }
}
