// Every form of func.func MLIR's parser reads (jaxlib 0.10.2 accepts each chunk): unnamed
// arguments with attributes and locations, results with attributes, no results, several
// results, `attributes {...}` after the signature, every visibility.
module @decls attributes {mhlo.num_partitions = 1 : i32} {
  func.func private @ext(tensor<2xf32>) -> tensor<2xf32>
  func.func private @ext_attrs(tensor<2xf32>) -> tensor<2xf32> attributes {foo = 1 : i32}
  func.func private @ext_arg_attrs(tensor<2xf32> {mhlo.sharding = "{replicated}"}, i32) -> (tensor<2xf32> {jax.result_info = "x"}, i1)
  func.func nested @ext_located(tensor<2xf32> loc("a.py":1:2), tensor<?x3xf32> {mhlo.layout_mode = "default"} loc(unknown))
  func.func private @ext_none()
  func.func private @ext_empty_results() -> () attributes {}
  func.func private @"ext.quoted"(!stablehlo.token) -> !stablehlo.token
  func.func private @ext_named(%a: tensor<2xf32> {mhlo.sharding = "{replicated}"} loc("b.py":2:3)) -> (tensor<2xf32> {jax.result_info = ""})
  func.func public @main(%arg0: tensor<2xf32> loc("c.py":1:1)) -> (tensor<2xf32> {jax.result_info = "result"}) attributes {mhlo.frontend_attributes = {}} {
    %0 = call @ext(%arg0) : (tensor<2xf32>) -> tensor<2xf32>
    %1 = func.call @ext_attrs(%0) : (tensor<2xf32>) -> tensor<2xf32>
    %c = arith.constant 1 : i32
    %2:2 = call @ext_arg_attrs(%1, %c) : (tensor<2xf32>, i32) -> (tensor<2xf32>, i1)
    call @ext_none() : () -> ()
    return %2#0 : tensor<2xf32>
  }
}

// -----

func.func private @ext(tensor<4xf32>) -> tensor<4xf32>
func.func @main(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  return %arg0 : tensor<4xf32>
}
