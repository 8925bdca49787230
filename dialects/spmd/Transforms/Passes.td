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

def SpmdCheckVariance : Pass<"spmd-check-variance", "ModuleOp"> {
  let summary = "Infer device-variance types, insert spmd.pvary, check out_specs";
  let description = [{
    Seed 001's device-variance typing, for the body of every `spmd.shard_map`
    and every device function (a function with `spmd.mesh`). Each value gets
    the set of manual axes it may vary over, and every ranked tensor type is
    annotated with it as `#spmd.vary<[...]>` (axes in mesh order):

    * a body argument varies over the axes of its in_spec (a device
      function's over those of its `#spmd.vary` encoding, else over all);
    * `spmd.axis_index` varies over its axes; constants, `tensor.empty`,
      `spmd.axis_size` are invariant;
    * other ops (arith, math, tensor, linalg including DPS `outs`) take the
      union of their operands, scalars included (scalars are tracked but
      carry no encoding);
    * collectives follow the design's table (`psum` removes its axes,
      `pvary`/`pscatter` add them, `all_gather`, `psum_scatter`,
      `all_to_all` and `ppermute` need and keep varying operands,
      `all_gather_invariant` makes invariant);
    * `scf.for`/`scf.while` iterate their carried values to a fixed point
      (varying bounds make the results vary); `scf.if` unifies its branches
      and its condition.

    Where an operand varies over fewer axes than its op needs (another
    operand, a loop-carried value, the other branch, a collective that
    needs varying operands), one `spmd.pvary` per value and axis set is
    inserted right after the value's definition. With
    `insert-pvary=false` each such place is an error instead (the seed's
    explicit mode).

    An output whose out_spec omits an axis the yielded value may vary over is
    rejected, naming the output, the axis and the fix, unless the shard_map
    says `check_vma = false`.

    Before:
    ```mlir
    // %x is split over "i" by its in_spec, %w is replicated
    ^bb0(%x: tensor<2xf32>, %w: tensor<2xf32>):
      %y = arith.mulf %x, %w : tensor<2xf32>
    ```
    After:
    ```mlir
    ^bb0(%x: tensor<2xf32, #spmd.vary<["i"]>>, %w: tensor<2xf32, #spmd.vary<[]>>):
      %w_i = spmd.pvary %w over ["i"] : tensor<2xf32, #spmd.vary<[]>> -> tensor<2xf32, #spmd.vary<["i"]>>
      %y = arith.mulf %x, %w_i : tensor<2xf32, #spmd.vary<["i"]>>
    ```
  }];
  let options = [
    Option<"insertPvary", "insert-pvary", "bool", /*default=*/"true",
           "Insert spmd.pvary where operands disagree (false: report an "
           "error there instead)">,
  ];
}

def SpmdEraseVariance : Pass<"spmd-erase-variance", "ModuleOp"> {
  let summary = "Drop #spmd.vary encodings from all types";
  let description = [{
    Device-variance types are a static check; once a program has passed it,
    lowering works on plain tensors. This pass rewrites every value, block
    argument, function signature and attribute (the value of a tensor
    constant) to drop `#spmd.vary` encodings.
  }];
}

#endif // SPMD_TRANSFORMS_PASSES_TD
