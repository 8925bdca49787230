// Sub-axes that are not proper parts of their mesh axis, overlap another
// axis of the same sharding, or are malformed.
// RUN: trellis-opt -allow-unregistered-dialect -split-input-file -verify-diagnostics %s

trellis.mesh @m = <["x"=8]>
// expected-error @below {{sub-axis "x":(3)2 is not a proper part of mesh axis "x" of size 8: its size must be at least 2 and its pre-size times its size must divide the axis's size without being all of it}}
func.func private @f(%a: tensor<8xf32> {trellis.sharding = #trellis.sharding<@m, [{"x":(3)2}]>})

// -----

trellis.mesh @m = <["x"=8]>
// The whole axis is written "x".
// expected-error @below {{sub-axis "x":(1)8 is not a proper part of mesh axis "x" of size 8}}
func.func private @f(%a: tensor<8xf32> {trellis.sharding = #trellis.sharding<@m, [{"x":(1)8}]>})

// -----

trellis.mesh @m = <["x"=8]>
// expected-error @below {{sub-axis "x":(2)1 is not a proper part}}
func.func private @f(%a: tensor<8xf32> {trellis.sharding = #trellis.sharding<@m, [{"x":(2)1}]>})

// -----

trellis.mesh @m = <["x"=8]>
// expected-error @below {{unknown mesh axis "z:(1)2"}}
func.func private @f(%a: tensor<8xf32> {trellis.sharding = #trellis.sharding<@m, [{"z":(1)2}]>})

// -----

trellis.mesh @m = <["x"=8]>
// expected-error @below {{mesh axes "x" and "x":(1)2 overlap}}
func.func private @f(%a: tensor<8x2xf32> {trellis.sharding = #trellis.sharding<@m, [{"x"}, {"x":(1)2}]>})

// -----

trellis.mesh @m = <["x"=8]>
// expected-error @below {{mesh axes "x":(1)4 and "x":(2)2 overlap}}
func.func private @f(%a: tensor<4x2xf32> {trellis.sharding = #trellis.sharding<@m, [{"x":(1)4}, {"x":(2)2}]>})

// -----

trellis.mesh @m = <["x"=8]>
func.func @f(%a: tensor<6xf32>) -> tensor<6xf32> {
  // expected-error @below {{dimension 0 of size 6 is not divisible by the size 4 of mesh axes {"x":(2)4}}}
  %0 = "test.op"(%a) : (tensor<6xf32>) -> tensor<6xf32, #trellis.sharding<@m, [{"x":(2)4}]>>
  return %a : tensor<6xf32>
}

// -----

trellis.mesh @m = <["x"=8]>
// expected-error @below {{a sub-axis needs a positive pre-size and size}}
func.func private @f(%a: tensor<8xf32> {trellis.sharding = #trellis.sharding<@m, [{"x":(0)2}]>})
