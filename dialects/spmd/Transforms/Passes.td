//===- Passes.td - spmd dialect passes ------------------------*- tablegen -*-===//

#ifndef SPMD_TRANSFORMS_PASSES_TD
#define SPMD_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def SpmdOutlineDeviceFunc : Pass<"spmd-outline-device-func", "ModuleOp"> {
  let summary = "Outline fully-manual shard_map bodies into device functions";
  let description = [{
    For every `spmd.shard_map` that makes all axes of its mesh manual and sits
    directly in a function body, creates a function holding a copy of the
    body: the per-device program. The function takes and returns per-device
    tensors and carries `spmd.mesh` and `spmd.manual_axes`, so collectives in
    it keep their meaning. The shard_map is tagged with `spmd.device_func`
    naming it.

    Before:
    ```mlir
    func.func @f(%a: tensor<8xf32>) -> tensor<8xf32> {
      %r = spmd.shard_map @mesh in_specs = [[{"i"}}] # "]" # [{] out_specs = [[{"i"}}] # "]" # [{]
          (%a) : (tensor<8xf32>) -> tensor<8xf32> {
      ^bb0(%b: tensor<2xf32>):
        %s = spmd.psum %b over ["i"] : tensor<2xf32>
        spmd.yield %s : tensor<2xf32>
      }
      return %r : tensor<8xf32>
    }
    ```
    After (with `erase-host`):
    ```mlir
    func.func @f_device(%b: tensor<2xf32>) -> tensor<2xf32>
        attributes {llvm.emit_c_interface, spmd.manual_axes = ["i"], spmd.mesh = @mesh} {
      %s = spmd.psum %b over ["i"] : tensor<2xf32>
      return %s : tensor<2xf32>
    }
    ```
  }];
  let options = [
    Option<"entry", "entry", "std::string", /*default=*/"\"\"",
           "Outline only the shard_map in this function (default: all)">,
    Option<"eraseHost", "erase-host", "bool", /*default=*/"false",
           "Erase every function that is not a device function">,
  ];
}

def SpmdEraseVariance : Pass<"spmd-erase-variance", "ModuleOp"> {
  let summary = "Drop #spmd.vary encodings from all types";
  let description = [{
    Device-variance types are a static check; once a program has passed it,
    lowering works on plain tensors. This pass rewrites every value, block
    argument and function signature to drop `#spmd.vary` encodings.
  }];
}

//===----------------------------------------------------------------------===//
// Collective matmul and asynchronous collectives (issue 7)
//===----------------------------------------------------------------------===//

