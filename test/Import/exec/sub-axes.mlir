// Shardy's sub-axes, as JAX prints them after a reshape that splits a
// sharded dimension: 8 rows over "x" = 8 become 2x4, sharded
// [{"x":(1)2}, {"x":(2)4}]. The importer used to reject sub-axes; they
// now import as they are, the partitioner splits "x" into its two parts,
// and the reshape moves nothing.
// RUN: trellis-opt %s --trellis-import-stablehlo | FileCheck %s --check-prefix=IMPORT
// RUN: trellis-opt %s --trellis-import-stablehlo --trellis-global-to-manual --trellis-comm-report -o /dev/null | FileCheck %s --check-prefix=BYTES
// RUN: trellis-run %s --random 1 --reference --quiet | FileCheck %s --check-prefix=EXEC
// IMPORT: trellis.mesh @mesh = <["x"=8]>
// IMPORT: trellis.sharding_constraint %{{.*}} to <@mesh, [{"x":(1)2}, {"x":(2)4}, {}]>
// BYTES: total: 0 collectives, 0 B per device
// EXEC: reference: out0 (float32[2,4,3], 8 devices vs 1): match
module @jit_f attributes {mhlo.num_partitions = 8 : i32} {
  sdy.mesh @mesh = <["x"=8]>
  func.func public @main(%arg0: tensor<8x3xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> (tensor<2x4x3xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x":(1)2}, {"x":(2)4}, {}]>}) {
    %0 = stablehlo.reshape %arg0 : (tensor<8x3xf32>) -> tensor<2x4x3xf32>
    %1 = sdy.sharding_constraint %0 <@mesh, [{"x":(1)2}, {"x":(2)4}, {}]> : tensor<2x4x3xf32>
    %2 = stablehlo.exponential %1 : tensor<2x4x3xf32>
    return %2 : tensor<2x4x3xf32>
  }
}
