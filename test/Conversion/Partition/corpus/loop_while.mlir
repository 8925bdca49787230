// A data-dependent while (JAX's while_loop): a split matrix is scaled until
// its sum passes a bound. The condition reduces over the sharded value, so
// every device must see the same total (a psum) to run the same trips; the
// carried matrix keeps its init's layout through both regions.
// RUN: %python %S/../run_corpus.py trellis-run %s %t | FileCheck %s
// CHECK-COUNT-7: mesh {{.*}}: ok

trellis.mesh @mesh = $MESH

func.func @main(%x: tensor<16x32xf32> {trellis.sharding = #trellis.sharding<@mesh, [{$0}, {$1}]>}) -> (tensor<16x32xf32>, tensor<i32>) {
  %zero = arith.constant 0.0 : f32
  %bound = arith.constant 1.0e+04 : f32
  %limit = arith.constant 40 : i32
  %one = arith.constant 1 : i32
  %c0 = arith.constant 0 : i32
  %n0 = tensor.from_elements %c0 : tensor<i32>
  %r:2 = scf.while (%m = %x, %n = %n0) : (tensor<16x32xf32>, tensor<i32>) -> (tensor<16x32xf32>, tensor<i32>) {
    %e = tensor.empty() : tensor<f32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<f32>) -> tensor<f32>
    %abs = math.absf %m : tensor<16x32xf32>
    %s = linalg.reduce ins(%abs : tensor<16x32xf32>) outs(%f : tensor<f32>) dimensions = [0, 1]
      (%in: f32, %a: f32) {
        %t = arith.addf %in, %a : f32
        linalg.yield %t : f32
      }
    %sv = tensor.extract %s[] : tensor<f32>
    %nv = tensor.extract %n[] : tensor<i32>
    %small = arith.cmpf olt, %sv, %bound : f32
    %few = arith.cmpi slt, %nv, %limit : i32
    %go = arith.andi %small, %few : i1
    scf.condition(%go) %m, %n : tensor<16x32xf32>, tensor<i32>
  } do {
  ^bb0(%m: tensor<16x32xf32>, %n: tensor<i32>):
    %k = arith.constant dense<1.5> : tensor<16x32xf32>
    %m2 = arith.mulf %m, %k : tensor<16x32xf32>
    %nv = tensor.extract %n[] : tensor<i32>
    %n1 = arith.addi %nv, %one : i32
    %n2 = tensor.from_elements %n1 : tensor<i32>
    scf.yield %m2, %n2 : tensor<16x32xf32>, tensor<i32>
  }
  return %r#0, %r#1 : tensor<16x32xf32>, tensor<i32>
}
