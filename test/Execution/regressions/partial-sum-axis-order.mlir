// Two silent wrong answers about partial sums, found by
// test/Differential/difftest.py (an i8 program whose oracle got 4x the
// value; numpy caught it).
// 1. The unreduced axes of a partial value are a set, but the partitioner
//    compared them as lists: a matmul partial over ("d", "b") feeding an addi
//    that carries partial sums over the sorted ("b", "d") was "resharded":
//    reduced, and then still labelled partial, so the later psum summed a
//    whole value again (4x on 4 devices).
// 2. Resharding a whole value to a partial layout (a sharding with
//    `unreduced`) left it whole on every device: the consumer's psum then
//    multiplied it by the group size. It is now kept on the first device of
//    each group and zero elsewhere.
// RUN: trellis-opt %s --trellis-global-to-manual | FileCheck %s --check-prefix=IR
// RUN: trellis-run %s --iota --reference 2>&1 | FileCheck %s --check-prefix=ORDER
// RUN: trellis-run %s --entry make_partial --iota --reference 2>&1 | FileCheck %s --check-prefix=MAKE

// a = iota(4x8), w = iota(8x2): (a.w)[i] = [448i + 280, 512i + 308],
// doubled by the branch since (a.w)[0, 0] = 280 > 0.
// ORDER: out0: int32[4,2]
// ORDER-NEXT: {{\[\[}} 560  616]
// ORDER-NEXT: [1456 1640]
// ORDER: reference: out0 {{.*}}: match

// IR-LABEL: func.func @main
// IR: linalg.matmul
// IR: scf.if
// IR-NEXT: arith.addi
// IR-NEXT: spmd.psum %{{.*}} over ["b", "d"]
// IR-NEXT: scf.yield
trellis.mesh @m = <["d"=2, "b"=2]>
func.func @main(%a: tensor<4x8xi32> {trellis.sharding = #trellis.sharding<@m, [{}, {"d", "b"}]>},
                %w: tensor<8x2xi32> {trellis.sharding = #trellis.sharding<@m, [{"d", "b"}, {}]>}) -> tensor<4x2xi32> {
  %e = tensor.empty() : tensor<4x2xi32>
  %z = arith.constant 0 : i32
  %f = linalg.fill ins(%z : i32) outs(%e : tensor<4x2xi32>) -> tensor<4x2xi32>
  %v = linalg.matmul ins(%a, %w : tensor<4x8xi32>, tensor<8x2xi32>) outs(%f : tensor<4x2xi32>) -> tensor<4x2xi32>
  %c0 = arith.constant 0 : index
  %s = tensor.extract %v[%c0, %c0] : tensor<4x2xi32>
  %cond = arith.cmpi sgt, %s, %z : i32
  %r = scf.if %cond -> (tensor<4x2xi32>) {
    %t = arith.addi %v, %v : tensor<4x2xi32>
    scf.yield %t : tensor<4x2xi32>
  } else {
    scf.yield %v : tensor<4x2xi32>
  }
  return %r : tensor<4x2xi32>
}

// x + x with x constrained to be a partial sum over "b": the sum is 2x.
// MAKE: out0: float32[4]
// MAKE-NEXT: [0. 2. 4. 6.]
// MAKE: reference: out0 {{.*}}: match

// IR-LABEL: func.func @make_partial
// IR: %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : tensor<4xf32>
// IR: %[[I:.*]] = spmd.axis_index over ["b"]
// IR: %[[FIRST:.*]] = arith.cmpi eq, %[[I]]
// IR: %[[P:.*]] = arith.select %[[FIRST]], %{{.*}}, %[[ZERO]]
// IR: %[[S:.*]] = arith.addf %[[P]], %[[P]]
// IR: spmd.psum %[[S]] over ["b"]
func.func @make_partial(%x: tensor<4xf32>) -> tensor<4xf32> {
  %c = trellis.sharding_constraint %x to <@m, [{}], unreduced = {"b"}> : tensor<4xf32>
  %y = arith.addf %c, %c : tensor<4xf32>
  return %y : tensor<4xf32>
}
