// The program of matmul-2x2.mlir on a 4x1 mesh.
trellis.mesh @mesh = <["i"=4, "j"=1]>
func.func @main(%x: tensor<4x8xf32> {trellis.sharding = #trellis.sharding<@mesh, [{"i"}, {"j"}]>},
                %y: tensor<8x4xf32> {trellis.sharding = #trellis.sharding<@mesh, [{"j"}, {}]>})
    -> tensor<4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x4xf32>) -> tensor<4x4xf32>
  %m = linalg.matmul ins(%x, %y : tensor<4x8xf32>, tensor<8x4xf32>) outs(%f : tensor<4x4xf32>) -> tensor<4x4xf32>
  return %m : tensor<4x4xf32>
}

// A second entry on the same mesh, for ranks given different --entry.
func.func @twice(%x: tensor<4x8xf32> {trellis.sharding = #trellis.sharding<@mesh, [{"i"}, {"j"}]>},
                 %y: tensor<8x4xf32> {trellis.sharding = #trellis.sharding<@mesh, [{"j"}, {}]>})
    -> tensor<4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x4xf32>) -> tensor<4x4xf32>
  %m = linalg.matmul ins(%x, %y : tensor<4x8xf32>, tensor<8x4xf32>) outs(%f : tensor<4x4xf32>) -> tensor<4x4xf32>
  %t = arith.addf %m, %m : tensor<4x4xf32>
  return %t : tensor<4x4xf32>
}
