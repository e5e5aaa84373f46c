// Generic form with successors, properties, regions and several results.
"func.func"() <{function_type = (tensor<4xf32>, tensor<i1>) -> (tensor<4xf32>, tensor<4xf32>), sym_name = "main"}> ({
^bb0(%arg0: tensor<4xf32>, %arg1: tensor<i1>):
  %0 = "stablehlo.abs"(%arg0) : (tensor<4xf32>) -> tensor<4xf32>
  %1:2 = "stablehlo.while"(%0, %arg0) ({
  ^bb0(%a: tensor<4xf32>, %b: tensor<4xf32>):
    %c = "stablehlo.constant"() <{value = dense<true> : tensor<i1>}> : () -> tensor<i1>
    "stablehlo.return"(%c) : (tensor<i1>) -> ()
  }, {
  ^bb0(%a: tensor<4xf32>, %b: tensor<4xf32>):
    %s = "stablehlo.add"(%a, %b) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    "stablehlo.return"(%s, %b) : (tensor<4xf32>, tensor<4xf32>) -> ()
  }) : (tensor<4xf32>, tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
  %2 = "stablehlo.multiply"(%1#0, %1#1) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  "func.return"(%2, %1#1) : (tensor<4xf32>, tensor<4xf32>) -> ()
}) : () -> ()
