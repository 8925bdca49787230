trellis.mesh @mesh = <["d"=8]>

func.func @loss(%x: tensor<64x64xf32>, %w: tensor<4x64x64xf32>) -> tensor<f32> attributes {trellis.grad = [1]} {
  %y = spmd.shard_map @mesh in_specs = [[{"d"}, {}], [{}, {"d"}, {}]] out_specs = [[{"d"}, {}]]
      (%x, %w) : (tensor<64x64xf32>, tensor<4x64x64xf32>) -> tensor<64x64xf32> {
  ^bb0(%xb: tensor<8x64xf32>, %wb: tensor<4x8x64xf32>):
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %cl = arith.constant 4 : index
    %zero = arith.constant 0.0 : f32
    %zeros = arith.constant dense<0.0> : tensor<8x64xf32>
    %h = scf.for %l = %c0 to %cl step %c1 iter_args(%a = %xb) -> (tensor<8x64xf32>) {
      %ws = tensor.extract_slice %wb[%l, 0, 0] [1, 8, 64] [1, 1, 1] : tensor<4x8x64xf32> to tensor<8x64xf32>
      %wl = spmd.all_gather %ws over ["d"] dim 0 tiled : tensor<8x64xf32> -> tensor<64x64xf32>
      %e = tensor.empty() : tensor<8x64xf32>
      %z = linalg.fill ins(%zero : f32) outs(%e : tensor<8x64xf32>) -> tensor<8x64xf32>
      %m = linalg.matmul ins(%a, %wl : tensor<8x64xf32>, tensor<64x64xf32>) outs(%z : tensor<8x64xf32>) -> tensor<8x64xf32>
      %r = arith.maximumf %m, %zeros : tensor<8x64xf32>
      scf.yield %r : tensor<8x64xf32>
    }
    spmd.yield %h : tensor<8x64xf32>
  }
  %sq = arith.mulf %y, %y : tensor<64x64xf32>
  %init = arith.constant dense<0.0> : tensor<f32>
  %loss = linalg.reduce ins(%sq : tensor<64x64xf32>) outs(%init : tensor<f32>) dimensions = [0, 1]
    (%p: f32, %q: f32) {
      %t = arith.addf %p, %q : f32
      linalg.yield %t : f32
    }
  return %loss : tensor<f32>
}
