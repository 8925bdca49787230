// A concatenation wanted split along its dimension: two 8x16 tensors, one
// split over "x" and one over "y", concatenated into rows over "y" on
// (2,4). Device y = j needs rows [4j, 4j + 4) of the result, which lie in
// one operand; it copies what it holds and receives the rest in two
// ppermute rounds of 2x16 pieces (256 B per device, what a device lacks
// at most), where gathering both operands sent 640 B. Numbers:
// concat-programs.test and the EXEC line.
// RUN: trellis-opt %s --trellis-global-to-manual | FileCheck %s
// RUN: trellis-opt %s --trellis-global-to-manual --trellis-comm-report -o /dev/null | FileCheck %s --check-prefix=BYTES
// RUN: trellis-run %s --random 1 --reference --quiet | FileCheck %s --check-prefix=EXEC
// CHECK-NOT: spmd.all_gather
// CHECK: spmd.ppermute %{{.*}} over ["x", "y"] pairs
// CHECK: spmd.ppermute %{{.*}} over ["x", "y"] pairs
// CHECK-NOT: spmd.all_gather
// CHECK-NOT: tensor.concat
// BYTES: total: 2 collectives, 256 B per device
// EXEC: reference: out0 (float32[16,16], 8 devices vs 1): match
trellis.mesh @m = <["x"=2, "y"=4]>
func.func @main(%a: tensor<8x16xf32> {trellis.sharding = #trellis.sharding<@m, [{"x"}, {}]>},
                %b: tensor<8x16xf32> {trellis.sharding = #trellis.sharding<@m, [{"y"}, {}]>})
    -> (tensor<16x16xf32> {trellis.sharding = #trellis.sharding<@m, [{"y"}, {}]>}) {
  %c = tensor.concat dim(0) %a, %b : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<16x16xf32>
  return %c : tensor<16x16xf32>
}
