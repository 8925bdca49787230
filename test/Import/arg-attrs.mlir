// Attributes other front ends put on arguments and results, which the
// importer does not read, are dropped with a warning (they used to be
// carried into Trellis IR unread); JAX's own (layouts, memory kinds,
// donation, names) are dropped or read silently.
// RUN: trellis-opt %s --trellis-import-stablehlo -verify-diagnostics | FileCheck %s

// CHECK-LABEL: func.func public @main
// CHECK-SAME: (%{{.*}}: tensor<8xf32> {trellis.name = "x"}) -> tensor<8xf32>
// CHECK-NOT: torch
// CHECK-NOT: xla.
module @jit_f {
  // expected-warning@+2 {{argument #0's attribute "torch.name" is not one the importer knows; it is dropped}}
  // expected-warning@+1 {{result #0's attribute "xla.output_tag" is not one the importer knows; it is dropped}}
  func.func public @main(%arg0: tensor<8xf32> {jax.arg_info = "x", mhlo.layout_mode = "default", mhlo.memory_kind = "device", tf.aliasing_output = 0 : i32, torch.name = "input"}) -> (tensor<8xf32> {xla.output_tag = 1 : i64}) {
    %0 = stablehlo.exponential %arg0 : tensor<8xf32>
    return %0 : tensor<8xf32>
  }
}
