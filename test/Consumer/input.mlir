// Input for consumer-test.sh (not a lit test: lit excludes this directory).
// The out-of-tree consumer-opt parses Trellis IR and runs a Trellis pass.

// CHECK: trellis.mesh @mesh = <["i"=4]>
// CHECK: func.func @f_device(%{{.*}}: tensor<2xf32> {bufferization.writable = false}) -> tensor<2xf32> attributes {llvm.emit_c_interface, spmd.manual_axes = ["i"], spmd.mesh = @mesh}
// CHECK-NEXT: spmd.psum %{{.*}} over ["i"] : tensor<2xf32>
// CHECK-NOT: func.func @f(

trellis.mesh @mesh = <["i"=4]>

func.func @f(%a: tensor<8xf32>) -> tensor<8xf32> {
  %r = spmd.shard_map @mesh in_specs = [[{"i"}]] out_specs = [[{"i"}]]
      (%a) : (tensor<8xf32>) -> tensor<8xf32> {
  ^bb0(%b: tensor<2xf32>):
    %s = spmd.psum %b over ["i"] : tensor<2xf32>
    spmd.yield %s : tensor<2xf32>
  }
  return %r : tensor<8xf32>
}
