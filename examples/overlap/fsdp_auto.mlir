// The FSDP MLP of fsdp_mlp.mlir written without shard_map: the batch and
// the weights' rows carry shardings over the 8 devices of "d" and the
// partitioner decides the communication. Its output is the loop of
// fsdp_mlp.mlir (each layer all-gathers its weight slice), so
// spmd-pipeline-collectives applies to it unchanged:
//
//   trellis-run examples/overlap/fsdp_auto.mlir --random 1 --reference \
//     --passes='spmd-pipeline-collectives' --clock=virtual \
//     --link-latency-us 2 --link-bandwidth-gbps 1
//
// @loss is one training step's loss (marked for trellis-grad); in its
// gradient's backward loop the partitioner reduce-scatters each layer's
// weight gradient (at D=512 it reshards activations instead, with an
// all_to_all and an all_gather per layer), which the pass defers one
// layer, since it only feeds the stacked gradient:
//
//   trellis-opt examples/overlap/fsdp_auto.mlir --inline --trellis-grad -o /tmp/g.mlir
//   trellis-run /tmp/g.mlir --entry loss_grad --random 1 --reference \
//     --passes='spmd-pipeline-collectives'

trellis.mesh @mesh = <["d"=8]>

func.func @main(%x: tensor<64x64xf32> {trellis.sharding = #trellis.sharding<@mesh, [{"d"}, {}]>},
                %w: tensor<4x64x64xf32> {trellis.sharding = #trellis.sharding<@mesh, [{}, {"d"}, {}]>})
    -> (tensor<64x64xf32> {trellis.sharding = #trellis.sharding<@mesh, [{"d"}, {}]>}) {
  %h = call @layers(%x, %w) : (tensor<64x64xf32>, tensor<4x64x64xf32>) -> tensor<64x64xf32>
  return %h : tensor<64x64xf32>
}

func.func @loss(%x: tensor<64x64xf32> {trellis.sharding = #trellis.sharding<@mesh, [{"d"}, {}]>},
                %w: tensor<4x64x64xf32> {trellis.sharding = #trellis.sharding<@mesh, [{}, {"d"}, {}]>})
    -> tensor<f32> attributes {trellis.grad = [1]} {
  %h = call @layers(%x, %w) : (tensor<64x64xf32>, tensor<4x64x64xf32>) -> tensor<64x64xf32>
  %sq = arith.mulf %h, %h : tensor<64x64xf32>
  %init = arith.constant dense<0.0> : tensor<f32>
  %s = linalg.reduce ins(%sq : tensor<64x64xf32>) outs(%init : tensor<f32>) dimensions = [0, 1]
    (%p: f32, %q: f32) {
      %t = arith.addf %p, %q : f32
      linalg.yield %t : f32
    }
  return %s : tensor<f32>
}

func.func private @layers(%x: tensor<64x64xf32>, %w: tensor<4x64x64xf32>) -> tensor<64x64xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %cl = arith.constant 4 : index
  %zero = arith.constant 0.0 : f32
  %zeros = arith.constant dense<0.0> : tensor<64x64xf32>
  %h = scf.for %l = %c0 to %cl step %c1 iter_args(%a = %x) -> (tensor<64x64xf32>) {
    %wl = tensor.extract_slice %w[%l, 0, 0] [1, 64, 64] [1, 1, 1] : tensor<4x64x64xf32> to tensor<64x64xf32>
    %e = tensor.empty() : tensor<64x64xf32>
    %z = linalg.fill ins(%zero : f32) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
    %m = linalg.matmul ins(%a, %wl : tensor<64x64xf32>, tensor<64x64xf32>) outs(%z : tensor<64x64xf32>) -> tensor<64x64xf32>
    %r = arith.maximumf %m, %zeros : tensor<64x64xf32>
    scf.yield %r : tensor<64x64xf32>
  }
  return %h : tensor<64x64xf32>
}
