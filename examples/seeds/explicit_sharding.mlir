// Seeds 002 and 003, explicit sharding ("sharding in types"): the sharded
// types the seeds print, written as Trellis types. Here every type is spelled
// out; trellis-infer-shardings derives the same types from the operands.
//
//   mesh = jax.make_mesh((2, 4), ("X", "Y"),
//                        axis_types=(AxisType.Explicit, AxisType.Explicit))
//   sharded_array = reshard(np.arange(8).reshape(4, 2), P("X", None))
//   jax.typeof(sharded_array)   # int32[4@X,2]

trellis.mesh @mesh = <["X"=2, "Y"=4], types = [explicit, explicit]>

// int32[4@X,2]
func.func @reshard_to_x(%replicated: tensor<4x2xi32>) -> tensor<4x2xi32, #trellis.sharding<@mesh, [{"X"}, {}]>> {
  %sharded = trellis.reshard %replicated : tensor<4x2xi32> -> tensor<4x2xi32, #trellis.sharding<@mesh, [{"X"}, {}]>>
  return %sharded : tensor<4x2xi32, #trellis.sharding<@mesh, [{"X"}, {}]>>
}

// arg0: int32[4@X,1], arg1: int32[1,8@Y], result = arg0 + arg1: int32[4@X,8@Y]
func.func @add_arrays(%x: tensor<4x1xi32, #trellis.sharding<@mesh, [{"X"}, {}]>>,
                      %y: tensor<1x8xi32, #trellis.sharding<@mesh, [{}, {"Y"}]>>)
    -> tensor<4x8xi32, #trellis.sharding<@mesh, [{"X"}, {"Y"}]>> {
  %init = tensor.empty() : tensor<4x8xi32, #trellis.sharding<@mesh, [{"X"}, {"Y"}]>>
  %ans = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, 0)>,
                                          affine_map<(i, j) -> (0, j)>,
                                          affine_map<(i, j) -> (i, j)>],
                         iterator_types = ["parallel", "parallel"]}
      ins(%x, %y : tensor<4x1xi32, #trellis.sharding<@mesh, [{"X"}, {}]>>,
                   tensor<1x8xi32, #trellis.sharding<@mesh, [{}, {"Y"}]>>)
      outs(%init : tensor<4x8xi32, #trellis.sharding<@mesh, [{"X"}, {"Y"}]>>) {
  ^bb0(%a: i32, %b: i32, %unused: i32):
    %s = arith.addi %a, %b : i32
    linalg.yield %s : i32
  } -> tensor<4x8xi32, #trellis.sharding<@mesh, [{"X"}, {"Y"}]>>
  return %ans : tensor<4x8xi32, #trellis.sharding<@mesh, [{"X"}, {"Y"}]>>
}

// auto_axes: `g` runs with X auto; inside y is float32[4,4@Y], outside the
// result is out_sharding=P("X", "Y"): float32[4@X,4@Y].
//
//   @functools.partial(auto_axes, axes='X')
//   def g(y):
//     return y * 2                      # y.sharding inside g: float32[4,4@Y]
//   @jax.jit
//   def f(arr1):
//     x = jnp.sin(arr1)                 # x.sharding: float32[4@X,4@Y]
//     z = g(x, out_sharding=P("X", "Y"))  # z.sharding: float32[4@X,4@Y]
//     return z + 1
func.func @f(%arr1: tensor<4x4xf32, #trellis.sharding<@mesh, [{"X"}, {"Y"}]>>)
    -> tensor<4x4xf32, #trellis.sharding<@mesh, [{"X"}, {"Y"}]>> {
  %x = math.sin %arr1 : tensor<4x4xf32, #trellis.sharding<@mesh, [{"X"}, {"Y"}]>>
  %z = trellis.auto_axes @mesh ["X"] (%x)
      : (tensor<4x4xf32, #trellis.sharding<@mesh, [{"X"}, {"Y"}]>>)
     -> tensor<4x4xf32, #trellis.sharding<@mesh, [{"X"}, {"Y"}]>> {
  ^bb0(%y: tensor<4x4xf32, #trellis.sharding<@mesh, [{}, {"Y"}]>>):
    %two = arith.constant dense<2.0> : tensor<4x4xf32, #trellis.sharding<@mesh, [{}, {"Y"}]>>
    %r = arith.mulf %y, %two : tensor<4x4xf32, #trellis.sharding<@mesh, [{}, {"Y"}]>>
    trellis.yield %r : tensor<4x4xf32, #trellis.sharding<@mesh, [{}, {"Y"}]>>
  }
  %one = arith.constant dense<1.0> : tensor<4x4xf32, #trellis.sharding<@mesh, [{"X"}, {"Y"}]>>
  %out = arith.addf %z, %one : tensor<4x4xf32, #trellis.sharding<@mesh, [{"X"}, {"Y"}]>>
  return %out : tensor<4x4xf32, #trellis.sharding<@mesh, [{"X"}, {"Y"}]>>
}

// explicit_axes inside an auto mesh: explicit_g's y is float32[4@X,4@Y] and
// so is z = y * 2; outside, in auto mode, types show no sharding.
trellis.mesh @auto_mesh = <["X"=2, "Y"=4]>

func.func @f_auto(%arr1: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %x = math.sin %arr1 : tensor<4x4xf32>
  %z = trellis.explicit_axes @auto_mesh ["X", "Y"] (%x) : (tensor<4x4xf32>) -> tensor<4x4xf32> {
  ^bb0(%y: tensor<4x4xf32, #trellis.sharding<@auto_mesh, [{"X"}, {"Y"}]>>):
    %two = arith.constant dense<2.0> : tensor<4x4xf32, #trellis.sharding<@auto_mesh, [{"X"}, {"Y"}]>>
    %r = arith.mulf %y, %two : tensor<4x4xf32, #trellis.sharding<@auto_mesh, [{"X"}, {"Y"}]>>
    trellis.yield %r : tensor<4x4xf32, #trellis.sharding<@auto_mesh, [{"X"}, {"Y"}]>>
  }
  %one = arith.constant dense<1.0> : tensor<4x4xf32>
  %out = arith.addf %z, %one : tensor<4x4xf32>
  return %out : tensor<4x4xf32>
}

// Seed 003 on a 2x2 explicit mesh: x * 2 keeps float32[8@X,2@Y].
trellis.mesh @mesh22 = <["X"=2, "Y"=2], types = [explicit, explicit]>

func.func @times_two(%x: tensor<8x2xf32, #trellis.sharding<@mesh22, [{"X"}, {"Y"}]>>)
    -> tensor<8x2xf32, #trellis.sharding<@mesh22, [{"X"}, {"Y"}]>> {
  %two = arith.constant dense<2.0> : tensor<8x2xf32, #trellis.sharding<@mesh22, [{"X"}, {"Y"}]>>
  %out = arith.mulf %x, %two : tensor<8x2xf32, #trellis.sharding<@mesh22, [{"X"}, {"Y"}]>>
  return %out : tensor<8x2xf32, #trellis.sharding<@mesh22, [{"X"}, {"Y"}]>>
}
