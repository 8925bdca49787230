// The patterns of patterns-1d.mlir on a 4x2 mesh, over "i" (4 devices),
// "j" (2) and ("i", "j") (8, a ring that crosses both axes). Outputs:
//   out0 = a @ w          all_gather of the lhs rows over ("i", "j")
//   out1 = b @ r2         all_gather of the lhs columns (contracting) over "j"
//   out2 = init + l3 @ c  all_gather of the rhs columns over "i", any init
//   out3 = l4 @ d         all_gather of the rhs rows (contracting) over ("i", "j")
//   out4 = l5 @ r5        psum_scatter along rows over "i"
//   out5 = l6 @ r6        psum_scatter along columns over ("i", "j")

trellis.mesh @mesh = <["i"=4, "j"=2]>

func.func @main(%a: tensor<32x6xf32>, %w: tensor<6x5xf32>,
                %b: tensor<3x8xf32>, %r2: tensor<8x5xf32>,
                %c: tensor<6x16xf32>, %l3: tensor<3x6xf32>, %init: tensor<3x16xf32>,
                %d: tensor<32x5xf32>, %l4: tensor<3x32xf32>,
                %l5: tensor<16x24xf32>, %r5: tensor<24x5xf32>,
                %l6: tensor<3x48xf32>, %r6: tensor<48x32xf32>)
    -> (tensor<32x5xf32>, tensor<3x5xf32>, tensor<3x16xf32>, tensor<3x5xf32>,
        tensor<16x5xf32>, tensor<3x32xf32>) {
  %o:6 = spmd.shard_map @mesh
      in_specs = [[{"i", "j"}, {}], [], [{}, {"j"}], [], [{}, {"i"}], [], [], [{"i", "j"}, {}], [],
                  [{}, {"i"}], [{"i"}, {}], [{}, {"i", "j"}], [{"i", "j"}, {}]]
      out_specs = [[], [], [], [], [{"i"}, {}], [{}, {"i", "j"}]] check_vma = false
      (%a, %w, %b, %r2, %c, %l3, %init, %d, %l4, %l5, %r5, %l6, %r6)
      : (tensor<32x6xf32>, tensor<6x5xf32>, tensor<3x8xf32>, tensor<8x5xf32>,
         tensor<6x16xf32>, tensor<3x6xf32>, tensor<3x16xf32>, tensor<32x5xf32>,
         tensor<3x32xf32>, tensor<16x24xf32>, tensor<24x5xf32>,
         tensor<3x48xf32>, tensor<48x32xf32>)
      -> (tensor<32x5xf32>, tensor<3x5xf32>, tensor<3x16xf32>, tensor<3x5xf32>,
          tensor<16x5xf32>, tensor<3x32xf32>) {
  ^bb0(%ab: tensor<4x6xf32>, %wb: tensor<6x5xf32>, %bb: tensor<3x4xf32>, %r2b: tensor<8x5xf32>,
       %cb: tensor<6x4xf32>, %l3b: tensor<3x6xf32>, %initb: tensor<3x16xf32>,
       %db: tensor<4x5xf32>, %l4b: tensor<3x32xf32>,
       %l5b: tensor<16x6xf32>, %r5b: tensor<6x5xf32>, %l6b: tensor<3x6xf32>, %r6b: tensor<6x32xf32>):
    %zero = arith.constant 0.0 : f32

    %g0 = spmd.all_gather %ab over ["i", "j"] dim 0 tiled : tensor<4x6xf32> -> tensor<32x6xf32>
    %e0 = tensor.empty() : tensor<32x5xf32>
    %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<32x5xf32>) -> tensor<32x5xf32>
    %o0 = linalg.matmul ins(%g0, %wb : tensor<32x6xf32>, tensor<6x5xf32>)
                        outs(%z0 : tensor<32x5xf32>) -> tensor<32x5xf32>

    %g1 = spmd.all_gather %bb over ["j"] dim 1 tiled : tensor<3x4xf32> -> tensor<3x8xf32>
    %e1 = tensor.empty() : tensor<3x5xf32>
    %z1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<3x5xf32>) -> tensor<3x5xf32>
    %o1 = linalg.matmul ins(%g1, %r2b : tensor<3x8xf32>, tensor<8x5xf32>)
                        outs(%z1 : tensor<3x5xf32>) -> tensor<3x5xf32>

    %g2 = spmd.all_gather %cb over ["i"] dim 1 tiled : tensor<6x4xf32> -> tensor<6x16xf32>
    %o2 = linalg.matmul ins(%l3b, %g2 : tensor<3x6xf32>, tensor<6x16xf32>)
                        outs(%initb : tensor<3x16xf32>) -> tensor<3x16xf32>

    %g3 = spmd.all_gather %db over ["i", "j"] dim 0 tiled : tensor<4x5xf32> -> tensor<32x5xf32>
    %o3 = linalg.matmul ins(%l4b, %g3 : tensor<3x32xf32>, tensor<32x5xf32>)
                        outs(%z1 : tensor<3x5xf32>) -> tensor<3x5xf32>

    %e4 = tensor.empty() : tensor<16x5xf32>
    %z4 = linalg.fill ins(%zero : f32) outs(%e4 : tensor<16x5xf32>) -> tensor<16x5xf32>
    %p4 = linalg.matmul ins(%l5b, %r5b : tensor<16x6xf32>, tensor<6x5xf32>)
                        outs(%z4 : tensor<16x5xf32>) -> tensor<16x5xf32>
    %o4 = spmd.psum_scatter %p4 over ["i"] dim 0 tiled : tensor<16x5xf32> -> tensor<4x5xf32>

    %e5 = tensor.empty() : tensor<3x32xf32>
    %z5 = linalg.fill ins(%zero : f32) outs(%e5 : tensor<3x32xf32>) -> tensor<3x32xf32>
    %p5 = linalg.matmul ins(%l6b, %r6b : tensor<3x6xf32>, tensor<6x32xf32>)
                        outs(%z5 : tensor<3x32xf32>) -> tensor<3x32xf32>
    %o5 = spmd.psum_scatter %p5 over ["i", "j"] dim 1 tiled : tensor<3x32xf32> -> tensor<3x4xf32>

    spmd.yield %o0, %o1, %o2, %o3, %o4, %o5
        : tensor<32x5xf32>, tensor<3x5xf32>, tensor<3x16xf32>, tensor<3x5xf32>,
          tensor<4x5xf32>, tensor<3x4xf32>
  }
  return %o#0, %o#1, %o#2, %o#3, %o#4, %o#5
      : tensor<32x5xf32>, tensor<3x5xf32>, tensor<3x16xf32>, tensor<3x5xf32>,
        tensor<16x5xf32>, tensor<3x32xf32>
}
