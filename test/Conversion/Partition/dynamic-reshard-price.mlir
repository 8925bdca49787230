// Resharding a value of dynamic shape: the block router declines it, but
// its budget, the bytes of the stepwise plan, was priced first from the
// block's element count, ShapedType::kDynamic times the element size (a
// signed overflow UBSan stops on; found by the fuzzer on the propagated
// form of trellis-partition.mlir's dynamic_slice_size). A plan with a
// dynamic block is now unbounded, and the gather is built as before.
// RUN: trellis-opt %s --trellis-inline-calls --trellis-infer-shardings \
// RUN:   --trellis-propagate --trellis-partition | FileCheck %s

trellis.mesh @mesh = <["X"=4]>

// CHECK-LABEL: func.func @dynamic_rows
// CHECK: tensor.extract_slice %{{.*}}[0, 0] [%{{.*}}, 1] [1, 1] : tensor<8x1xf32> to tensor<?x1xf32>
// CHECK: spmd.all_gather %{{.*}} over ["X"] dim 1 tiled : tensor<?x1xf32> -> tensor<?x4xf32>
func.func @dynamic_rows(%x: tensor<8x4xf32> {trellis.sharding = #trellis.sharding<@mesh, [{}, {"X"}]>}, %n: index)
    -> tensor<?x4xf32> {
  %s = tensor.extract_slice %x[0, 0] [%n, 4] [1, 1] : tensor<8x4xf32> to tensor<?x4xf32>
  return %s : tensor<?x4xf32>
}
