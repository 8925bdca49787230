// A mesh may declare up to 2^31 devices. The block router plans every
// device's blocks, so on such a mesh it ran for ever (found by the fuzzer:
// the uneven contraction of uneven.mlir on an axis of 2^31); beyond 65,536
// devices it now declines and the reshard takes collective steps.
// RUN: trellis-opt %s --split-input-file --trellis-global-to-manual \
// RUN:   | FileCheck %s

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

// -----

// Block routing picks each piece's sender among the devices holding it.
// It once compared every device for every piece (65,536^2 block tests
// here, 7 s); it now enumerates the holders of the piece's source block
// once and keeps them in a heap by load. [{"a"}] -> [{"b"}] on (256, 256):
// each device's 256 target rows lie in one source block, one ppermute.
trellis.mesh @m2 = <["a"=256, "b"=256]>

// CHECK-LABEL: func.func @route_on_65536
// CHECK: spmd.ppermute
// CHECK-NOT: spmd.all_gather
// CHECK: return
func.func @route_on_65536(%x: tensor<65536x4xf32> {trellis.sharding = #trellis.sharding<@m2, [{"a"}, {}]>})
    -> (tensor<65536x4xf32> {trellis.sharding = #trellis.sharding<@m2, [{"b"}, {}]>}) {
  return %x : tensor<65536x4xf32>
}

// -----

// Source blocks held by 32,768 devices each (the "b" coordinate is free):
// the senders are spread by load, still one round.
trellis.mesh @m3 = <["a"=2, "b"=32768]>

// CHECK-LABEL: func.func @route_many_holders
// CHECK: spmd.ppermute
// CHECK-NOT: spmd.ppermute
// CHECK-NOT: spmd.all_gather
// CHECK: return
func.func @route_many_holders(%x: tensor<65536x4xf32> {trellis.sharding = #trellis.sharding<@m3, [{"a"}, {}]>})
    -> (tensor<65536x4xf32> {trellis.sharding = #trellis.sharding<@m3, [{"b"}, {}]>}) {
  return %x : tensor<65536x4xf32>
}
