// while_loop (a data-dependent while: scf.while), switch (case: a chain of
// scf.if, out-of-range indices run the last branch) and cond (if), in a
// global-view program sharded over "x", run partitioned and compared with
// the unpartitioned program. With --iota x = [0..7]: the sum 28 doubles
// twice to pass 100, so n = 2, the switch runs branch 2 (x * 3), and the
// cond (sum > 200) takes its false branch.
// RUN: trellis-run %s --iota --reference 2>&1 | FileCheck %s
// CHECK: out0 (result[0]): float32[8]
// CHECK-NEXT: [ 0.  3.  6.  9. 12. 15. 18. 21.]
// CHECK: out1 (result[1]): int32[]
// CHECK-NEXT: 2
// CHECK: out2 (result[2]): float32[8]
// CHECK-NEXT: [ 0.  4.  8. 12. 16. 20. 24. 28.]
// CHECK: out3 (result[3]): float32[8]
// CHECK-NEXT: [-0. -1. -2. -3. -4. -5. -6. -7.]
// CHECK-COUNT-4: match
module @jit_f attributes {mhlo.num_partitions = 2 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["x"=2]>
  func.func public @main(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> (tensor<8xf32> {jax.result_info = "result[0]"}, tensor<i32> {jax.result_info = "result[1]"}, tensor<8xf32> {jax.result_info = "result[2]"}, tensor<8xf32> {jax.result_info = "result[3]"}) {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0:2 = stablehlo.while(%iterArg = %arg0, %iterArg_0 = %c) : tensor<8xf32>, tensor<i32>
     cond {
      %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %s = stablehlo.reduce(%iterArg init: %cst) applies stablehlo.add across dimensions = [0] : (tensor<8xf32>, tensor<f32>) -> tensor<f32>
      %lim = stablehlo.constant dense<1.000000e+02> : tensor<f32>
      %p = stablehlo.compare  LT, %s, %lim,  FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %c20 = stablehlo.constant dense<20> : tensor<i32>
      %q = stablehlo.compare  LT, %iterArg_0, %c20,  SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %pq = stablehlo.and %p, %q : tensor<i1>
      stablehlo.return %pq : tensor<i1>
    } do {
      %d = stablehlo.add %iterArg, %iterArg : tensor<8xf32>
      %c1 = stablehlo.constant dense<1> : tensor<i32>
      %n = stablehlo.add %iterArg_0, %c1 : tensor<i32>
      stablehlo.return %d, %n : tensor<8xf32>, tensor<i32>
    }
    %1 = "stablehlo.case"(%0#1) ({
      stablehlo.return %arg0 : tensor<8xf32>
    }, {
      %t = stablehlo.add %arg0, %arg0 : tensor<8xf32>
      stablehlo.return %t : tensor<8xf32>
    }, {
      %t = stablehlo.add %arg0, %arg0 : tensor<8xf32>
      %u = stablehlo.add %t, %arg0 : tensor<8xf32>
      stablehlo.return %u : tensor<8xf32>
    }) : (tensor<i32>) -> tensor<8xf32>
    // An index past the end runs the last branch.
    %c7 = stablehlo.constant dense<7> : tensor<i32>
    %2 = "stablehlo.case"(%c7) ({
      stablehlo.return %arg0 : tensor<8xf32>
    }, {
      %four = stablehlo.constant dense<4.000000e+00> : tensor<8xf32>
      %t = stablehlo.multiply %arg0, %four : tensor<8xf32>
      stablehlo.return %t : tensor<8xf32>
    }) : (tensor<i32>) -> tensor<8xf32>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %s = stablehlo.reduce(%arg0 init: %cst_0) applies stablehlo.add across dimensions = [0] : (tensor<8xf32>, tensor<f32>) -> tensor<f32>
    %lim = stablehlo.constant dense<2.000000e+02> : tensor<f32>
    %big = stablehlo.compare  GT, %s, %lim,  FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %3 = "stablehlo.if"(%big) ({
      stablehlo.return %arg0 : tensor<8xf32>
    }, {
      %n = stablehlo.negate %arg0 : tensor<8xf32>
      stablehlo.return %n : tensor<8xf32>
    }) : (tensor<i1>) -> tensor<8xf32>
    return %1, %0#1, %2, %3 : tensor<8xf32>, tensor<i32>, tensor<8xf32>, tensor<8xf32>
  }
}
