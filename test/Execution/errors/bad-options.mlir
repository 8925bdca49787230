// Out-of-range simulation options are reported, and nothing runs.
// RUN: not trellis-run %s --compute-slots=-1 2>&1 | FileCheck %s --check-prefix=SLOTS
// RUN: not trellis-run %s --link-latency-us=-5 2>&1 | FileCheck %s --check-prefix=LINK
// RUN: not trellis-run %s --link-bandwidth-gbps=-1 2>&1 | FileCheck %s --check-prefix=LINK
// SLOTS: trellis-run: error: --compute-slots must be 0 (no limit) or more, got -1
// LINK: trellis-run: error: --link-latency-us and --link-bandwidth-gbps must be finite and not negative
// An output directory that cannot be created (its parent is a file).
// RUN: rm -f %t.file && touch %t.file
// RUN: not trellis-run %s --output-dir %t.file/out 2>&1 | FileCheck %s --check-prefix=DIR
// DIR: trellis-run: error: cannot create '{{.*}}.file/out': Not a directory
// A trace file that cannot be written (its directory is a file).
// RUN: not trellis-run %s --trace %t.file/trace.json 2>&1 | FileCheck %s --check-prefix=TRACE
// TRACE: trellis-run: error: cannot write trace file '{{.*}}.file/trace.json': Not a directory

trellis.mesh @mesh = <["i"=2]>
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %r = spmd.shard_map @mesh in_specs = [[{"i"}]] out_specs = [[{"i"}]]
      (%x) : (tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%b: tensor<2xf32>):
    spmd.yield %b : tensor<2xf32>
  }
  return %r : tensor<4xf32>
}
