// The types the seeds print with jax.typeof, for the explicit-sharding
// examples (written with every type spelled out in
// examples/seeds/explicit_sharding.mlir).
// RUN: trellis-opt %trellis_src/examples/seeds/explicit_sharding.mlir --trellis-print-types -o /dev/null | FileCheck %s
// RUN: trellis-opt %s --trellis-print-types -o /dev/null | FileCheck %s --check-prefix=PARTIAL

// sharded_array type: int32[4@X,2]
// CHECK-LABEL: @reshard_to_x
// CHECK-NEXT: %arg0 : int32[4,2]
// CHECK-NEXT: %0 = trellis.reshard : int32[4@X,2]

// arg0 sharding: int32[4@X,1]; arg1 sharding: int32[1,8@Y];
// result sharding: int32[4@X,8@Y]
// CHECK-LABEL: @add_arrays
// CHECK-NEXT: %arg0 : int32[4@X,1]
// CHECK-NEXT: %arg1 : int32[1,8@Y]
// CHECK-NEXT: %0 = tensor.empty : int32[4@X,8@Y]
// CHECK-NEXT: %1 = linalg.generic : int32[4@X,8@Y]

// x.sharding: float32[4@X,4@Y]; y.sharding inside g: float32[4,4@Y];
// z.sharding: float32[4@X,4@Y]
// CHECK-LABEL: @f
// CHECK-NEXT: %arg0 : float32[4@X,4@Y]
// CHECK-NEXT: %0 = math.sin : float32[4@X,4@Y]
// CHECK-NEXT: %1 = trellis.auto_axes : float32[4@X,4@Y]
// CHECK-NEXT:   %arg1 : float32[4,4@Y]

// y.sharding inside g: float32[4@X,4@Y]; z.sharding inside g: float32[4@X,4@Y]
// CHECK-LABEL: @f_auto
// CHECK-NEXT: %arg0 : float32[4,4]
// CHECK-NEXT: %0 = math.sin : float32[4,4]
// CHECK-NEXT: %1 = trellis.explicit_axes : float32[4,4]
// CHECK-NEXT:   %arg1 : float32[4@X,4@Y]
// CHECK-NEXT:   %{{.*}} = arith.constant : float32[4@X,4@Y]
// CHECK-NEXT:   %{{.*}} = arith.mulf : float32[4@X,4@Y]

// Seed 003: float32[8@X,2@Y] before and after x * 2.
// CHECK-LABEL: @times_two
// CHECK-NEXT: %arg0 : float32[8@X,2@Y]
// CHECK: arith.mulf : float32[8@X,2@Y]

// JAX's partial manual P(None, 'y') inside a shard_map over x: the body
// type keeps y; several axes on one dimension print as 8@(x,y).
trellis.mesh @mesh = <["x"=2, "y"=2], types = [explicit, explicit]>

// PARTIAL-LABEL: @partial
// PARTIAL-NEXT: %arg0 : float32[8@x,4@y]
// PARTIAL-NEXT: %arg1 : float32[8@(x,y)]
// PARTIAL-NEXT: %0 = spmd.shard_map : float32[4,4@y]
// PARTIAL-NEXT:   %arg2 : float32[4,4@y]
func.func @partial(%a: tensor<8x4xf32, #trellis.sharding<@mesh, [{"x"}, {"y"}]>>,
                   %b: tensor<8xf32, #trellis.sharding<@mesh, [{"x", "y"}]>>) {
  %r = spmd.shard_map @mesh manual_axes = ["x"] in_specs = [[{"x"}, {}]] out_specs = [[{}, {}]]
      (%a) : (tensor<8x4xf32, #trellis.sharding<@mesh, [{"x"}, {"y"}]>>)
          -> tensor<4x4xf32, #trellis.sharding<@mesh, [{}, {"y"}]>> {
  ^bb0(%blk: tensor<4x4xf32, #trellis.sharding<@mesh, [{}, {"y"}]>>):
    %g = spmd.all_gather_invariant %blk over ["x"] dim 0 tiled
        : tensor<4x4xf32, #trellis.sharding<@mesh, [{}, {"y"}]>> -> tensor<8x4xf32, #trellis.sharding<@mesh, [{}, {"y"}]>>
    %s = tensor.extract_slice %g[0, 0] [4, 4] [1, 1]
        : tensor<8x4xf32, #trellis.sharding<@mesh, [{}, {"y"}]>> to tensor<4x4xf32, #trellis.sharding<@mesh, [{}, {"y"}]>>
    spmd.yield %s : tensor<4x4xf32, #trellis.sharding<@mesh, [{}, {"y"}]>>
  }
  return
}
