// Shardy's sharding priorities (`p0`, `p1`) carry over to Trellis's
// shardings, where they order auto propagation.
// RUN: trellis-opt %s --trellis-import-stablehlo | FileCheck %s
// CHECK: func.func public @main(%{{.*}}: tensor<16x32xf32> {trellis.sharding = #trellis.sharding<@mesh, [{"x"}p1, {}]>}, %{{.*}}: tensor<16x32xf32> {trellis.sharding = #trellis.sharding<@mesh, [{}, {"x", ?}p0]>})
// CHECK: trellis.sharding_constraint %{{.*}} to <@mesh, [{}p2, {"x"}]>
module @jit_f attributes {mhlo.num_partitions = 4 : i32} {
  sdy.mesh @mesh = <["x"=4]>
  func.func public @main(%a: tensor<16x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}p1, {}]>},
                         %b: tensor<16x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x", ?}p0]>}) -> tensor<16x32xf32> {
    %c = stablehlo.add %a, %b : tensor<16x32xf32>
    %d = sdy.sharding_constraint %c <@mesh, [{}p2, {"x"}]> : tensor<16x32xf32>
    return %d : tensor<16x32xf32>
  }
}
