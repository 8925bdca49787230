// A gather written as tensor.extract in a linalg.generic body reads a
// sharded tensor the body captures, at global indices. The partitioner used
// to hand the body the local block: out-of-bounds reads, wrong numbers, and
// --reference was fooled when %idx was replicated. The captured tensor is
// now replicated for the body.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python -c "import numpy as np; np.save('%t/t.npy', np.array([10, 11, 12, 13], np.int32)); np.save('%t/idx.npy', np.array([3, 0, 2, 1], np.int64))"
// RUN: trellis-run %s --input t=%t/t.npy --input idx=%t/idx.npy --reference 2>&1 | FileCheck %s
// RUN: trellis-run %s --entry replicated_idx --input t=%t/t.npy --input idx=%t/idx.npy --reference 2>&1 | FileCheck %s
// RUN: trellis-opt %s --trellis-global-to-manual | FileCheck %s --check-prefix=IR

// CHECK: out0: int32[4]
// CHECK-NEXT: [13 10 12 11]
// CHECK: reference: out0 (int32[4], 2 devices vs 1): match

// IR-LABEL: func.func @main
// IR: %[[T:.*]] = spmd.all_gather %{{.*}} over ["a"] dim 0 tiled : tensor<2xi32> -> tensor<4xi32>
// IR: linalg.generic
// IR: tensor.extract %[[T]]

trellis.mesh @m = <["a"=2]>
func.func @main(%t: tensor<4xi32> {trellis.name = "t", trellis.sharding = #trellis.sharding<@m, [{"a"}]>},
                %idx: tensor<4xindex> {trellis.name = "idx", trellis.sharding = #trellis.sharding<@m, [{"a"}]>}) -> tensor<4xi32> {
  %e = tensor.empty() : tensor<4xi32>
  %out = linalg.generic {indexing_maps = [affine_map<(k) -> (k)>, affine_map<(k) -> (k)>], iterator_types = ["parallel"]}
      ins(%idx : tensor<4xindex>) outs(%e : tensor<4xi32>) {
  ^bb0(%i: index, %u: i32):
    %v = tensor.extract %t[%i] : tensor<4xi32>
    linalg.yield %v : i32
  } -> tensor<4xi32>
  return %out : tensor<4xi32>
}

func.func @replicated_idx(%t: tensor<4xi32> {trellis.name = "t", trellis.sharding = #trellis.sharding<@m, [{"a"}]>},
                          %idx: tensor<4xindex> {trellis.name = "idx", trellis.sharding = #trellis.sharding<@m, [{}]>}) -> tensor<4xi32> {
  %e = tensor.empty() : tensor<4xi32>
  %out = linalg.generic {indexing_maps = [affine_map<(k) -> (k)>, affine_map<(k) -> (k)>], iterator_types = ["parallel"]}
      ins(%idx : tensor<4xindex>) outs(%e : tensor<4xi32>) {
  ^bb0(%i: index, %u: i32):
    %v = tensor.extract %t[%i] : tensor<4xi32>
    linalg.yield %v : i32
  } -> tensor<4xi32>
  return %out : tensor<4xi32>
}
