// --clock takes wall or virtual; --clock-report needs virtual clocks.
// RUN: not trellis-run %s --clock=cpu 2>&1 | FileCheck %s --check-prefix=CLOCK
// RUN: not trellis-run %s --clock-report=%t.json 2>&1 | FileCheck %s --check-prefix=REPORT
// CLOCK: trellis-run: error: --clock must be 'wall' or 'virtual', got 'cpu'
// REPORT: trellis-run: error: --clock-report needs --clock=virtual
// A report that cannot be written (its directory is a file).
// RUN: rm -f %t.file && touch %t.file
// RUN: not trellis-run %s --clock=virtual --clock-report %t.file/r.json 2>&1 | FileCheck %s --check-prefix=WRITE
// WRITE: trellis-run: error: cannot write '{{.*}}.file/r.json': Not a directory
//
// The summary: with one run its clocks; with several, the makespan of a
// run that replays each compute segment's fastest time. Without a link
// model communication is free. The psum of 2 f32 over 2 devices is a ring
// all-reduce of 2 steps of 4 bytes: 2 x (5 us + 4 B / 1 GB/s) = 10.008 us.
// RUN: trellis-run %s --clock=virtual 2>&1 >/dev/null | FileCheck %s --check-prefix=ONE
// ONE: trellis-run: virtual time on 2 devices: makespan {{[0-9.]+}} us; no link model: communication takes no time
// ONE-NEXT: trellis-run:   per device: compute {{[0-9.]+}}-{{[0-9.]+}} us, communication 0.000-0.000 us, idle {{[0-9.]+}}-{{[0-9.]+}} us; 0% of communication hidden behind compute
// RUN: trellis-run %s --clock=virtual --repeat 3 --link-latency-us 5 --link-bandwidth-gbps 1 --clock-report %t.json 2>&1 >/dev/null | FileCheck %s --check-prefix=REPLAY
// REPLAY: trellis-run: virtual time on 2 devices: makespan {{[0-9.]+}} us (each compute segment at its fastest over 3 runs; the runs: median {{[0-9.]+}}, min {{[0-9.]+}}, max {{[0-9.]+}}); links 5 us, 1 GB/s
// REPLAY-NEXT: trellis-run:   per device: compute {{.*}}, communication 10.008-10.008 us, idle
// RUN: FileCheck %s --check-prefix=JSON < %t.json
// JSON: "clock": "virtual",
// JSON: "replayed": {
// JSON: "comm_us": 10.00{{[0-9]+}},
// JSON: "runs": [

trellis.mesh @mesh = <["i"=2]>
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %r = spmd.shard_map @mesh in_specs = [[{"i"}]] out_specs = [[{"i"}]]
      (%x) : (tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%b: tensor<2xf32>):
    %s = spmd.psum %b over ["i"] : tensor<2xf32>
    spmd.yield %s : tensor<2xf32>
  }
  return %r : tensor<4xf32>
}
