// dynamic_slice and dynamic_update_slice at run-time start indices
// (random in [-8, 8], so both ends of the clamp are reached), on an
// operand split over a 2x2 mesh: equal to numpy's clamped slices and to
// the unpartitioned program. A slice that takes dimension 1 whole ignores
// its index there (the importer makes that offset a static 0).
// RUN: rm -rf %t && mkdir -p %t
// RUN: trellis-run %s --random 1 --reference --quiet --output-dir %t/r1 --save-inputs | FileCheck %s
// RUN: %python %S/check_dynamic_index.py %t/r1 | FileCheck %s --check-prefix=NP
// RUN: trellis-run %s --random 2 --reference --quiet --output-dir %t/r2 --save-inputs | FileCheck %s
// RUN: %python %S/check_dynamic_index.py %t/r2 | FileCheck %s --check-prefix=NP
// RUN: trellis-run %s --random 7 --reference --quiet --output-dir %t/r7 --save-inputs | FileCheck %s
// RUN: %python %S/check_dynamic_index.py %t/r7 | FileCheck %s --check-prefix=NP
// CHECK-COUNT-3: match
// NP: 3 results equal numpy
module @jit_f attributes {mhlo.num_partitions = 4 : i32} {
  sdy.mesh @mesh = <["a"=2, "b"=2]>
  func.func public @main(%x: tensor<4x6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {"b"}]>}, %i: tensor<i32>, %j: tensor<i32>) -> (tensor<2x3xf32>, tensor<1x6xf32>, tensor<4x6xf32>) {
    %0 = stablehlo.dynamic_slice %x, %i, %j, sizes = [2, 3] : (tensor<4x6xf32>, tensor<i32>, tensor<i32>) -> tensor<2x3xf32>
    %1 = stablehlo.dynamic_slice %x, %i, %j, sizes = [1, 6] : (tensor<4x6xf32>, tensor<i32>, tensor<i32>) -> tensor<1x6xf32>
    %u = stablehlo.constant dense<-1.000000e+00> : tensor<2x2xf32>
    %2 = stablehlo.dynamic_update_slice %x, %u, %j, %i : (tensor<4x6xf32>, tensor<2x2xf32>, tensor<i32>, tensor<i32>) -> tensor<4x6xf32>
    return %0, %1, %2 : tensor<2x3xf32>, tensor<1x6xf32>, tensor<4x6xf32>
  }
}
