// Explicit mode: argument types carry the sharding, trellis-infer-shardings
// types the rest (int32[16@a,8@b] + int32[16@a,1] broadcast along b).
// RUN: %python %S/../run_corpus.py trellis-run %s %t | FileCheck %s
// CHECK-COUNT-7: mesh {{.*}}: ok

trellis.mesh @mesh = $EMESH

func.func @main(%x: tensor<16x8xi32, #trellis.sharding<@mesh, [{$0}, {$1}]>>,
                %y: tensor<16x1xi32, #trellis.sharding<@mesh, [{$0}, {}]>>) -> tensor<16x8xi32> {
  %e = tensor.empty() : tensor<16x8xi32>
  %s = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, 0)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%x, %y : tensor<16x8xi32, #trellis.sharding<@mesh, [{$0}, {$1}]>>, tensor<16x1xi32, #trellis.sharding<@mesh, [{$0}, {}]>>)
      outs(%e : tensor<16x8xi32>) {
  ^bb0(%a: i32, %b: i32, %u: i32):
    %t = arith.muli %a, %b : i32
    %c3 = arith.constant 3 : i32
    %r = arith.remsi %t, %c3 : i32
    linalg.yield %r : i32
  } -> tensor<16x8xi32>
  return %s : tensor<16x8xi32>
}
