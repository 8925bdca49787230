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

#endif // SPMD_TRANSFORMS_PASSES_TD
