// A mesh may declare up to 2^31 devices. The block router plans every
// device's blocks, so on such a mesh it ran for ever (found by the fuzzer:
// the uneven contraction of uneven.mlir on an axis of 2^31); beyond 65,536
// devices it now declines and the reshard takes collective steps.
// RUN: trellis-opt %s --trellis-global-to-manual | FileCheck %s

trellis.mesh @m = <["x"=2147483648]>

// CHECK-LABEL: func.func @contraction
// CHECK: spmd.shard_map @m
// CHECK: linalg.matmul
// CHECK: return
func.func @contraction(%x: tensor<6x30xf32> {trellis.sharding = #trellis.sharding<@m, [{}, {"x"}]>},
                       %w: tensor<30x5xf32> {trellis.sharding = #trellis.sharding<@m, [{"x"}, {}]>}) -> tensor<6x5xf32> {
  %l = math.log %x : tensor<6x30xf32>
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<6x5xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<6x5xf32>) -> tensor<6x5xf32>
  %y = linalg.matmul ins(%l, %w : tensor<6x30xf32>, tensor<30x5xf32>) outs(%f : tensor<6x5xf32>) -> tensor<6x5xf32>
  return %y : tensor<6x5xf32>
}
