// A module whose runtime calls were lowered for another ABI version is
// refused before anything runs.
// RUN: not trellis-run %s --iota 2>&1 | FileCheck %s
// CHECK: error: 'builtin.module' op holds calls lowered for Trellis runtime ABI 99 (trellis.rt_abi_version), but this build lowers for version 5
// CHECK: trellis-run: error: lowering @main to LLVM failed

module attributes {trellis.rt_abi_version = 99 : i32} {
trellis.mesh @m = <["i"=2]>
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %r = spmd.shard_map @m in_specs = [[{"i"}]] out_specs = [[{"i"}]] (%x) : (tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%b: tensor<2xf32>):
    %s = spmd.psum %b over ["i"] : tensor<2xf32>
    spmd.yield %s : tensor<2xf32>
  }
  return %r : tensor<4xf32>
}
}
