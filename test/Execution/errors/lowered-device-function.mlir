// A device function already lowered to runtime calls, given as the entry:
// trellis-run took it for a plain function on one device, and its
// ppermute over a group of 4 read past the one-device mesh (a crash in its
// compiled code, or a hang). It is now refused.
// RUN: trellis-opt %s --pass-pipeline='builtin.module(spmd-outline-device-func{erase-host=true},spmd-erase-variance,spmd-to-runtime)' -o %t.mlir
// RUN: not trellis-run %t.mlir --entry f_device --quiet 2>&1 | FileCheck %s
// CHECK: trellis-run: error: @f_device is a device function lowered for a mesh (it calls the Trellis runtime); trellis-run runs programs before lowering: give it the function with the shard_map
// A plain function that calls the lowered device function is refused too.
// RUN: sed 's/^}$/func.func @caller(%%x: tensor<2xf32>) -> tensor<2xf32> {\n  %%y = call @f_device(%%x) : (tensor<2xf32>) -> tensor<2xf32>\n  return %%y : tensor<2xf32>\n}\n}/' %t.mlir > %t2.mlir
// RUN: not trellis-run %t2.mlir --entry caller --quiet 2>&1 | FileCheck %s --check-prefix=CALLER
// CALLER: trellis-run: error: @caller is a device function lowered for a mesh (it calls the Trellis runtime)

trellis.mesh @mesh = <["i"=4]>
func.func @f(%x: tensor<8xf32>) -> tensor<8xf32> {
  %r = spmd.shard_map @mesh in_specs = [[{"i"}]] out_specs = [[{"i"}]] check_vma = false (%x) : (tensor<8xf32>) -> tensor<8xf32> {
  ^bb0(%b: tensor<2xf32>):
    %y = spmd.ppermute %b over ["i"] pairs [[0, 1], [1, 2], [2, 3], [3, 0]] : tensor<2xf32>
    spmd.yield %y : tensor<2xf32>
  }
  return %r : tensor<8xf32>
}
