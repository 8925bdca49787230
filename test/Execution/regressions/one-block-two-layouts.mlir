// A shard_map that yields one value under two out_specs gives two global
// values with one local block in different layouts. The partitioner cached
// reshards by (block, target layout), so the second value reused the first
// one's reshard: the concat below returned out0's layout twice. Found by
// test/Differential/difftest.py (silent, and --reference agreed since it
// partitions the same way; only the numpy model caught it).
// RUN: trellis-run %s --iota --reference 2>&1 | FileCheck %s
// x = [0..7] in blocks of 2 over "a"; psum_scatter over "c" gives device
// (a=i, c=j) the value 2 * x[2i + j] = 4i + 2j; {"a", "c"} lays it out at
// 2i + j, {"c", "a"} at 4j + i.
// CHECK: out0: int32[16]
// CHECK-NEXT: [ 0  2  4  6  8 10 12 14  0  4  8 12  2  6 10 14]

trellis.mesh @m = <["a"=4, "c"=2]>
func.func @main(%arg0: tensor<8xi32>) -> tensor<16xi32> {
  %s:2 = spmd.shard_map @m in_specs = [[{"a"}]] out_specs = [[{"a", "c"}], [{"c", "a"}]] check_vma = false (%arg0) : (tensor<8xi32>) -> (tensor<8xi32>, tensor<8xi32>) {
  ^bb0(%b: tensor<2xi32>):
    %v = spmd.psum_scatter %b over ["c"] dim 0 tiled : tensor<2xi32> -> tensor<1xi32>
    spmd.yield %v, %v : tensor<1xi32>, tensor<1xi32>
  }
  %c = tensor.concat dim(0) %s#0, %s#1 : (tensor<8xi32>, tensor<8xi32>) -> tensor<16xi32>
  return %c : tensor<16xi32>
}
