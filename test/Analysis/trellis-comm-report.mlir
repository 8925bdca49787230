// RUN: trellis-opt %s --trellis-comm-report -o /dev/null | FileCheck %s
// RUN: trellis-opt %s --trellis-comm-report=output=%t.txt | FileCheck %s --check-prefix=IR
// RUN: FileCheck %s < %t.txt

// Bytes one device sends, ring algorithms, 4-byte elements:
// psum of 16x8 (512 B) over 4 devices: 2 * 3/4 * 512 = 768;
// all_gather of 16x8 over 2 devices: 1 * 512 = 512;
// psum_scatter of 16x8 over 4 devices: 3/4 * 512 = 384;
// all_to_all of 16x8 over 2 devices: 1/2 * 512 = 256;
// a ppermute moving data: 512, three times in a loop of axis_size - 1
// trips; pvary sends nothing and is not listed.
trellis.mesh @m = <["x"=2, "y"=4]>

// CHECK-LABEL: // comm @f (mesh @m, 8 devices)
// CHECK-NEXT: //   loc({{.*}}) spmd.psum over ["y"]: float32[16,8] -> float32[16,8], 768 B
// CHECK-NEXT: //   loc({{.*}}) spmd.all_gather over ["x"]: float32[16,8] -> float32[32,8], 512 B
// CHECK-NEXT: //   loc({{.*}}) spmd.psum_scatter over ["y"]: float32[16,8] -> float32[4,8], 384 B
// CHECK-NEXT: //   loc({{.*}}) spmd.all_to_all over ["x"]: float32[16,8] -> float32[8,16], 256 B
// CHECK-NEXT: //   loc({{.*}}) spmd.ppermute over ["y"]: float32[16,8] -> float32[16,8], 512 B x 3
// CHECK-NEXT: //   total: 5 collectives, 3456 B per device
// CHECK-NEXT: // comm @loop_unknown
// CHECK-NEXT: spmd.psum over ["x"]: float32[4] -> float32[4], 16 B per iteration of a loop of unknown trip count
// CHECK-NEXT: total: 1 collective, 16 B per device (loops of unknown trip count counted once)
// CHECK-NEXT: // comm @async
// CHECK-NEXT: spmd.ppermute_start over ["x"]: float32[8] -> future<float32[8]>, 32 B x 2
// CHECK-NEXT: total: 1 collective, 64 B per device
// CHECK-NEXT: // comm @folded_bound
// CHECK-NEXT: spmd.psum over ["x"]: float32[4] -> float32[4], 16 B x 3
// CHECK-NEXT: total: 1 collective, 48 B per device
// CHECK-NOT: @not_per_device
// IR: spmd.shard_map
func.func @f(%a: tensor<64x16xf32>) -> tensor<64x16xf32> {
  %r = spmd.shard_map @m in_specs = [[{"y"}, {"x"}]] out_specs = [[{"y"}, {"x"}]] (%a) : (tensor<64x16xf32>) -> tensor<64x16xf32> {
  ^bb0(%b: tensor<16x8xf32>):
    %s = spmd.psum %b over ["y"] : tensor<16x8xf32>
    %g = spmd.all_gather %s over ["x"] dim 0 tiled : tensor<16x8xf32> -> tensor<32x8xf32>
    %rs = spmd.psum_scatter %b over ["y"] dim 0 tiled : tensor<16x8xf32> -> tensor<4x8xf32>
    %t = spmd.all_to_all %b over ["x"] split 0 concat 1 : tensor<16x8xf32> -> tensor<8x16xf32>
    %v = spmd.pvary %s over ["x", "y"] : tensor<16x8xf32>
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %n = spmd.axis_size over ["y"] : index
    %last = arith.subi %n, %c1 : index
    %l = scf.for %i = %c0 to %last step %c1 iter_args(%x = %v) -> (tensor<16x8xf32>) {
      %p = spmd.ppermute %x over ["y"] pairs [[0, 1], [1, 2], [2, 3], [3, 0]] : tensor<16x8xf32>
      scf.yield %p : tensor<16x8xf32>
    }
    spmd.yield %l : tensor<16x8xf32>
  }
  return %r : tensor<64x16xf32>
}

// A device function: the trip count is an argument.
func.func @loop_unknown(%b: tensor<4xf32>, %n: index) -> tensor<4xf32>
    attributes {spmd.mesh = @m, spmd.manual_axes = ["x", "y"]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %l = scf.for %i = %c0 to %n step %c1 iter_args(%x = %b) -> (tensor<4xf32>) {
    %p = spmd.psum %x over ["x"] : tensor<4xf32>
    scf.yield %p : tensor<4xf32>
  }
  return %l : tensor<4xf32>
}

// An asynchronous ppermute counts at its start; the wait sends nothing.
func.func @async(%b: tensor<8xf32>) -> tensor<8xf32>
    attributes {spmd.mesh = @m, spmd.manual_axes = ["x", "y"]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %l = scf.for %i = %c0 to %c2 step %c1 iter_args(%x = %b) -> (tensor<8xf32>) {
    %f = spmd.ppermute_start %x over ["x"] pairs [[0, 1], [1, 0]] : tensor<8xf32> -> !spmd.future<tensor<8xf32>>
    %p = spmd.ppermute_wait %f : !spmd.future<tensor<8xf32>>
    scf.yield %p : tensor<8xf32>
  }
  return %l : tensor<8xf32>
}

// Any arithmetic that folds gives a known trip count: ceil(8 / 2) - 1 = 3.
func.func @folded_bound(%b: tensor<4xf32>) -> tensor<4xf32>
    attributes {spmd.mesh = @m, spmd.manual_axes = ["x", "y"]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %n = spmd.axis_size over ["x", "y"] : index
  %h = arith.ceildivui %n, %c2 : index
  %m = arith.maxui %h, %c1 : index
  %last = arith.subi %m, %c1 : index
  %l = scf.for %i = %c0 to %last step %c1 iter_args(%x = %b) -> (tensor<4xf32>) {
    %p = spmd.psum %x over ["x"] : tensor<4xf32>
    scf.yield %p : tensor<4xf32>
  }
  return %l : tensor<4xf32>
}

func.func @not_per_device(%a: tensor<8xf32>) -> tensor<8xf32> {
  return %a : tensor<8xf32>
}
