// RUN: trellis-opt %s --split-input-file --spmd-check-variance | FileCheck %s

// Futures are typed like the synchronous results they will hold: a psum's
// is invariant over the summed axis, a gather's varies, a ppermute's keeps
// its operand's variance; the waits give those types.
trellis.mesh @mesh = <["i"=2, "j"=2]>
// CHECK-LABEL: func.func @starts
// CHECK: spmd.psum_start %{{.*}} over ["i"] : tensor<8xf32, #spmd.vary<["i", "j"]>> -> !spmd.future<tensor<8xf32, #spmd.vary<["j"]>>>
// CHECK: spmd.collective_wait %{{.*}} : !spmd.future<tensor<8xf32, #spmd.vary<["j"]>>>
// CHECK: spmd.all_gather_start %{{.*}} over ["j"] dim 0 tiled : tensor<8xf32, #spmd.vary<["i", "j"]>> -> !spmd.future<tensor<16xf32, #spmd.vary<["i", "j"]>>>
// CHECK: spmd.ppermute_start %{{.*}} : tensor<8xf32, #spmd.vary<["i", "j"]>> -> !spmd.future<tensor<8xf32, #spmd.vary<["i", "j"]>>>
// CHECK: spmd.ppermute_wait %{{.*}} : !spmd.future<tensor<8xf32, #spmd.vary<["i", "j"]>>>
func.func @starts(%x: tensor<8xf32>) -> (tensor<8xf32>, tensor<16xf32>, tensor<8xf32>) attributes {spmd.mesh = @mesh} {
  %f = spmd.psum_start %x over ["i"] : tensor<8xf32> -> !spmd.future<tensor<8xf32>>
  %p = spmd.collective_wait %f : !spmd.future<tensor<8xf32>>
  %g = spmd.all_gather_start %x over ["j"] dim 0 tiled : tensor<8xf32> -> !spmd.future<tensor<16xf32>>
  %gw = spmd.collective_wait %g : !spmd.future<tensor<16xf32>>
  %q = spmd.ppermute_start %x over ["i"] pairs [[0, 1], [1, 0]] : tensor<8xf32> -> !spmd.future<tensor<8xf32>>
  %qw = spmd.ppermute_wait %q : !spmd.future<tensor<8xf32>>
  return %p, %gw, %qw : tensor<8xf32>, tensor<16xf32>, tensor<8xf32>
}

// -----

// A future carried through a loop (a gather started one iteration ahead,
// as spmd-pipeline-collectives writes it): the iter_arg, the loop result
// and the wait after the loop hold the gathered type.
trellis.mesh @mesh = <["d"=4]>
// CHECK-LABEL: func.func @carried
// CHECK: %[[F0:.*]] = spmd.all_gather_start {{.*}} -> !spmd.future<tensor<8xf32, #spmd.vary<["d"]>>>
// CHECK: scf.for {{.*}} iter_args({{.*}}, %{{.*}} = %[[F0]]) -> (tensor<8xf32, #spmd.vary<["d"]>>, !spmd.future<tensor<8xf32, #spmd.vary<["d"]>>>)
// CHECK: spmd.collective_wait %{{.*}} : !spmd.future<tensor<8xf32, #spmd.vary<["d"]>>>
// CHECK: scf.yield {{.*}} : tensor<8xf32, #spmd.vary<["d"]>>, !spmd.future<tensor<8xf32, #spmd.vary<["d"]>>>
// CHECK: spmd.collective_wait %{{.*}}#1 : !spmd.future<tensor<8xf32, #spmd.vary<["d"]>>>
func.func @carried(%x: tensor<8xf32>, %w: tensor<4x2xf32>) -> tensor<8xf32> attributes {spmd.mesh = @mesh} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %w0 = tensor.extract_slice %w[0, 0] [1, 2] [1, 1] : tensor<4x2xf32> to tensor<2xf32>
  %f0 = spmd.all_gather_start %w0 over ["d"] dim 0 tiled : tensor<2xf32> -> !spmd.future<tensor<8xf32>>
  %r:2 = scf.for %l = %c0 to %c3 step %c1 iter_args(%a = %x, %f = %f0) -> (tensor<8xf32>, !spmd.future<tensor<8xf32>>) {
    %n = arith.addi %l, %c1 : index
    %wn = tensor.extract_slice %w[%n, 0] [1, 2] [1, 1] : tensor<4x2xf32> to tensor<2xf32>
    %fn = spmd.all_gather_start %wn over ["d"] dim 0 tiled : tensor<2xf32> -> !spmd.future<tensor<8xf32>>
    %g = spmd.collective_wait %f : !spmd.future<tensor<8xf32>>
    %s = arith.addf %a, %g : tensor<8xf32>
    scf.yield %s, %fn : tensor<8xf32>, !spmd.future<tensor<8xf32>>
  }
  %last = spmd.collective_wait %r#1 : !spmd.future<tensor<8xf32>>
  %y = arith.addf %r#0, %last : tensor<8xf32>
  return %y : tensor<8xf32>
}
