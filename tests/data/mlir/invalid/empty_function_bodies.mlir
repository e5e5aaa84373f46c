// A function in custom form whose braces hold no op: MLIR's parser rejects each chunk (a
// declaration has no braces).
func.func @empty() {}

// -----

func.func private @empty_with_attributes() attributes {llvm.emit_c_interface} {}

// -----

func.func @no_op() {
  // only a comment
}

// -----

module {
  func.func @main(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  }
}

