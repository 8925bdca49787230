//===- Passes.td - Trellis analyses and reports ------------*- tablegen -*-===//
//
// Passes that measure a program and leave it unchanged.
//
//===----------------------------------------------------------------------===//

#ifndef TRELLIS_LIB_ANALYSIS_PASSES
#define TRELLIS_LIB_ANALYSIS_PASSES

include "mlir/Pass/PassBase.td"

def TrellisCommReport : Pass<"trellis-comm-report", "ModuleOp"> {
  let summary = "Print each collective with its axes and bytes sent per device";
  let description = [{
    Measures partitioning quality. For every function holding per-device
    code (a shard_map body or a device function), prints each collective
    with its source location, axes, operand and result types and the bytes
    one device sends, then the function's total. The module is unchanged.

    Bytes sent per device, for an operand of B bytes and a group of n
    devices, assume ring algorithms: all-reduces (`psum`, `pmax`, `pmin`,
    `pmean`) 2(n-1)/n B; `all_gather` (n-1) B; `psum_scatter` and
    `all_to_all` (n-1)/n B; `ppermute` B when some pair moves data between
    two devices. `pvary`, `pscatter` and axis queries send nothing. A
    collective inside `scf.for` loops whose bounds are constants or axis
    sizes counts once per iteration; in other loops it is reported per
    iteration and marked.

    ```
    // comm @main (mesh @m, 8 devices)
    //   loc("f.mlir":7:5) spmd.psum over ["Y"]: float32[2,8192] -> float32[2,8192], 65536 B
    //   total: 1 collective, 65536 B per device
    ```
  }];
  let options = [
    Option<"outputFile", "output", "std::string", /*default=*/"\"-\"",
           "Where to write the report (default: standard output)">,
  ];
}

#endif // TRELLIS_LIB_ANALYSIS_PASSES
