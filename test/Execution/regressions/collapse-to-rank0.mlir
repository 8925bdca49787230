// tensor.collapse_shape of tensor<1xi32> into tensor<i32> (JAX's reshape of
// a one-element predicate before lax.cond): its sharding rule described no
// dimension for the rank-1 source, and the partitioner read past the end of
// the layout it built (a crash in about every run of JAX's
// cond_pred_arg_8, uninitialised reads under valgrind). The rule now gives
// each unit dimension a factor; the partitioner checks rules against ranks.
// RUN: trellis-run %s --iota --reference --quiet | FileCheck %s
// CHECK: reference: out0 (int32[], 8 devices vs 1): match
// CHECK: reference: out1 (float32[16,8], 8 devices vs 1): match
trellis.mesh @mesh = <["data"=8]>
func.func @main(%p: tensor<1xi32> {trellis.sharding = #trellis.sharding<@mesh, [{}]>},
                %x: tensor<16x8xf32> {trellis.sharding = #trellis.sharding<@mesh, [{"data"}, {}]>})
    -> (tensor<i32>, tensor<16x8xf32>) {
  %c = tensor.collapse_shape %p [] : tensor<1xi32> into tensor<i32>
  %y = arith.addf %x, %x : tensor<16x8xf32>
  return %c, %y : tensor<i32>, tensor<16x8xf32>
}
