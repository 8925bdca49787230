// chlo.top_k (jax.lax.top_k): the k largest along the last dimension in
// descending total order (+NaN above +inf, -NaN below -inf, -0 below +0),
// ties by ascending index. Partitioned with the last dimension sharded and
// not, against the unpartitioned program and against check_top_k.py
// (Python's sort of the values by an ordering written independently).
// RUN: rm -rf %t && mkdir -p %t && %python %S/check_top_k.py make %t
// RUN: trellis-run %s --input x=%t/x.npy --input y=%t/y.npy --input z=%t/z.npy --reference --save-inputs --output-dir %t --quiet | FileCheck %s
// RUN: %python %S/check_top_k.py check %t
// CHECK-COUNT-6: match
module @jit_top_k attributes {mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["a"=2, "b"=2]>
  func.func public @main(%x: tensor<8x6xf32> {jax.arg_info = "x", sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {"b"}]>},
                         %y: tensor<6xbf16> {jax.arg_info = "y"},
                         %z: tensor<4x5xi32> {jax.arg_info = "z", sdy.sharding = #sdy.sharding<@mesh, [{"a", "b"}, {}]>})
      -> (tensor<8x3xf32>, tensor<8x3xi32>, tensor<2xbf16>, tensor<2xi32>, tensor<4x5xi32>, tensor<4x5xi32>) {
    %v, %i = chlo.top_k(%x, k = 3) : tensor<8x6xf32> -> (tensor<8x3xf32>, tensor<8x3xi32>)
    %v1, %i1 = chlo.top_k(%y, k = 2) : tensor<6xbf16> -> (tensor<2xbf16>, tensor<2xi32>)
    %v2, %i2 = chlo.top_k(%z, k = 5) {largest = true} : tensor<4x5xi32> -> (tensor<4x5xi32>, tensor<4x5xi32>)
    return %v, %i, %v1, %i1, %v2, %i2 : tensor<8x3xf32>, tensor<8x3xi32>, tensor<2xbf16>, tensor<2xi32>, tensor<4x5xi32>, tensor<4x5xi32>
  }
}
