// Reshards nothing reads are dropped: a tensor.dim of a sharded tensor
// gathers it for the global size, which is a constant of the gathered
// type, so the gathers go (issue 25: "an unused tensor.dim of a sharded
// tensor leaves a dead all_gather"). Executed: the size is still the
// global one.
// RUN: trellis-opt %s --trellis-global-to-manual | FileCheck %s
// RUN: trellis-run %s --random 1 --reference --print --quiet | FileCheck %s --check-prefix=EXEC

trellis.mesh @mesh = <["x"=2, "y"=4]>

// CHECK-LABEL: func.func @dim_of_sharded
// CHECK-NOT: spmd.all_gather
// CHECK: arith.constant dense<16> : tensor<index>
// CHECK-NOT: spmd.all_gather
// CHECK: spmd.yield
// EXEC: out1: int64[]
// EXEC-NEXT: 16
// EXEC: reference: out0 {{.*}}: match
func.func @dim_of_sharded(%a: tensor<8x16xf32> {trellis.sharding = #trellis.sharding<@mesh, [{"x"}, {"y"}]>})
    -> (tensor<8x16xf32> {trellis.sharding = #trellis.sharding<@mesh, [{"x"}, {"y"}]>}, index) {
  %c1 = arith.constant 1 : index
  %d = tensor.dim %a, %c1 : tensor<8x16xf32>
  %b = arith.addf %a, %a : tensor<8x16xf32>
  return %b, %d : tensor<8x16xf32>, index
}
