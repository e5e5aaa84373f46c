// Every module form MLIR's parser reads (jaxlib 0.10.2 accepts each chunk): named,
// quoted, with attributes, nested, generic, on one line, implicit.
module {
}

// -----

module attributes {foo.attr = true} {
}

// -----

module {
  %result = "foo.result_op"() : () -> i32
}

// -----

%0 = "op"() : () -> i32

// -----

module @foo {
  module {
    module @bar attributes {foo.bar} {
    }
  }
}

// -----

builtin.module @m attributes {x.a = 1 : i32} {
  func.func private @f()
} loc("m.py":1:1)

// -----

module @m {} loc(unknown)

// -----

module @"quoted module" attributes {} {
}

// -----

"builtin.module"() ({
  "func.func"() <{function_type = () -> (), sym_name = "f", sym_visibility = "private"}> ({
  }) : () -> ()
}) {sym_name = "m"} : () -> ()

// -----

"builtin.module"() <{sym_name = "m"}> ({
^bb0:
}) : () -> ()

// -----

// @main of a nested module is not the module's (symbols are per module): nothing to do.
module {
  module @inner {
    func.func @main(%arg0: tensor<2xf32>) -> tensor<2xf32> {
      return %arg0 : tensor<2xf32>
    }
  }
}

// -----

module @outer attributes {mhlo.num_partitions = 1 : i32} {
  func.func @main(%arg0: tensor<2xf32>) -> tensor<2xf32> {
    return %arg0 : tensor<2xf32>
  }
}
