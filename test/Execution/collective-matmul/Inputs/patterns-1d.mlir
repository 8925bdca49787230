// Every pattern spmd-collective-matmul rewrites, on a 1-D mesh of @N@
// devices (the RUN lines substitute @N@, @4N@ and @6N@ = 4 and 6 times it).
// Row counts are even so that the bidirectional variant splits every
// chunk (patterns-4x2.mlir has odd ones, which stay unidirectional).
// Outputs (checked against numpy by check.py):
//   out0 = a @ w          all_gather of the lhs along rows (non-contracting)
//   out1 = b @ r2         all_gather of the lhs along columns (contracting)
//   out2 = init + l3 @ c  all_gather of the rhs along columns, any init
//   out3 = l4 @ d         all_gather of the rhs along rows (contracting)
//   out4 = l5 @ r5        psum_scatter along rows
//   out5 = l6 @ r6        psum_scatter along columns

trellis.mesh @mesh = <["i"=@N@]>

func.func @main(%a: tensor<@4N@x6xf32>, %w: tensor<6x5xf32>,
                %b: tensor<4x@4N@xf32>, %r2: tensor<@4N@x5xf32>,
                %c: tensor<6x@4N@xf32>, %l3: tensor<3x6xf32>, %init: tensor<3x@4N@xf32>,
                %d: tensor<@4N@x5xf32>, %l4: tensor<3x@4N@xf32>,
                %l5: tensor<@4N@x@6N@xf32>, %r5: tensor<@6N@x5xf32>,
                %l6: tensor<4x@6N@xf32>, %r6: tensor<@6N@x@4N@xf32>)
    -> (tensor<@4N@x5xf32>, tensor<4x5xf32>, tensor<3x@4N@xf32>, tensor<3x5xf32>,
        tensor<@4N@x5xf32>, tensor<4x@4N@xf32>) {
  %o:6 = spmd.shard_map @mesh
      in_specs = [[{"i"}, {}], [], [{}, {"i"}], [], [{}, {"i"}], [], [], [{"i"}, {}], [],
                  [{}, {"i"}], [{"i"}, {}], [{}, {"i"}], [{"i"}, {}]]
      out_specs = [[], [], [], [], [{"i"}, {}], [{}, {"i"}]] check_vma = false
      (%a, %w, %b, %r2, %c, %l3, %init, %d, %l4, %l5, %r5, %l6, %r6)
      : (tensor<@4N@x6xf32>, tensor<6x5xf32>, tensor<4x@4N@xf32>, tensor<@4N@x5xf32>,
         tensor<6x@4N@xf32>, tensor<3x6xf32>, tensor<3x@4N@xf32>, tensor<@4N@x5xf32>,
         tensor<3x@4N@xf32>, tensor<@4N@x@6N@xf32>, tensor<@6N@x5xf32>,
         tensor<4x@6N@xf32>, tensor<@6N@x@4N@xf32>)
      -> (tensor<@4N@x5xf32>, tensor<4x5xf32>, tensor<3x@4N@xf32>, tensor<3x5xf32>,
          tensor<@4N@x5xf32>, tensor<4x@4N@xf32>) {
  ^bb0(%ab: tensor<4x6xf32>, %wb: tensor<6x5xf32>, %bb: tensor<4x4xf32>, %r2b: tensor<@4N@x5xf32>,
       %cb: tensor<6x4xf32>, %l3b: tensor<3x6xf32>, %initb: tensor<3x@4N@xf32>,
       %db: tensor<4x5xf32>, %l4b: tensor<3x@4N@xf32>,
       %l5b: tensor<@4N@x6xf32>, %r5b: tensor<6x5xf32>, %l6b: tensor<4x6xf32>, %r6b: tensor<6x@4N@xf32>):
    %zero = arith.constant 0.0 : f32

    %g0 = spmd.all_gather %ab over ["i"] dim 0 tiled : tensor<4x6xf32> -> tensor<@4N@x6xf32>
    %e0 = tensor.empty() : tensor<@4N@x5xf32>
    %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<@4N@x5xf32>) -> tensor<@4N@x5xf32>
    %o0 = linalg.matmul ins(%g0, %wb : tensor<@4N@x6xf32>, tensor<6x5xf32>)
                        outs(%z0 : tensor<@4N@x5xf32>) -> tensor<@4N@x5xf32>

    %g1 = spmd.all_gather %bb over ["i"] dim 1 tiled : tensor<4x4xf32> -> tensor<4x@4N@xf32>
    %e1b = tensor.empty() : tensor<4x5xf32>
    %z1b = linalg.fill ins(%zero : f32) outs(%e1b : tensor<4x5xf32>) -> tensor<4x5xf32>
    %o1 = linalg.matmul ins(%g1, %r2b : tensor<4x@4N@xf32>, tensor<@4N@x5xf32>)
                        outs(%z1b : tensor<4x5xf32>) -> tensor<4x5xf32>
    %e1 = tensor.empty() : tensor<3x5xf32>
    %z1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<3x5xf32>) -> tensor<3x5xf32>

    %g2 = spmd.all_gather %cb over ["i"] dim 1 tiled : tensor<6x4xf32> -> tensor<6x@4N@xf32>
    %o2 = linalg.matmul ins(%l3b, %g2 : tensor<3x6xf32>, tensor<6x@4N@xf32>)
                        outs(%initb : tensor<3x@4N@xf32>) -> tensor<3x@4N@xf32>

    %g3 = spmd.all_gather %db over ["i"] dim 0 tiled : tensor<4x5xf32> -> tensor<@4N@x5xf32>
    %o3 = linalg.matmul ins(%l4b, %g3 : tensor<3x@4N@xf32>, tensor<@4N@x5xf32>)
                        outs(%z1 : tensor<3x5xf32>) -> tensor<3x5xf32>

    %p4 = linalg.matmul ins(%l5b, %r5b : tensor<@4N@x6xf32>, tensor<6x5xf32>)
                        outs(%z0 : tensor<@4N@x5xf32>) -> tensor<@4N@x5xf32>
    %o4 = spmd.psum_scatter %p4 over ["i"] dim 0 tiled : tensor<@4N@x5xf32> -> tensor<4x5xf32>

    %e5 = tensor.empty() : tensor<4x@4N@xf32>
    %z5 = linalg.fill ins(%zero : f32) outs(%e5 : tensor<4x@4N@xf32>) -> tensor<4x@4N@xf32>
    %p5 = linalg.matmul ins(%l6b, %r6b : tensor<4x6xf32>, tensor<6x@4N@xf32>)
                        outs(%z5 : tensor<4x@4N@xf32>) -> tensor<4x@4N@xf32>
    %o5 = spmd.psum_scatter %p5 over ["i"] dim 1 tiled : tensor<4x@4N@xf32> -> tensor<4x4xf32>

    spmd.yield %o0, %o1, %o2, %o3, %o4, %o5
        : tensor<@4N@x5xf32>, tensor<4x5xf32>, tensor<3x@4N@xf32>, tensor<3x5xf32>,
          tensor<4x5xf32>, tensor<4x4xf32>
  }
  return %o#0, %o#1, %o#2, %o#3, %o#4, %o#5
      : tensor<@4N@x5xf32>, tensor<4x5xf32>, tensor<3x@4N@xf32>, tensor<3x5xf32>,
        tensor<@4N@x5xf32>, tensor<4x@4N@xf32>
}
