func.func @g(%a: tensor<4xf32>) {
  %0 = "x.y"(%a) {s = "abc} : (tensor<4xf32>) -> ()
  %1 = x.z %0  : f32
  return
}
}
