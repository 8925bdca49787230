// A 0-d result: under --backend=mpi every rank but 0 once ran the program
// with a null result buffer (the fresh result array already had a 0-d shape,
// so it was never allocated) and crashed with SIGSEGV.
// RUN: trellis-run %s --iota --reference 2>&1 | FileCheck %s
// CHECK: out0: float32[]
// CHECK-NEXT: 28.
// CHECK: reference: out0 (float32[], 2 devices vs 1): match
trellis.mesh @mesh = <["x"=2]>
func.func @main(%a: tensor<8xf32> {trellis.sharding = #trellis.sharding<@mesh, [{"x"}]>}) -> tensor<f32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<f32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<f32>) -> tensor<f32>
  %r = linalg.reduce ins(%a : tensor<8xf32>) outs(%f : tensor<f32>) dimensions = [0]
    (%x: f32, %y: f32) {
      %s = arith.addf %x, %y : f32
      linalg.yield %s : f32
    }
  return %r : tensor<f32>
}
