// Type aliases (`!name = type`) in every position a type's shape is read: arguments,
// results, op result types, the signature, an alias of an alias, an element type.
!empty = tensor<0x3xf32>
func.func @main(%arg0: !empty) -> !empty {
  return %arg0 : !empty
}

// -----

!a = tensor<0x3xf32>
!b = !a
!f = f32
!four = tensor<4x!f>
module @aliased attributes {mhlo.num_partitions = 1 : i32} {
  func.func private @ext(!four) -> !b
  func.func @main(%arg0: !b, %arg1: !four) -> (!b, !four, !a, tensor<2x!f>, !b) {
    %0 = stablehlo.abs %arg0 : !b
    %c = stablehlo.constant dense<1.0> : tensor<2x!f>
    %1 = call @ext(%arg1) : (!four) -> !b
    return %0, %arg1, %arg0, %c, %1 : !b, !four, !a, tensor<2x!f>, !b
  }
}

// -----

!t = tensor<4xf32>
"func.func"() <{function_type = (!t) -> !t, sym_name = "main"}> ({
^bb0(%arg0: !t):
  "func.return"(%arg0) : (!t) -> ()
}) : () -> ()