def SpmdCollectiveMatmul : Pass<"spmd-collective-matmul", "ModuleOp"> {
  let summary = "Overlap all_gather / psum_scatter with the matmul they feed";
  let description = [{
    In manual regions (shard_map bodies and device functions), rewrites

    * `all_gather` feeding a `linalg.matmul` (the gathered operand is the lhs
      or the rhs, gathered along a non-contracting dimension — lhs rows, rhs
      columns — or along the contracting dimension), and
    * a `linalg.matmul` whose only use is a tiled `psum_scatter` along rows
      or columns

    into a loop over the `n` devices of the group: each step multiplies one
    chunk while the next chunk travels to the neighbour on the ring by
    `spmd.ppermute` (the collective matmul of seeds 000 and 003). Gathered
    chunks land in the result by `tensor.insert_slice` at
    `((axis_index + i) mod n) * chunk`, or, on the contracting dimension,
    accumulate against the rows of the other operand sliced at that offset.
    For `psum_scatter`, a partial-sum accumulator for output chunk
    `(axis_index + i + 1) mod n` circulates and each step adds this device's
    partial product; after `n` steps every device holds its own chunk,
    reduced over the group. The transfer of step `i + 1` only depends on
    values of step `i`, so `spmd-async-collectives` can overlap it with the
    matmul.

    With `bidirectional`, every chunk is split in two halves of rows (so
    each is contiguous) that travel in opposite directions around the ring:
    each link carries half the bytes per step. Where the rows are not the
    gathered dimension, the halves split the result's rows (lhs contracting,
    psum_scatter along columns) or the contracting dimension (rhs columns). `unroll` emits the `n` steps as straight-line code instead of
    an `scf.for`. A pattern fires only when the bytes it would otherwise
    gather or scatter (the gathered operand, or the matmul result) reach
    `threshold-bytes`, as XLA's windowed-einsum threshold; `force` ignores the
    threshold. Patterns with dynamic shapes, a group of one device, other
    uses of the gathered value or of the matmul result are left alone; with
    `bidirectional`, chunks with an odd number of rows go unidirectional.

    Before (seed 000's collective_matmul_allgather_lhs_non_contracting
    written naively):
    ```mlir
    %g = spmd.all_gather %lhs over ["i"] dim 0 tiled
        : tensor<512x2048xf32> -> tensor<4096x2048xf32>
    %c = linalg.matmul ins(%g, %rhs : tensor<4096x2048xf32>, tensor<2048x1024xf32>)
                       outs(%zeros : tensor<4096x1024xf32>) -> tensor<4096x1024xf32>
    ```
    After: the loop the seed writes by hand:
    ```mlir
    %loop:2 = scf.for %i = %c0 to %c7 step %c1 iter_args(%acc = %zeros, %l = %lhs) -> (...) {
      %update = linalg.matmul ins(%l, %rhs ...) outs(%z ...) -> tensor<512x1024xf32>
      %next = spmd.ppermute %l over ["i"] pairs [[0, 7], [1, 0], ..., [7, 6]}] # "]" # [{ : tensor<512x2048xf32>
      %s = arith.addi %idx, %i : index
      %m = arith.remui %s, %c8 : index
      %row = arith.muli %m, %c512 : index
      %u = tensor.insert_slice %update into %acc[%row, 0] [512, 1024] [1, 1] : ...
      scf.yield %u, %next : ...
    }
    // the last chunk, without the ppermute
    ```
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::linalg::LinalgDialect",
    "::mlir::scf::SCFDialect", "::mlir::tensor::TensorDialect"
  ];
  let options = [
    Option<"bidirectional", "bidirectional", "bool", /*default=*/"false",
           "Send half of every chunk each way around the ring">,
    Option<"unroll", "unroll", "bool", /*default=*/"false",
           "Emit the steps as straight-line code instead of an scf.for">,
    Option<"thresholdBytes", "threshold-bytes", "int64_t",
           /*default=*/"1048576",
           "Rewrite only when the gathered operand (or the matmul result "
           "before psum_scatter) has at least this many bytes">,
    Option<"force", "force", "bool", /*default=*/"false",
           "Rewrite every match, whatever its size">,
  ];
}

def SpmdAsyncCollectives : Pass<"spmd-async-collectives", "ModuleOp"> {
  let summary = "Split ppermutes into start/wait and schedule them for overlap";
  let description = [{
    Replaces every `spmd.ppermute` in a manual region by
    `spmd.ppermute_start` + `spmd.ppermute_wait` and, with `schedule` (the
    default), moves each start as early and each wait as late in its block
    as dependences allow: a start goes right after the op defining its
    operand (and never above an earlier start or an op that contains
    communication, so starts keep their order), a wait right before the
    first op that uses its result. In the loops `spmd-collective-matmul`
    builds, the transfer of the next chunk then overlaps the matmul of the
    current one.

    Moving a start earlier or a wait later cannot create a deadlock: a start
    never blocks, and every device runs the same schedule, so the k-th start
    of a group is the same op on every device. Synchronous collectives keep
    their places.

    ```mlir
    %u = linalg.matmul ins(%l, %r ...) ...
    %next = spmd.ppermute %l over ["i"] pairs [...] : tensor<512x2048xf32>
    ```
    becomes
    ```mlir
    %f = spmd.ppermute_start %l over ["i"] pairs [...]
           : tensor<512x2048xf32> -> !spmd.future<tensor<512x2048xf32>>
    %u = linalg.matmul ins(%l, %r ...) ...
    ...
    %next = spmd.ppermute_wait %f : !spmd.future<tensor<512x2048xf32>>
    scf.yield %acc, %next : ...
    ```
  }];
  let options = [
    Option<"schedule", "schedule", "bool", /*default=*/"true",
           "Hoist starts and sink waits (otherwise they stay adjacent)">,
  ];
}

#endif // SPMD_TRANSFORMS_PASSES_TD
