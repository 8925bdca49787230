// Ops of an unregistered dialect (trellis-opt -allow-unregistered-dialect)
// have no dialect object: passes that asked `isa<SomeDialect>(op->getDialect())`
// dereferenced null and crashed. Each pass now handles them or reports.
// RUN: trellis-opt -allow-unregistered-dialect %s --spmd-check-variance | FileCheck %s
// RUN: trellis-opt -allow-unregistered-dialect %s --trellis-infer-shardings | FileCheck %s
// RUN: trellis-opt -allow-unregistered-dialect %s --trellis-approximate-math | FileCheck %s
// RUN: trellis-opt -allow-unregistered-dialect %s --trellis-global-to-manual --trellis-verify-manual | FileCheck %s
// RUN: trellis-opt -allow-unregistered-dialect %s --spmd-outline-device-func --spmd-to-runtime | FileCheck %s
// RUN: not trellis-opt -allow-unregistered-dialect %s --trellis-pipeline 2>&1 | FileCheck %s --check-prefix=LOWER

// CHECK: "test.region"
// CHECK: "test.op"
// LOWER: error: op was not bufferized

trellis.mesh @m = <["a"=2]>
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %r = spmd.shard_map @m in_specs = [[{"a"}]] out_specs = [[{"a"}]] (%x) : (tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%b: tensor<2xf32>):
    %y = "test.region"(%b) ({
      %z = "test.inner"() : () -> f32
      "test.yield"(%z) : (f32) -> ()
    }) : (tensor<2xf32>) -> tensor<2xf32>
    spmd.yield %y : tensor<2xf32>
  }
  %m = math.tanh %r : tensor<4xf32>
  %u = "test.op"(%m) : (tensor<4xf32>) -> tensor<4xf32>
  return %u : tensor<4xf32>
}
