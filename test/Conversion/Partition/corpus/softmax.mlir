// Row softmax with the rows split and the columns split: max and sum
// reductions over a split dimension followed by broadcasts.
// RUN: %python %S/../run_corpus.py trellis-run %s %t | FileCheck %s
// CHECK-COUNT-7: mesh {{.*}}: ok

trellis.mesh @mesh = $MESH

func.func @main(%x: tensor<16x32xf32> {trellis.sharding = #trellis.sharding<@mesh, [{$0}, {$1}]>}) -> tensor<16x32xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16xf32>
  %mi = linalg.fill ins(%ninf : f32) outs(%e : tensor<16xf32>) -> tensor<16xf32>
  %m = linalg.reduce ins(%x : tensor<16x32xf32>) outs(%mi : tensor<16xf32>) dimensions = [1]
    (%in: f32, %a: f32) {
      %t = arith.maximumf %in, %a : f32
      linalg.yield %t : f32
    }
  %e2 = tensor.empty() : tensor<16x32xf32>
  %mb = linalg.broadcast ins(%m : tensor<16xf32>) outs(%e2 : tensor<16x32xf32>) dimensions = [1]
  %d = arith.subf %x, %mb : tensor<16x32xf32>
  %ex = math.exp %d : tensor<16x32xf32>
  %si = linalg.fill ins(%zero : f32) outs(%e : tensor<16xf32>) -> tensor<16xf32>
  %s = linalg.reduce ins(%ex : tensor<16x32xf32>) outs(%si : tensor<16xf32>) dimensions = [1]
    (%in: f32, %a: f32) {
      %t = arith.addf %in, %a : f32
      linalg.yield %t : f32
    }
  %e3 = tensor.empty() : tensor<16x32xf32>
  %sb = linalg.broadcast ins(%s : tensor<16xf32>) outs(%e3 : tensor<16x32xf32>) dimensions = [1]
  %y = arith.divf %ex, %sb : tensor<16x32xf32>
  return %y : tensor<16x32xf32>
}
