#loc1 = loc("model.py":10:4)
!t = tensor<4xf32>
func.func @main(%arg0: !t loc("x"), %arg1: tensor<i1>) -> !t {
  %0 = stablehlo.abs %arg0 : !t loc(#loc1)
  %p = tensor.extract %arg1[] : tensor<i1>
  cf.cond_br %p, ^bb1(%0 : !t), ^bb2
^bb1(%x: !t):
  %1 = stablehlo.negate %x : !t
  cf.br ^bb2
^bb2:
  %2 = stablehlo.add %0,
         %arg0
       : !t loc(#loc2)
  return %2 : !t loc(#loc)
} loc(#loc)
#loc = loc(unknown)
#loc2 = loc("model.py":12:8 to :20)
