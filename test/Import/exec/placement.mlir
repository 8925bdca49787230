// Placement-only custom calls (jax.device_put with a memory kind prints
// @annotate_device_placement; host offloading @MoveToHost/@MoveToDevice)
// are imported as their operand, with a warning that names the memory
// kind. They used to be errors ("custom_call @... is not supported").
// RUN: trellis-opt %s --trellis-import-stablehlo -verify-diagnostics | FileCheck %s --check-prefix=IR
// RUN: rm -rf %t && trellis-run %s --random 5 --reference --save-inputs --output-dir %t --quiet 2>&1 | FileCheck %s
// RUN: %python %S/check_jax_forms.py placement %t | FileCheck %s --check-prefix=NP
// IR-NOT: custom_call
// CHECK: match
// NP: placement: 1 results equal numpy
module @jit_f attributes {mhlo.num_partitions = 2 : i32} {
  sdy.mesh @mesh = <["x"=2]>
  func.func public @main(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) {
    // expected-warning@+1 {{custom_call @annotate_device_placement (memory kind "pinned_host") only places its operand in memory; Trellis keeps every value in device memory and imports it as its operand}}
    %0 = stablehlo.custom_call @annotate_device_placement(%arg0) {has_side_effect = true, mhlo.frontend_attributes = {_xla_buffer_placement = "pinned_host"}} : (tensor<8xf32>) -> tensor<8xf32>
    // expected-warning@+1 {{custom_call @MoveToDevice only places its operand}}
    %1 = stablehlo.custom_call @MoveToDevice(%0) : (tensor<8xf32>) -> tensor<8xf32>
    %2 = stablehlo.exponential %1 : tensor<8xf32>
    %3 = stablehlo.add %2, %2 : tensor<8xf32>
    return %3 : tensor<8xf32>
  }
}
