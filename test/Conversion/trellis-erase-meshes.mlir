// RUN: trellis-opt %s --trellis-erase-meshes | FileCheck %s

// CHECK-NOT: trellis.mesh
// CHECK: llvm.func @f()
// CHECK-NOT: spmd.mesh
trellis.mesh @mesh = <["i"=4]>
llvm.func @f() attributes {spmd.mesh = @mesh, spmd.manual_axes = ["i"]} {
  llvm.return
}
