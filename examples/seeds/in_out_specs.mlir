// Seed 000, "Controlling how each input is split ... with in_specs" and
// "... assembled ... using out_specs": f1 to f5 on a 4x2 mesh, with
// x = np.arange(12 * 12).reshape(12, 12) (x_ = jnp.tile(x, (1, 2)) for f2).
//
//   f1: in P('i', None), out P('i', 'j'), body: x_block (prints (3,12)) -> (12,24)
//   f2: in P('i', 'j'),  out P('i', 'j'), body: x_block (prints (3,12)) -> (12,24)
//   f3: in P('i', 'j'),  out P('i', None), psum over 'j'        -> (12,6)
//   f4: in P('i', 'j'),  out P(None, 'j'), psum over 'i'        -> (3,12)
//   f5: in P('i', 'j'),  out P(None, None), psum over ('i','j') -> (3,6)
//
// Run: trellis-run examples/seeds/in_out_specs.mlir --entry f3 --iota

trellis.mesh @mesh = <["i"=4, "j"=2]>

func.func @f1(%x: tensor<12x12xi32>) -> tensor<12x24xi32> {
  %y = spmd.shard_map @mesh in_specs = [[{"i"}, {}]] out_specs = [[{"i"}, {"j"}]]
      (%x) : (tensor<12x12xi32>) -> tensor<12x24xi32> {
  ^bb0(%x_block: tensor<3x12xi32>):
    spmd.yield %x_block : tensor<3x12xi32>
  }
  return %y : tensor<12x24xi32>
}

func.func @f2(%x_: tensor<12x24xi32>) -> tensor<12x24xi32> {
  %y = spmd.shard_map @mesh in_specs = [[{"i"}, {"j"}]] out_specs = [[{"i"}, {"j"}]]
      (%x_) : (tensor<12x24xi32>) -> tensor<12x24xi32> {
  ^bb0(%x_block: tensor<3x12xi32>):
    spmd.yield %x_block : tensor<3x12xi32>
  }
  return %y : tensor<12x24xi32>
}

func.func @f3(%x: tensor<12x12xi32>) -> tensor<12x6xi32> {
  %y3 = spmd.shard_map @mesh in_specs = [[{"i"}, {"j"}]] out_specs = [[{"i"}, {}]]
      (%x) : (tensor<12x12xi32>) -> tensor<12x6xi32> {
  ^bb0(%x_block: tensor<3x6xi32>):
    %s = spmd.psum %x_block over ["j"] : tensor<3x6xi32>
    spmd.yield %s : tensor<3x6xi32>
  }
  return %y3 : tensor<12x6xi32>
}

func.func @f4(%x: tensor<12x12xi32>) -> tensor<3x12xi32> {
  %y4 = spmd.shard_map @mesh in_specs = [[{"i"}, {"j"}]] out_specs = [[{}, {"j"}]]
      (%x) : (tensor<12x12xi32>) -> tensor<3x12xi32> {
  ^bb0(%x_block: tensor<3x6xi32>):
    %s = spmd.psum %x_block over ["i"] : tensor<3x6xi32>
    spmd.yield %s : tensor<3x6xi32>
  }
  return %y4 : tensor<3x12xi32>
}

func.func @f5(%x: tensor<12x12xi32>) -> tensor<3x6xi32> {
  %y5 = spmd.shard_map @mesh in_specs = [[{"i"}, {"j"}]] out_specs = [[{}, {}]]
      (%x) : (tensor<12x12xi32>) -> tensor<3x6xi32> {
  ^bb0(%x_block: tensor<3x6xi32>):
    %s = spmd.psum %x_block over ["i", "j"] : tensor<3x6xi32>
    spmd.yield %s : tensor<3x6xi32>
  }
  return %y5 : tensor<3x6xi32>
}
