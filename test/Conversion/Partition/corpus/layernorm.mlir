// Layer normalisation over a split feature dimension: mean and variance
// with sharded reductions, then a scale by a split weight vector.
// RUN: %python %S/../run_corpus.py trellis-run %s %t | FileCheck %s
// CHECK-COUNT-7: mesh {{.*}}: ok

trellis.mesh @mesh = $MESH

func.func @main(%x: tensor<8x64xf32> {trellis.sharding = #trellis.sharding<@mesh, [{$1}, {$0}]>},
                %g: tensor<64xf32> {trellis.sharding = #trellis.sharding<@mesh, [{$0}]>}) -> tensor<8x64xf32> {
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 64.0 : f32
  %eps = arith.constant 1.0e-5 : f32
  %e = tensor.empty() : tensor<8xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  %sum = linalg.reduce ins(%x : tensor<8x64xf32>) outs(%z : tensor<8xf32>) dimensions = [1]
    (%in: f32, %a: f32) {
      %t = arith.addf %in, %a : f32
      linalg.yield %t : f32
    }
  %eb = tensor.empty() : tensor<8x64xf32>
  %sumb = linalg.broadcast ins(%sum : tensor<8xf32>) outs(%eb : tensor<8x64xf32>) dimensions = [1]
  %nb = linalg.fill ins(%n : f32) outs(%eb : tensor<8x64xf32>) -> tensor<8x64xf32>
  %mean = arith.divf %sumb, %nb : tensor<8x64xf32>
  %c = arith.subf %x, %mean : tensor<8x64xf32>
  %sq = arith.mulf %c, %c : tensor<8x64xf32>
  %z2 = linalg.fill ins(%zero : f32) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  %var = linalg.reduce ins(%sq : tensor<8x64xf32>) outs(%z2 : tensor<8xf32>) dimensions = [1]
    (%in: f32, %a: f32) {
      %t = arith.addf %in, %a : f32
      linalg.yield %t : f32
    }
  %eb2 = tensor.empty() : tensor<8x64xf32>
  %varb = linalg.broadcast ins(%var : tensor<8xf32>) outs(%eb2 : tensor<8x64xf32>) dimensions = [1]
  %v = arith.divf %varb, %nb : tensor<8x64xf32>
  %epsb = linalg.fill ins(%eps : f32) outs(%eb : tensor<8x64xf32>) -> tensor<8x64xf32>
  %ve = arith.addf %v, %epsb : tensor<8x64xf32>
  %rs = math.rsqrt %ve : tensor<8x64xf32>
  %normed = arith.mulf %c, %rs : tensor<8x64xf32>
  %eb3 = tensor.empty() : tensor<8x64xf32>
  %gb = linalg.broadcast ins(%g : tensor<64xf32>) outs(%eb3 : tensor<8x64xf32>) dimensions = [0]
  %y = arith.mulf %normed, %gb : tensor<8x64xf32>
  return %y : tensor<8x64xf32>
}
