// RUN: trellis-opt %s --spmd-erase-variance | FileCheck %s

trellis.mesh @mesh = <["i"=4]>

// CHECK-LABEL: func.func @f(%{{.*}}: tensor<2xf32>) -> tensor<2xf32>
// CHECK-NOT: #spmd.vary
func.func @f(%b: tensor<2xf32, #spmd.vary<["i"]>>) -> tensor<2xf32, #spmd.vary<[]>>
    attributes {spmd.mesh = @mesh} {
  // CHECK: spmd.psum %{{.*}} over ["i"] : tensor<2xf32>
  %s = spmd.psum %b over ["i"] : tensor<2xf32, #spmd.vary<["i"]>> -> tensor<2xf32, #spmd.vary<[]>>
  // CHECK: scf.if %{{.*}} -> (tensor<2xf32>)
  %c = arith.constant true
  %r = scf.if %c -> tensor<2xf32, #spmd.vary<[]>> {
    scf.yield %s : tensor<2xf32, #spmd.vary<[]>>
  } else {
    scf.yield %s : tensor<2xf32, #spmd.vary<[]>>
  }
  return %r : tensor<2xf32, #spmd.vary<[]>>
}

// Tensor constants carry their type in their value too.
// CHECK-LABEL: func.func @constant
// CHECK: arith.constant dense<2.000000e+00> : tensor<2xf32>
func.func @constant() -> tensor<2xf32, #spmd.vary<[]>> attributes {spmd.mesh = @mesh} {
  %c = arith.constant dense<2.0> : tensor<2xf32, #spmd.vary<[]>>
  return %c : tensor<2xf32, #spmd.vary<[]>>
}
