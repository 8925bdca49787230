// Integer arithmetic (exact comparison): products, remainders, a max
// reduction and a sum reduction over split dimensions, and a select.
// RUN: %python %S/../run_corpus.py trellis-run %s %t | FileCheck %s
// CHECK-COUNT-7: mesh {{.*}}: ok

trellis.mesh @mesh = $MESH

func.func @main(%x: tensor<16x16xi32> {trellis.sharding = #trellis.sharding<@mesh, [{$0}, {$1}]>},
                %y: tensor<16x16xi32> {trellis.sharding = #trellis.sharding<@mesh, [{$1}, {$0}]>})
    -> (tensor<16xi32>, tensor<16xi32>, tensor<16x16xi32>) {
  %p = arith.muli %x, %y : tensor<16x16xi32>
  %c7 = arith.constant dense<7> : tensor<16x16xi32>
  %r = arith.remsi %p, %c7 : tensor<16x16xi32>
  %gt = arith.cmpi sgt, %x, %y : tensor<16x16xi32>
  %sel = arith.select %gt, %r, %x : tensor<16x16xi1>, tensor<16x16xi32>
  %min = arith.constant -2147483648 : i32
  %zero = arith.constant 0 : i32
  %e = tensor.empty() : tensor<16xi32>
  %mi = linalg.fill ins(%min : i32) outs(%e : tensor<16xi32>) -> tensor<16xi32>
  %mx = linalg.reduce ins(%sel : tensor<16x16xi32>) outs(%mi : tensor<16xi32>) dimensions = [0]
    (%in: i32, %a: i32) {
      %t = arith.maxsi %in, %a : i32
      linalg.yield %t : i32
    }
  %zi = linalg.fill ins(%zero : i32) outs(%e : tensor<16xi32>) -> tensor<16xi32>
  %sm = linalg.reduce ins(%r : tensor<16x16xi32>) outs(%zi : tensor<16xi32>) dimensions = [1]
    (%in: i32, %a: i32) {
      %t = arith.addi %in, %a : i32
      linalg.yield %t : i32
    }
  return %mx, %sm, %sel : tensor<16xi32>, tensor<16xi32>, tensor<16x16xi32>
}
