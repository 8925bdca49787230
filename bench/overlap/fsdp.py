#!/usr/bin/env python3
"""Writes the FSDP MLP of examples/overlap/fsdp_mlp.mlir at any size.

Usage: fsdp.py [--train] N B D L OUT

N devices on axis "d", B batch rows per device, D features, L layers:
x is [N B, D] split by rows, the weights [L, D, D] split along their rows
(dimension 1); each layer gathers its weights and computes
h = relu(h @ W[l]). D must divide by N. The example in the repository is
fsdp.py 8 8 64 4.

--train writes @loss instead of @main: the same layers, then the sum of
the squares of the output, marked for trellis-grad (gradient with respect
to the weights); examples/overlap/fsdp_train.mlir is fsdp.py --train 8 8
64 4.
"""
import sys


def program(n, b, d, layers, train=False):
    s = d // n
    if train:
        head = (f"func.func @loss(%x: tensor<{n * b}x{d}xf32>, "
                f"%w: tensor<{layers}x{d}x{d}xf32>) -> tensor<f32> "
                f"attributes {{trellis.grad = [1]}} {{")
        tail = f"""  %sq = arith.mulf %y, %y : tensor<{n * b}x{d}xf32>
  %init = arith.constant dense<0.0> : tensor<f32>
  %loss = linalg.reduce ins(%sq : tensor<{n * b}x{d}xf32>) outs(%init : tensor<f32>) dimensions = [0, 1]
    (%p: f32, %q: f32) {{
      %t = arith.addf %p, %q : f32
      linalg.yield %t : f32
    }}
  return %loss : tensor<f32>
}}
"""
    else:
        head = (f"func.func @main(%x: tensor<{n * b}x{d}xf32>, "
                f"%w: tensor<{layers}x{d}x{d}xf32>) -> "
                f"tensor<{n * b}x{d}xf32> {{")
        tail = f"""  return %y : tensor<{n * b}x{d}xf32>
}}
"""
    return f"""trellis.mesh @mesh = <["d"={n}]>

{head}
  %y = spmd.shard_map @mesh in_specs = [[{{"d"}}, {{}}], [{{}}, {{"d"}}, {{}}]] out_specs = [[{{"d"}}, {{}}]]
      (%x, %w) : (tensor<{n * b}x{d}xf32>, tensor<{layers}x{d}x{d}xf32>) -> tensor<{n * b}x{d}xf32> {{
  ^bb0(%xb: tensor<{b}x{d}xf32>, %wb: tensor<{layers}x{s}x{d}xf32>):
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %cl = arith.constant {layers} : index
    %zero = arith.constant 0.0 : f32
    %zeros = arith.constant dense<0.0> : tensor<{b}x{d}xf32>
    %h = scf.for %l = %c0 to %cl step %c1 iter_args(%a = %xb) -> (tensor<{b}x{d}xf32>) {{
      %ws = tensor.extract_slice %wb[%l, 0, 0] [1, {s}, {d}] [1, 1, 1] : tensor<{layers}x{s}x{d}xf32> to tensor<{s}x{d}xf32>
      %wl = spmd.all_gather %ws over ["d"] dim 0 tiled : tensor<{s}x{d}xf32> -> tensor<{d}x{d}xf32>
      %e = tensor.empty() : tensor<{b}x{d}xf32>
      %z = linalg.fill ins(%zero : f32) outs(%e : tensor<{b}x{d}xf32>) -> tensor<{b}x{d}xf32>
      %m = linalg.matmul ins(%a, %wl : tensor<{b}x{d}xf32>, tensor<{d}x{d}xf32>) outs(%z : tensor<{b}x{d}xf32>) -> tensor<{b}x{d}xf32>
      %r = arith.maximumf %m, %zeros : tensor<{b}x{d}xf32>
      scf.yield %r : tensor<{b}x{d}xf32>
    }}
    spmd.yield %h : tensor<{b}x{d}xf32>
  }}
""" + tail


def write(n, b, d, layers, path, train=False):
    if d % n:
        raise ValueError(f"D={d} does not divide by N={n}")
    with open(path, "w") as f:
        f.write(program(n, b, d, layers, train))


if __name__ == "__main__":
    argv = sys.argv[1:]
    train = "--train" in argv
    if train:
        argv.remove("--train")
    if len(argv) != 5:
        sys.exit(__doc__)
    write(*(int(v) for v in argv[:4]), argv[4], train)
