// MLIR's builtin types, attributes and locations in their rarer spellings (jaxlib 0.10.2
// accepts each chunk): an integer set's `>=`, a negative hex integer, scalable vectors,
// strided layouts, opaque dialect types, resources, every location form.
"test.op"() {a = tensor<*xf32>, b = memref<4xf32, 1>, c = memref<?x?xf32, strided<[?, 1], offset: ?>>, d = vector<[4]xf32>, e = vector<2x[4]xf32>} : () -> ()
// -----
"test.op"() {a = complex<f32>, b = tuple<>, c = none, d = index, e = si8, f = ui8, g = f8E4M3FN, h = bf16, i = tf32, j = f80, k = f128, l = i1} : () -> ()
// -----
"test.op"() {a = !test<"opaque">, b = () -> (), c = (i32) -> (i32, i32), d = tuple<i32, tuple<f32>>} : () -> ()
// -----
"test.op"() {a = array<i64>, b = array<i64: 1, 2>, c = dense<[[1, 2]]> : tensor<1x2xi32>, d = dense<(1.0, 2.0)> : tensor<complex<f32>>, e = sparse<[[0, 0]], [1.0]> : tensor<2x2xf32>} : () -> ()
// -----
"test.op"() {a = affine_map<(d0)[s0] -> (d0 + s0)>, b = affine_set<(d0) : (d0 >= 0)>, c = unit, d = @sym::@nested, e = distinct[0]<>, f = 0x7FC00000 : f32, g = -1.5e3 : f64, h = true, i = "\22q\22", j = [], k = {}, l = {x = {y = 1}}} : () -> ()
// -----
"test.op"() {a = 1 : index, b = "s", c = [1, "a", @f, [2]], d = loc("x.py":1:2), e = -0x1 : i32, f = 1.0 : bf16, g = dense<true> : tensor<2xi1>, h = dense<"0x0102"> : tensor<2xi8>} : () -> ()
// -----
"test.op"() : () -> () loc("file":1:2 to 3:4)
"test.op"() : () -> () loc("file":1:2 to :5)
"test.op"() : () -> () loc(fused<"x">["a":1:1, "b":2:2])
"test.op"() : () -> () loc(callsite("foo" at "bar":1:1))
"test.op"() : () -> () loc("name")
"test.op"() : () -> () loc("name"("child":1:1))
"test.op"() : () -> () loc(fused["a":1:1])
// -----
func.func @f(%a: i32) {
  %0:2 = "test.two"() : () -> (i32, i32)
  %b, %c:2 = "test.three"() : () -> (i32, i32, i32)
  "cf.br"(%a)[^bb1] : (i32) -> ()
^bb1(%x: i32 loc("q":1:1)):
  "test.use"(%0#1, %c#1, %x) : (i32, i32, i32) -> ()
  cf.br ^bb2
^bb2:
  return
}
// -----
func.func @f(
    %a: tensor<4xf32>,
    %b: tensor<4xf32>
  ) -> (
    tensor<4xf32>
  ) {
  %0 = "test.op"(%a, %b) <{p = 1 : i32}> ({
  ^bb0(%z: f32):
    "test.yield"() : () -> ()
  }, {
  }) {attr} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
// -----
"test.op"() {a = dense_resource<blob1> : tensor<2xi8>} : () -> ()
{-#
  dialect_resources: {
    builtin: {
      blob1: "0x010000000102"
    }
  },
  external_resources: {
    mlir_reproducer: {
      pipeline: "builtin.module(canonicalize)",
      disable_threading: true
    }
  }
#-}
// -----
%0 = "test.op"() : () -> !test.type<"x", i32>
%1 = "test.op"() : () -> !llvm.struct<(i32, f32)>
%2 = "test.op"() : () -> !llvm.ptr<1>
%3 = "test.op"() : () -> memref<2x3xf32, affine_map<(d0, d1) -> (d1, d0)>>
%4 = "test.op"() : () -> tensor<?x?xf32, #test.enc<x>>
// -----
func.func @main(%arg0: tensor<f32>) -> tensor<f32> {
  %0 = stablehlo.add %arg0, %arg0 : tensor<f32> loc(#loc)
  return %0 : tensor<f32>
} loc(#loc)
#loc = loc("x")
// -----
