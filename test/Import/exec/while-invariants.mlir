// A data-dependent while (scf.while) whose body returns one operand
// unchanged: the sharded step w is read from outside the loop, not
// carried; the loop adds it until the sum passes 100. With --iota
// (v = w = [0..7], sum 28) that takes 3 steps: v = 4 * [0..7], w as given,
// n = 3; partitioned over "x" and equal to the unpartitioned program.
// RUN: trellis-opt %s --trellis-import-stablehlo | FileCheck %s --check-prefix=IR
// IR: scf.while (%{{.*}} = %arg0, %{{.*}} = %{{.*}}) : (tensor<8xf32>, tensor<i32>) -> (tensor<8xf32>, tensor<i32>)
// IR: arith.addf %{{.*}}, %arg1
// RUN: trellis-run %s --iota --reference 2>&1 | FileCheck %s
// CHECK: out0 (result[0]): float32[8]
// CHECK-NEXT: [ 0.  4.  8. 12. 16. 20. 24. 28.]
// CHECK: out1 (result[1]): float32[8]
// CHECK-NEXT: [0. 1. 2. 3. 4. 5. 6. 7.]
// CHECK: out2 (result[2]): int32[]
// CHECK-NEXT: 3
// CHECK-COUNT-3: match
module @jit_f attributes {mhlo.num_partitions = 2 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["x"=2]>
  func.func public @main(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}, %arg1: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> (tensor<8xf32> {jax.result_info = "result[0]"}, tensor<8xf32> {jax.result_info = "result[1]"}, tensor<i32> {jax.result_info = "result[2]"}) {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0:3 = stablehlo.while(%iterArg = %arg0, %iterArg_0 = %arg1, %iterArg_1 = %c) : tensor<8xf32>, tensor<8xf32>, tensor<i32>
     cond {
      %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %s = stablehlo.reduce(%iterArg init: %cst) applies stablehlo.add across dimensions = [0] : (tensor<8xf32>, tensor<f32>) -> tensor<f32>
      %lim = stablehlo.constant dense<1.000000e+02> : tensor<f32>
      %p = stablehlo.compare  LT, %s, %lim,  FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      stablehlo.return %p : tensor<i1>
    } do {
      %v = stablehlo.add %iterArg, %iterArg_0 : tensor<8xf32>
      %one = stablehlo.constant dense<1> : tensor<i32>
      %n = stablehlo.add %iterArg_1, %one : tensor<i32>
      stablehlo.return %v, %iterArg_0, %n : tensor<8xf32>, tensor<8xf32>, tensor<i32>
    }
    return %0#0, %0#1, %0#2 : tensor<8xf32>, tensor<8xf32>, tensor<i32>
  }
}
