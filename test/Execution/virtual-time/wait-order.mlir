// Virtual time serves a device's collectives in the order it started them,
// as links do, not in the order it waits for them (docs/Overlap.md): a
// collective started earlier and still outstanding when the device runs a
// later one (its wait, or a synchronous collective) completes first, and
// its own wait then only hands over the result. trellis-run counts such
// collectives and says so; programs whose waits follow their starts, and
// runs on the wall clock, print nothing.
// RUN: trellis-run %s --entry reordered --random 1 --clock=virtual --clock-report %t.json 2>&1 >/dev/null | FileCheck %s --check-prefix=REORDERED
// REORDERED: trellis-run: virtual time on 4 devices
// REORDERED: trellis-run:   4 collective(s) on 4 device(s) completed ahead of their wait: a collective started later ran first, and links serve a device's collectives in the order they were started (docs/Overlap.md)
// RUN: FileCheck %s --check-prefix=JSON < %t.json
// JSON: "reordered_waits": 1
// RUN: trellis-run %s --entry sync_between --random 1 --clock=virtual 2>&1 >/dev/null | FileCheck %s --check-prefix=SYNC
// SYNC: 4 collective(s) on 4 device(s) completed ahead of their wait
// RUN: trellis-run %s --entry in_order --random 1 --clock=virtual 2>&1 >/dev/null | FileCheck %s --allow-empty --check-prefix=IN-ORDER
// RUN: trellis-run %s --entry reordered --random 1 2>&1 >/dev/null | FileCheck %s --allow-empty --check-prefix=IN-ORDER
// IN-ORDER-NOT: ahead of their wait
// The results do not depend on the order: each entry matches its
// reference.
// RUN: trellis-run %s --entry reordered --random 1 --reference --clock=virtual 2>&1 | FileCheck %s --check-prefix=MATCH
// RUN: trellis-run %s --entry sync_between --random 1 --reference 2>&1 | FileCheck %s --check-prefix=MATCH
// MATCH: reference: out0 {{.*}}: match
// MATCH: reference: out1 {{.*}}: match
//
// Links take a device's collectives in start order, also on virtual
// clocks: waited for first, a collective started later completes after
// the one started before it (docs/Overlap.md). With 5 us, 1 GB/s links on
// 4 devices, @behind_compute's all_gather takes 3 (5 + 65.536) us and its
// psum 6 (5 + 4.096) us: from their last start on, the wait for the psum
// lasts both rings (266.2 us; a device blocks that less the compute it did
// since its start), so every device is blocked for more than the
// all_gather's ring alone. Serving the psum first, a device blocked about
// 54.6 us, the all_gather hidden behind the compute.
// RUN: trellis-run %s --entry behind_compute --random 1 --reference --clock=virtual --link-latency-us 5 --link-bandwidth-gbps 1 --clock-report %t.order.json 2>&1 | FileCheck %s --check-prefix=ORDER
// ORDER: 4 collective(s) on 4 device(s) completed ahead of their wait
// ORDER-COUNT-3: reference: out{{[0-2]}} {{.*}}: match
// RUN: %python -c "import json; d = json.load(open('%t.order.json'))['runs'][0]['devices']; gather = 3 * (5 + 65.536); print('blocked', ['%%.3f' %% (x['comm_us'] + x['idle_us']) for x in d], 'more than the all_gather %%.3f:' %% gather, all(x['comm_us'] + x['idle_us'] > gather and x['reordered_waits'] == 1 for x in d))" | FileCheck %s --check-prefix=BLOCKED
// BLOCKED: more than the all_gather 211.608: True

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

// Started a 64 KiB all_gather A, then a psum B of 16 KiB; B waited for
// first, then a long compute (200 steps of tanh(v @ w / 64) on 64x64),
// then A.
// Links serve A first, so the wait for B lasts A's ring and B's: every
// device spends at least both rings' time blocked (comm + idle), where
// serving B first would leave it about B's, with A hidden behind the
// compute.
func.func @behind_compute(%x: tensor<256x256xf32>, %w: tensor<64x64xf32>)
    -> (tensor<1024x256xf32>, tensor<64x64xf32>, tensor<256x64xf32>) {
  %g, %s, %l = spmd.shard_map @mesh in_specs = [[{"i"}, {}], []] out_specs = [[{"i"}, {}], [], [{"i"}, {}]]
      (%x, %w) : (tensor<256x256xf32>, tensor<64x64xf32>) -> (tensor<1024x256xf32>, tensor<64x64xf32>, tensor<256x64xf32>) {
  ^bb0(%b: tensor<64x256xf32>, %wb: tensor<64x64xf32>):
    %fa = spmd.all_gather_start %b over ["i"] dim 0 tiled : tensor<64x256xf32> -> !spmd.future<tensor<256x256xf32>>
    %fb = spmd.psum_start %wb over ["i"] : tensor<64x64xf32> -> !spmd.future<tensor<64x64xf32>>
    %sb = spmd.collective_wait %fb : !spmd.future<tensor<64x64xf32>>
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c200 = arith.constant 200 : index
    %zero = arith.constant 0.0 : f32
    %v0 = tensor.extract_slice %b[0, 0] [64, 64] [1, 1] : tensor<64x256xf32> to tensor<64x64xf32>
    %out = scf.for %k = %c0 to %c200 step %c1 iter_args(%v = %v0) -> (tensor<64x64xf32>) {
      %e = tensor.empty() : tensor<64x64xf32>
      %z = linalg.fill ins(%zero : f32) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
      %m = linalg.matmul ins(%v, %wb : tensor<64x64xf32>, tensor<64x64xf32>)
                         outs(%z : tensor<64x64xf32>) -> tensor<64x64xf32>
      %scale = arith.constant dense<0.015625> : tensor<64x64xf32>
      %n = arith.mulf %m, %scale : tensor<64x64xf32>
      %t = math.tanh %n : tensor<64x64xf32>
      scf.yield %t : tensor<64x64xf32>
    }
    %ga = spmd.collective_wait %fa : !spmd.future<tensor<256x256xf32>>
    spmd.yield %ga, %sb, %out : tensor<256x256xf32>, tensor<64x64xf32>, tensor<64x64xf32>
  }
  return %g, %s, %l : tensor<1024x256xf32>, tensor<64x64xf32>, tensor<256x64xf32>
}
