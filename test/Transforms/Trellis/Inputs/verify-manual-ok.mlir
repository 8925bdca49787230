trellis.mesh @m = <["a"=2, "b"=2]>
func.func @main(%x: tensor<8x4xf32> {trellis.sharding = #trellis.sharding<@m, [{"a"}, {}]>},
                %w: tensor<4x4xf32> {trellis.sharding = #trellis.sharding<@m, [{}, {"b"}]>})
    -> tensor<8x4xf32> {
  %e = tensor.empty() : tensor<8x4xf32>
  %z = arith.constant 0.0 : f32
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<8x4xf32>) -> tensor<8x4xf32>
  %y = linalg.matmul ins(%x, %w : tensor<8x4xf32>, tensor<4x4xf32>) outs(%f : tensor<8x4xf32>) -> tensor<8x4xf32>
  %c = trellis.sharding_constraint %y to <@m, [{"a"}, {}]> : tensor<8x4xf32>
  return %c : tensor<8x4xf32>
}

trellis.mesh @e = <["x"=2, "y"=2], types = [explicit, explicit]>
func.func @explicit(%x: tensor<8x4xf32, #trellis.sharding<@e, [{"x"}, {}]>>) -> tensor<8x4xf32, #trellis.sharding<@e, [{"x"}, {}]>> {
  %y = arith.negf %x : tensor<8x4xf32, #trellis.sharding<@e, [{"x"}, {}]>>
  return %y : tensor<8x4xf32, #trellis.sharding<@e, [{"x"}, {}]>>
}
