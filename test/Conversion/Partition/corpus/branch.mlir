// scf.if choosing between two elementwise paths on a split tensor, with a
// condition computed from a scalar argument.
// RUN: %python %S/../run_corpus.py trellis-run %s %t | FileCheck %s
// CHECK-COUNT-7: mesh {{.*}}: ok

trellis.mesh @mesh = $MESH

func.func @main(%x: tensor<16x32xf32> {trellis.sharding = #trellis.sharding<@mesh, [{$0}, {$1}]>},
                %flag: tensor<i32>) -> tensor<16x32xf32> {
  %f = tensor.extract %flag[] : tensor<i32>
  %c0 = arith.constant 0 : i32
  %cond = arith.cmpi sgt, %f, %c0 : i32
  %r = scf.if %cond -> (tensor<16x32xf32>) {
    %a = math.exp %x : tensor<16x32xf32>
    scf.yield %a : tensor<16x32xf32>
  } else {
    %b = arith.mulf %x, %x : tensor<16x32xf32>
    scf.yield %b : tensor<16x32xf32>
  }
  %t = math.tanh %r : tensor<16x32xf32>
  return %t : tensor<16x32xf32>
}
