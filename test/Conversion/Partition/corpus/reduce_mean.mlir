// A mean over the batch (sum then scale), the result replicated; integer
// counts checked exactly alongside.
// RUN: %python %S/../run_corpus.py trellis-run %s %t | FileCheck %s
// CHECK-COUNT-7: mesh {{.*}}: ok

trellis.mesh @mesh = $MESH

func.func @main(%x: tensor<32x8xf32> {trellis.sharding = #trellis.sharding<@mesh, [{$0, $1}, {}]>},
                %n: tensor<32x8xi32> {trellis.sharding = #trellis.sharding<@mesh, [{$0, $1}, {}]>})
    -> (tensor<8xf32>, tensor<8xi32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  %s = linalg.reduce ins(%x : tensor<32x8xf32>) outs(%f : tensor<8xf32>) dimensions = [0]
    (%in: f32, %acc: f32) {
      %a = arith.addf %in, %acc : f32
      linalg.yield %a : f32
    }
  %scale = arith.constant dense<0.03125> : tensor<8xf32>
  %mean = arith.mulf %s, %scale : tensor<8xf32>
  %zi = arith.constant 0 : i32
  %ei = tensor.empty() : tensor<8xi32>
  %fi = linalg.fill ins(%zi : i32) outs(%ei : tensor<8xi32>) -> tensor<8xi32>
  %c = linalg.reduce ins(%n : tensor<32x8xi32>) outs(%fi : tensor<8xi32>) dimensions = [0]
    (%in: i32, %acc: i32) {
      %a = arith.addi %in, %acc : i32
      linalg.yield %a : i32
    }
  return %mean, %c : tensor<8xf32>, tensor<8xi32>
}
