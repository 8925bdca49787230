// RUN: trellis-opt %s --split-input-file --verify-diagnostics --trellis-verify-shardings -allow-unregistered-dialect

// Without any trellis.mesh the verifier of the first mesh cannot run; the
// pass still checks every type.
// expected-error @below {{type 'tensor<4xf32, #trellis.sharding<@nowhere, [{"X"}]>>' names unknown mesh @nowhere}}
func.func private @f(tensor<4xf32, #trellis.sharding<@nowhere, [{"X"}]>>)

// -----

module {
  func.func @g(%x: tensor<4xf32>) {
    // expected-error @below {{type 'tensor<4xf32, #trellis.sharding<@missing, [{}]>>' names unknown mesh @missing}}
    %y = "test.op"(%x) : (tensor<4xf32>) -> tensor<4xf32, #trellis.sharding<@missing, [{}]>>
    return
  }
}
