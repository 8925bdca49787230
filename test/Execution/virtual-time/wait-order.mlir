// Virtual time serialises a device's collectives in the order they are
// waited for (or run, when synchronous), not the order they were started
// (docs/Overlap.md, Limits). trellis-run says so when a program runs a
// collective while one its device started earlier is still outstanding,
// and counts such collectives in the report; programs whose waits follow
// their starts, and runs on the wall clock, get no warning.
// RUN: trellis-run %s --entry reordered --random 1 --clock=virtual --clock-report %t.json 2>&1 >/dev/null | FileCheck %s --check-prefix=REORDERED
// REORDERED: trellis-run: virtual time on 4 devices
// REORDERED: trellis-run:   warning: 4 collective(s) on 4 device(s) ran while one the device had started earlier was outstanding; virtual time serialises a device's collectives in the order they are waited for, not started, so these figures may be off (docs/Overlap.md, Limits)
// RUN: FileCheck %s --check-prefix=JSON < %t.json
// JSON: "reordered_waits": 1
// RUN: trellis-run %s --entry sync_between --random 1 --clock=virtual 2>&1 >/dev/null | FileCheck %s --check-prefix=SYNC
// SYNC: warning: 4 collective(s) on 4 device(s) ran while
// RUN: trellis-run %s --entry in_order --random 1 --clock=virtual 2>&1 >/dev/null | FileCheck %s --allow-empty --check-prefix=IN-ORDER
// RUN: trellis-run %s --entry reordered --random 1 2>&1 >/dev/null | FileCheck %s --allow-empty --check-prefix=IN-ORDER
// IN-ORDER-NOT: warning
// The results do not depend on the order: each entry matches its
// reference.
// RUN: trellis-run %s --entry reordered --random 1 --reference --clock=virtual 2>&1 | FileCheck %s --check-prefix=MATCH
// RUN: trellis-run %s --entry sync_between --random 1 --reference 2>&1 | FileCheck %s --check-prefix=MATCH
// MATCH: reference: out0 {{.*}}: match
// MATCH: reference: out1 {{.*}}: match

trellis.mesh @mesh = <["i"=4]>

// Started A then B, waited B then A.
func.func @reordered(%x: tensor<8x4xf32>) -> (tensor<32x4xf32>, tensor<8x4xf32>) {
  %g, %s = spmd.shard_map @mesh in_specs = [[{"i"}, {}]] out_specs = [[{"i"}, {}], [{"i"}, {}]]
      (%x) : (tensor<8x4xf32>) -> (tensor<32x4xf32>, tensor<8x4xf32>) {
  ^bb0(%b: tensor<2x4xf32>):
    %fa = spmd.all_gather_start %b over ["i"] dim 0 tiled : tensor<2x4xf32> -> !spmd.future<tensor<8x4xf32>>
    %fb = spmd.psum_start %b over ["i"] : tensor<2x4xf32> -> !spmd.future<tensor<2x4xf32>>
    %sb = spmd.collective_wait %fb : !spmd.future<tensor<2x4xf32>>
    %ga = spmd.collective_wait %fa : !spmd.future<tensor<8x4xf32>>
    spmd.yield %ga, %sb : tensor<8x4xf32>, tensor<2x4xf32>
  }
  return %g, %s : tensor<32x4xf32>, tensor<8x4xf32>
}

// A synchronous psum between an all_gather's start and its wait.
func.func @sync_between(%x: tensor<8x4xf32>) -> (tensor<32x4xf32>, tensor<8x4xf32>) {
  %g, %s = spmd.shard_map @mesh in_specs = [[{"i"}, {}]] out_specs = [[{"i"}, {}], [{"i"}, {}]]
      (%x) : (tensor<8x4xf32>) -> (tensor<32x4xf32>, tensor<8x4xf32>) {
  ^bb0(%b: tensor<2x4xf32>):
    %fa = spmd.all_gather_start %b over ["i"] dim 0 tiled : tensor<2x4xf32> -> !spmd.future<tensor<8x4xf32>>
    %sb = spmd.psum %b over ["i"] : tensor<2x4xf32>
    %ga = spmd.collective_wait %fa : !spmd.future<tensor<8x4xf32>>
    spmd.yield %ga, %sb : tensor<8x4xf32>, tensor<2x4xf32>
  }
  return %g, %s : tensor<32x4xf32>, tensor<8x4xf32>
}

// Started A then B, waited A then B.
func.func @in_order(%x: tensor<8x4xf32>) -> (tensor<32x4xf32>, tensor<8x4xf32>) {
  %g, %s = spmd.shard_map @mesh in_specs = [[{"i"}, {}]] out_specs = [[{"i"}, {}], [{"i"}, {}]]
      (%x) : (tensor<8x4xf32>) -> (tensor<32x4xf32>, tensor<8x4xf32>) {
  ^bb0(%b: tensor<2x4xf32>):
    %fa = spmd.all_gather_start %b over ["i"] dim 0 tiled : tensor<2x4xf32> -> !spmd.future<tensor<8x4xf32>>
    %fb = spmd.psum_start %b over ["i"] : tensor<2x4xf32> -> !spmd.future<tensor<2x4xf32>>
    %ga = spmd.collective_wait %fa : !spmd.future<tensor<8x4xf32>>
    %sb = spmd.collective_wait %fb : !spmd.future<tensor<2x4xf32>>
    spmd.yield %ga, %sb : tensor<8x4xf32>, tensor<2x4xf32>
  }
  return %g, %s : tensor<32x4xf32>, tensor<8x4xf32>
}
