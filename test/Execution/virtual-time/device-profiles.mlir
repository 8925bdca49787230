// With --device the matmul kernels take their roofline time on the
// profile's chip, max(2 m n k / peak, bytes / memory bandwidth); --device
// implies virtual clocks and brings the profile's links.
//
// Per device a 1024x1024 f32 matmul into a zeroed buffer (read A and B,
// write C: 12,582,912 bytes). tpu-v5e (49 TFLOP/s f32, 819 GB/s):
// 2,147,483,648 / 49e6 = 43.826 us of compute against 15.364 us of memory
// traffic, so 43.826 us. h100 (67 TFLOP/s f32, 3350 GB/s): 32.052 us.
// RUN: trellis-run %s --device tpu-v5e --trace %t.v5e.json 2>&1 >/dev/null | FileCheck %s --check-prefix=V5E
// RUN: FileCheck %s --check-prefix=V5E-TRACE < %t.v5e.json
// V5E: trellis-run: virtual time on 2 devices (tpu-v5e, host compute x{{[0-9.e-]+}}): makespan {{[0-9.]+}} us; links 2 us, 50 GB/s
// V5E-TRACE: {"name": "matmul", "cat": "compute", "ph": "X", "pid": 0, "tid": 0, "ts": {{[0-9.]+}}, "dur": 43.826
// RUN: trellis-run %s --device h100 --link-latency-us 1 --trace %t.h100.json 2>&1 >/dev/null | FileCheck %s --check-prefix=H100
// RUN: FileCheck %s --check-prefix=H100-TRACE < %t.h100.json
// H100: trellis-run: virtual time on 2 devices (h100, host compute x{{[0-9.e-]+}}): makespan {{[0-9.]+}} us; links 1 us, 225 GB/s
// H100-TRACE: {"name": "matmul", "cat": "compute", "ph": "X", "pid": 0, "tid": 0, "ts": {{[0-9.]+}}, "dur": 32.052
//
// A dry run skips the matmuls' arithmetic and computes no results; the
// roofline time is the same.
// RUN: trellis-run %s --device tpu-v5e --dry-run --trace %t.dry.json 2>&1 | FileCheck %s --check-prefix=DRY
// RUN: FileCheck %s --check-prefix=V5E-TRACE < %t.dry.json
// DRY: dry run: 1 result(s) not computed
//
// A table of the user's adds devices (and wins over the built-in rows).
// RUN: printf '# mine\nslow 0 1 0 100 10 5 # f32 only\n' > %t.table
// RUN: trellis-run %s --device slow --device-table %t.table --trace %t.slow.json 2>&1 >/dev/null | FileCheck %s --check-prefix=SLOW
// RUN: FileCheck %s --check-prefix=SLOW-TRACE < %t.slow.json
// SLOW: virtual time on 2 devices (slow, host compute x{{[0-9.e-]+}}): {{.*}}; links 5 us, 10 GB/s
// 2,147,483,648 FLOP at 1 TFLOP/s: 2147.484 us.
// SLOW-TRACE: {"name": "matmul", {{.*}}"dur": 2147.48
//
// Errors.
// RUN: not trellis-run %s --device tpu-v9 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// UNKNOWN: trellis-run: error: unknown --device 'tpu-v9' (known: cpu, tpu-v5e, tpu-v5p, h100, a100)
// RUN: printf 'broken 1 2\n' > %t.bad
// RUN: not trellis-run %s --device broken --device-table %t.bad 2>&1 | FileCheck %s --check-prefix=COLUMNS
// COLUMNS: trellis-run: error: {{.*}}.bad:1: expected 7 columns (name f64 f32 bf16 memory link latency), got 3
// RUN: printf 'neg 0 -1 0 100 10 5\n' > %t.neg
// RUN: not trellis-run %s --device neg --device-table %t.neg 2>&1 | FileCheck %s --check-prefix=NUMBER
// NUMBER: trellis-run: error: {{.*}}.neg:1: column 3 ('-1') is not a number from 0 to 1e9
// RUN: not trellis-run %s --device x --device-table %t.missing 2>&1 | FileCheck %s --check-prefix=MISSING
// MISSING: trellis-run: error: cannot read --device-table '{{.*}}.missing': No such file or directory
// RUN: not trellis-run %s --dry-run 2>&1 | FileCheck %s --check-prefix=NEEDS
// NEEDS: trellis-run: error: --dry-run needs a --device profile
// RUN: not trellis-run %s --device h100 --dry-run --reference 2>&1 | FileCheck %s --check-prefix=NORESULT
// NORESULT: trellis-run: error: --dry-run computes no results: it takes no --reference, --output-dir or --print
// RUN: not trellis-run %s --device h100 --clock=wall 2>&1 | FileCheck %s --check-prefix=WALL
// WALL: trellis-run: error: --device h100 times devices by virtual clocks, not --clock=wall
// RUN: not trellis-run %s --device-table %t.table 2>&1 | FileCheck %s --check-prefix=TABLE
// TABLE: trellis-run: error: --device-table needs --device NAME (a row to use)
// RUN: not trellis-run %s --device h100 --no-kernels 2>&1 | FileCheck %s --check-prefix=KERNELS
// KERNELS: trellis-run: error: --device times the matmul kernels by the profile's roofline: it takes no --no-kernels

trellis.mesh @mesh = <["i"=2]>
func.func @main(%a: tensor<2048x1024xf32>, %b: tensor<1024x1024xf32>) -> tensor<2048x1024xf32> {
  %r = spmd.shard_map @mesh in_specs = [[{"i"}, {}], []] out_specs = [[{"i"}, {}]]
      (%a, %b) : (tensor<2048x1024xf32>, tensor<1024x1024xf32>) -> tensor<2048x1024xf32> {
  ^bb0(%x: tensor<1024x1024xf32>, %w: tensor<1024x1024xf32>):
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<1024x1024xf32>
    %z = linalg.fill ins(%zero : f32) outs(%e : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
    %m = linalg.matmul ins(%x, %w : tensor<1024x1024xf32>, tensor<1024x1024xf32>)
                       outs(%z : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
    spmd.yield %m : tensor<1024x1024xf32>
  }
  return %r : tensor<2048x1024xf32>
}
