// A manual computation whose all_gather result leaves with a replicated
// out sharding. Trellis's device-variance check cannot prove the blocks
// equal (its all_gather keeps its operand's variance), and a StableHLO
// program does not say whether JAX checked variance (check_vma): the
// importer warns and imports the shard_map with check_vma = false, as
// StableHLO runs it. It used to be refused by trellis-run and by the
// partitioner.
// RUN: trellis-opt %s --trellis-import-stablehlo -verify-diagnostics | FileCheck %s --check-prefix=IR
// RUN: trellis-opt %s --trellis-import-stablehlo --trellis-global-to-manual -o /dev/null 2>&1 | FileCheck %s --check-prefix=PART
// RUN: rm -rf %t && trellis-run %s --random 6 --reference --save-inputs --output-dir %t --quiet 2>&1 | FileCheck %s
// RUN: %python %S/check_jax_forms.py variance %t | FileCheck %s --check-prefix=NP
// IR: spmd.shard_map @mesh in_specs = {{\[}}[{"x"}]] out_specs = {{\[}}[{}]] check_vma = false
// PART: warning: the manual computation fails Trellis's device-variance check
// CHECK: match
// NP: variance: 1 results equal numpy
module @jit_f attributes {mhlo.num_partitions = 4 : i32} {
  sdy.mesh @mesh = <["x"=4]>
  func.func public @main(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}) {
    // expected-warning@+1 {{output #0 may vary over mesh axis "x", but out_specs[0] does not mention it (an unmapped output promises equal blocks)); a StableHLO program does not say whether JAX checked it (check_vma), so it is imported with check_vma = false: an unmapped output is taken from one device}}
    %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"x"}]>] out_shardings=[<@mesh, [{}]>] manual_axes={"x"} (%arg1: tensor<2xf32>) {
      %1 = "stablehlo.all_gather"(%arg1) <{all_gather_dim = 0 : i64, channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, use_global_device_ids}> : (tensor<2xf32>) -> tensor<8xf32>
      %cst = stablehlo.constant dense<3.000000e+00> : tensor<8xf32>
      %2 = stablehlo.multiply %1, %cst : tensor<8xf32>
      sdy.return %2 : tensor<8xf32>
    } : (tensor<8xf32>) -> tensor<8xf32>
    return %0 : tensor<8xf32>
  }
}
