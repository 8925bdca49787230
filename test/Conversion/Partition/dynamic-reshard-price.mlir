// Resharding a value of dynamic shape: the block router declines it, but
// its budget, the bytes of the stepwise plan, was priced first from the
// block's element count, ShapedType::kDynamic times the element size (a
// signed overflow UBSan stops on; found by the fuzzer on the propagated
// form of trellis-partition.mlir's dynamic_slice_size). A plan with a
// dynamic block is now unbounded, and the gather is built as before.
// RUN: trellis-opt %s --trellis-inline-calls --trellis-infer-shardings \
// RUN:   --trellis-propagate --trellis-partition --split-input-file | FileCheck %s

trellis.mesh @mesh = <["X"=4]>

// CHECK-LABEL: func.func @dynamic_rows
// CHECK: tensor.extract_slice %{{.*}}[0, 0] [%{{.*}}, 1] [1, 1] : tensor<8x1xf32> to tensor<?x1xf32>
// CHECK: spmd.all_gather %{{.*}} over ["X"] dim 1 tiled : tensor<?x1xf32> -> tensor<?x4xf32>
func.func @dynamic_rows(%x: tensor<8x4xf32> {trellis.sharding = #trellis.sharding<@mesh, [{}, {"X"}]>}, %n: index)
    -> tensor<?x4xf32> {
  %s = tensor.extract_slice %x[0, 0] [%n, 4] [1, 1] : tensor<8x4xf32> to tensor<?x4xf32>
  return %s : tensor<?x4xf32>
}

// -----

// A block so large that the router's byte count of its plan leaves
// int64_t (2^62 rows of 4 bytes): the router declines instead of
// overflowing, and the reshard takes its collective steps.
trellis.mesh @big = <["a"=2, "b"=2]>

// CHECK-LABEL: func.func @huge_rows
// CHECK: spmd.shard_map
// CHECK: return
func.func @huge_rows(%x: tensor<4611686018427387904x1xf32> {trellis.sharding = #trellis.sharding<@big, [{"a"}, {}]>})
    -> (tensor<4611686018427387904x1xf32> {trellis.sharding = #trellis.sharding<@big, [{"b"}, {}]>}) {
  return %x : tensor<4611686018427387904x1xf32>
}
