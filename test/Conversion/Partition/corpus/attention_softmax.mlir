// Single-head attention: scores = q k^T, row softmax, then scores v, with
// the sequence split over the first axis and the head dimension over the
// second.
// RUN: %python %S/../run_corpus.py trellis-run %s %t | FileCheck %s
// CHECK-COUNT-7: mesh {{.*}}: ok

trellis.mesh @mesh = $MESH

func.func @main(%q: tensor<16x8xf32> {trellis.sharding = #trellis.sharding<@mesh, [{$0}, {$1}]>},
                %k: tensor<16x8xf32> {trellis.sharding = #trellis.sharding<@mesh, [{$0}, {$1}]>},
                %v: tensor<16x8xf32> {trellis.sharding = #trellis.sharding<@mesh, [{$0}, {$1}]>}) -> tensor<16x8xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %es = tensor.empty() : tensor<16x16xf32>
  %fs = linalg.fill ins(%zero : f32) outs(%es : tensor<16x16xf32>) -> tensor<16x16xf32>
  %s = linalg.matmul indexing_maps = [affine_map<(i, j, d) -> (i, d)>, affine_map<(i, j, d) -> (j, d)>, affine_map<(i, j, d) -> (i, j)>]
      ins(%q, %k : tensor<16x8xf32>, tensor<16x8xf32>) outs(%fs : tensor<16x16xf32>) -> tensor<16x16xf32>
  %er = tensor.empty() : tensor<16xf32>
  %mi = linalg.fill ins(%ninf : f32) outs(%er : tensor<16xf32>) -> tensor<16xf32>
  %m = linalg.reduce ins(%s : tensor<16x16xf32>) outs(%mi : tensor<16xf32>) dimensions = [1]
    (%in: f32, %a: f32) {
      %t = arith.maximumf %in, %a : f32
      linalg.yield %t : f32
    }
  %mb = linalg.broadcast ins(%m : tensor<16xf32>) outs(%es : tensor<16x16xf32>) dimensions = [1]
  %d = arith.subf %s, %mb : tensor<16x16xf32>
  %p = math.exp %d : tensor<16x16xf32>
  %si = linalg.fill ins(%zero : f32) outs(%er : tensor<16xf32>) -> tensor<16xf32>
  %sum = linalg.reduce ins(%p : tensor<16x16xf32>) outs(%si : tensor<16xf32>) dimensions = [1]
    (%in: f32, %a: f32) {
      %t = arith.addf %in, %a : f32
      linalg.yield %t : f32
    }
  %sb = linalg.broadcast ins(%sum : tensor<16xf32>) outs(%es : tensor<16x16xf32>) dimensions = [1]
  %w = arith.divf %p, %sb : tensor<16x16xf32>
  %eo = tensor.empty() : tensor<16x8xf32>
  %fo = linalg.fill ins(%zero : f32) outs(%eo : tensor<16x8xf32>) -> tensor<16x8xf32>
  %o = linalg.matmul ins(%w, %v : tensor<16x16xf32>, tensor<16x8xf32>) outs(%fo : tensor<16x8xf32>) -> tensor<16x8xf32>
  return %o : tensor<16x8xf32>
}
