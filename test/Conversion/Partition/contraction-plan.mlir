// A contraction whose operand is split on the reduced dimension over an axis
// the result wants on a parallel dimension (x[B, 64@Y] . w[64, 32@Y] ->
// [B, 32@Y]) can keep the reduction split (move w to [64@Y, 32], sum partial
// results and reduce-scatter them) or gather x over Y. trellis-partition
// takes the plan that moves fewer bytes: with B = 4 gathering x (768 B per
// device against 1,536 + 384), with B = 64 the reduce-scatter (1,536 + 6,144
// against 12,288).
// RUN: trellis-opt %s --trellis-global-to-manual --trellis-comm-report -o /dev/null | FileCheck %s
// RUN: trellis-run %s --entry=small --random 1 --reference --quiet | FileCheck %s --check-prefix=EXEC
// RUN: trellis-run %s --entry=large --random 1 --reference --quiet | FileCheck %s --check-prefix=EXEC
// RUN: trellis-run %s --entry=zero_constant --random 1 --reference --quiet | FileCheck %s --check-prefix=EXEC
// RUN: trellis-run %s --entry=one_constant --random 1 --reference --quiet | FileCheck %s --check-prefix=EXEC
// EXEC: reference: out0 {{.*}}: match

trellis.mesh @mesh = <["Y"=4]>

// CHECK: comm @small
// CHECK-NEXT: spmd.all_gather over ["Y"]: float32[4,16] -> float32[4,64], 768 B
// CHECK-NEXT: total: 1 collective, 768 B per device
func.func @small(%x: tensor<4x64xf32> {trellis.sharding = #trellis.sharding<@mesh, [{}, {"Y"}]>},
                 %w: tensor<64x32xf32> {trellis.sharding = #trellis.sharding<@mesh, [{}, {"Y"}]>})
    -> (tensor<4x32xf32> {trellis.sharding = #trellis.sharding<@mesh, [{}, {"Y"}]>}) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x32xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x32xf32>) -> tensor<4x32xf32>
  %r = linalg.matmul ins(%x, %w : tensor<4x64xf32>, tensor<64x32xf32>) outs(%f : tensor<4x32xf32>) -> tensor<4x32xf32>
  return %r : tensor<4x32xf32>
}

// CHECK: comm @large
// CHECK-NEXT: spmd.all_to_all over ["Y"]: float32[64,8] -> float32[16,32], 1536 B
// CHECK-NEXT: spmd.psum_scatter over ["Y"]: float32[64,32] -> float32[64,8], 6144 B
// CHECK-NEXT: total: 2 collectives, 7680 B per device
func.func @large(%x: tensor<64x64xf32> {trellis.sharding = #trellis.sharding<@mesh, [{}, {"Y"}]>},
                 %w: tensor<64x32xf32> {trellis.sharding = #trellis.sharding<@mesh, [{}, {"Y"}]>})
    -> (tensor<64x32xf32> {trellis.sharding = #trellis.sharding<@mesh, [{}, {"Y"}]>}) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x32xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<64x32xf32>) -> tensor<64x32xf32>
  %r = linalg.matmul ins(%x, %w : tensor<64x64xf32>, tensor<64x32xf32>) outs(%f : tensor<64x32xf32>) -> tensor<64x32xf32>
  return %r : tensor<64x32xf32>
}

// A sum into a zero constant (how a replicated out_sharding is written in
// explicit mode, and what trellis-grad builds for a replicated weight's
// gradient) keeps the reduction split like a sum into a zero fill: partial
// sums, then one psum of the 32x8 result (1,536 B per device) instead of
// gathering both operands (7,680 B, as @one_constant below does).
// CHECK: comm @zero_constant
// CHECK-NEXT: spmd.psum over ["Y"]: float32[32,8] -> float32[32,8], 1536 B
// CHECK-NEXT: total: 1 collective, 1536 B per device
func.func @zero_constant(%x: tensor<64x32xf32> {trellis.sharding = #trellis.sharding<@mesh, [{"Y"}, {}]>},
                         %g: tensor<64x8xf32> {trellis.sharding = #trellis.sharding<@mesh, [{"Y"}, {}]>})
    -> (tensor<32x8xf32> {trellis.sharding = #trellis.sharding<@mesh, [{}, {}]>}) {
  %z = arith.constant dense<0.0> : tensor<32x8xf32>
  %r = linalg.matmul indexing_maps = [affine_map<(i, j, k) -> (k, i)>, affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (i, j)>]
         ins(%x, %g : tensor<64x32xf32>, tensor<64x8xf32>) outs(%z : tensor<32x8xf32>) -> tensor<32x8xf32>
  return %r : tensor<32x8xf32>
}

// A non-zero constant is not the identity of a sum: adding it on every
// device would count it once per device, so the operands are gathered.
// CHECK: comm @one_constant
// CHECK-NOT: spmd.psum
// CHECK: total:
func.func @one_constant(%x: tensor<64x32xf32> {trellis.sharding = #trellis.sharding<@mesh, [{"Y"}, {}]>},
                        %g: tensor<64x8xf32> {trellis.sharding = #trellis.sharding<@mesh, [{"Y"}, {}]>})
    -> (tensor<32x8xf32> {trellis.sharding = #trellis.sharding<@mesh, [{}, {}]>}) {
  %z = arith.constant dense<1.0> : tensor<32x8xf32>
  %r = linalg.matmul indexing_maps = [affine_map<(i, j, k) -> (k, i)>, affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (i, j)>]
         ins(%x, %g : tensor<64x32xf32>, tensor<64x8xf32>) outs(%z : tensor<32x8xf32>) -> tensor<32x8xf32>
  return %r : tensor<32x8xf32>
}
