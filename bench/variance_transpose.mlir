// Programs for bench/variance_transpose_bytes.py: backward passes (linear
// transposes) whose communication depends on whether psum transposes to
// pvary (device-variance types, seed 001) or to psum with 1/N rescaling
// (JAX before them). 8 devices; f32 sizes chosen so that each parameter,
// activation or output block is 1 MiB.

trellis.mesh @m8 = <["i"=8]>
trellis.mesh @m42 = <["i"=4, "j"=2]>

// Seed 001's data-parallel loss, linearized in the parameters (the mean of a
// local loss, pmean over the batch axis, an unmapped output):
//   dloss(dparams) = pmean(mean(sum(inputs @ dparams, -1)), 'batch')
// Its transpose is the backward pass: the gradient of the loss.
func.func @dp_loss(%inputs: tensor<512x512xf32> {spmd.nonlinear}, %dparams: tensor<512x512xf32>)
    -> tensor<1xf32> attributes {spmd.transpose} {
  %l = spmd.shard_map @m8 in_specs = [[{"i"}], []] out_specs = [[]]
      (%inputs, %dparams) : (tensor<512x512xf32>, tensor<512x512xf32>) -> tensor<1xf32> {
  ^bb0(%in: tensor<64x512xf32>, %p: tensor<512x512xf32>):
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<64x512xf32>
    %z = linalg.fill ins(%zero : f32) outs(%e : tensor<64x512xf32>) -> tensor<64x512xf32>
    %pred = linalg.matmul ins(%in, %p : tensor<64x512xf32>, tensor<512x512xf32>)
                          outs(%z : tensor<64x512xf32>) -> tensor<64x512xf32>
    %e1 = tensor.empty() : tensor<64xf32>
    %z1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<64xf32>) -> tensor<64xf32>
    %rows = linalg.reduce ins(%pred : tensor<64x512xf32>) outs(%z1 : tensor<64xf32>) dimensions = [1]
      (%a: f32, %acc: f32) {
        %s = arith.addf %a, %acc : f32
        linalg.yield %s : f32
      }
    %row = tensor.expand_shape %rows [[0, 1]] output_shape [1, 64] : tensor<64xf32> into tensor<1x64xf32>
    %e2 = tensor.empty() : tensor<1xf32>
    %z2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<1xf32>) -> tensor<1xf32>
    %total = linalg.reduce ins(%row : tensor<1x64xf32>) outs(%z2 : tensor<1xf32>) dimensions = [1]
      (%a: f32, %acc: f32) {
        %s = arith.addf %a, %acc : f32
        linalg.yield %s : f32
      }
    %n = arith.constant dense<64.0> : tensor<1xf32>
    %local = arith.divf %total, %n : tensor<1xf32>
    %global = spmd.pmean %local over ["i"] : tensor<1xf32>
    spmd.yield %global : tensor<1xf32>
  }
  return %l : tensor<1xf32>
}

// The same loss with the batch over both axes of a 4 x 2 mesh.
func.func @dp_loss_2d(%inputs: tensor<512x512xf32> {spmd.nonlinear}, %dparams: tensor<512x512xf32>)
    -> tensor<1xf32> attributes {spmd.transpose} {
  %l = spmd.shard_map @m42 in_specs = [[{"i", "j"}], []] out_specs = [[]]
      (%inputs, %dparams) : (tensor<512x512xf32>, tensor<512x512xf32>) -> tensor<1xf32> {
  ^bb0(%in: tensor<64x512xf32>, %p: tensor<512x512xf32>):
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<64x512xf32>
    %z = linalg.fill ins(%zero : f32) outs(%e : tensor<64x512xf32>) -> tensor<64x512xf32>
    %pred = linalg.matmul ins(%in, %p : tensor<64x512xf32>, tensor<512x512xf32>)
                          outs(%z : tensor<64x512xf32>) -> tensor<64x512xf32>
    %flat = tensor.collapse_shape %pred [[0, 1]] : tensor<64x512xf32> into tensor<32768xf32>
    %row = tensor.expand_shape %flat [[0, 1]] output_shape [1, 32768] : tensor<32768xf32> into tensor<1x32768xf32>
    %e2 = tensor.empty() : tensor<1xf32>
    %z2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<1xf32>) -> tensor<1xf32>
    %total = linalg.reduce ins(%row : tensor<1x32768xf32>) outs(%z2 : tensor<1xf32>) dimensions = [1]
      (%a: f32, %acc: f32) {
        %s = arith.addf %a, %acc : f32
        linalg.yield %s : f32
      }
    %n = arith.constant dense<64.0> : tensor<1xf32>
    %local = arith.divf %total, %n : tensor<1xf32>
    %global = spmd.pmean %local over ["i", "j"] : tensor<1xf32>
    spmd.yield %global : tensor<1xf32>
  }
  return %l : tensor<1xf32>
}

// Seed 001's Example 1 with a 1 MiB output: psum(x @ w) to an unmapped
// output, transposed with respect to x.
func.func @psum_unmapped(%w: tensor<512x512xf32> {spmd.nonlinear}, %x: tensor<4096x512xf32>)
    -> tensor<512x512xf32> attributes {spmd.transpose} {
  %y = spmd.shard_map @m8 in_specs = [[], [{"i"}]] out_specs = [[]]
      (%w, %x) : (tensor<512x512xf32>, tensor<4096x512xf32>) -> tensor<512x512xf32> {
  ^bb0(%wb: tensor<512x512xf32>, %xb: tensor<512x512xf32>):
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<512x512xf32>
    %z = linalg.fill ins(%zero : f32) outs(%e : tensor<512x512xf32>) -> tensor<512x512xf32>
    %g = linalg.matmul ins(%xb, %wb : tensor<512x512xf32>, tensor<512x512xf32>)
                       outs(%z : tensor<512x512xf32>) -> tensor<512x512xf32>
    %s = spmd.psum %g over ["i"] : tensor<512x512xf32>
    spmd.yield %s : tensor<512x512xf32>
  }
  return %y : tensor<512x512xf32>
}

// The cursed identity on a 1 MiB array.
func.func @cursed_identity(%x: tensor<512x512xf32>) -> tensor<512x512xf32> attributes {spmd.transpose} {
  %y = spmd.shard_map @m8 in_specs = [[]] out_specs = [[]]
      (%x) : (tensor<512x512xf32>) -> tensor<512x512xf32> {
  ^bb0(%xb: tensor<512x512xf32>):
    spmd.yield %xb : tensor<512x512xf32>
  }
  return %y : tensor<512x512xf32>
}

// Example 4: all_gather_invariant to an unmapped 1 MiB output.
func.func @gather_unmapped(%x: tensor<512x512xf32>) -> tensor<512x512xf32> attributes {spmd.transpose} {
  %y = spmd.shard_map @m8 in_specs = [[{"i"}]] out_specs = [[]]
      (%x) : (tensor<512x512xf32>) -> tensor<512x512xf32> {
  ^bb0(%xb: tensor<64x512xf32>):
    %g = spmd.all_gather_invariant %xb over ["i"] dim 0 tiled : tensor<64x512xf32> -> tensor<512x512xf32>
    spmd.yield %g : tensor<512x512xf32>
  }
  return %y : tensor<512x512xf32>
}
