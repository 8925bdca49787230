// RUN: trellis-opt %s --trellis-erase-meshes | FileCheck %s

// CHECK-NOT: trellis.mesh
// CHECK: llvm.func @f()
// CHECK-NOT: spmd.mesh
trellis.mesh @mesh = <["i"=4]>
llvm.func @f() attributes {spmd.mesh = @mesh, spmd.manual_axes = ["i"]} {
  llvm.return
}

// Trellis's argument attributes go too (LLVM warned about each
// when translating the unpartitioned reference); others stay.
// CHECK: llvm.func @g(%{{.*}}: !llvm.ptr {llvm.noalias}) -> (i32 {llvm.zeroext})
// CHECK-NOT: trellis.
llvm.func @g(%p: !llvm.ptr {trellis.name = "p", llvm.noalias}) -> (i32 {llvm.zeroext}) {
  %c = llvm.mlir.constant(0 : i32) : i32
  llvm.return %c : i32
}
