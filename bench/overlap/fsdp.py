#!/usr/bin/env python3
"""Writes the FSDP MLP of examples/overlap/fsdp_mlp.mlir at any size.

Usage: fsdp.py N B D L OUT

N devices on axis "d", B batch rows per device, D features, L layers:
x is [N B, D] split by rows, the weights [L, D, D] split along their rows
(dimension 1); each layer gathers its weights and computes
h = relu(h @ W[l]). D must divide by N. The example in the repository is
fsdp.py 8 8 64 4.
"""
import sys


def program(n, b, d, layers):
    s = d // n
    return f"""trellis.mesh @mesh = <["d"={n}]>

func.func @main(%x: tensor<{n * b}x{d}xf32>, %w: tensor<{layers}x{d}x{d}xf32>) -> tensor<{n * b}x{d}xf32> {{
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
  return %y : tensor<{n * b}x{d}xf32>
}}
"""


def write(n, b, d, layers, path):
    if d % n:
        raise ValueError(f"D={d} does not divide by N={n}")
    with open(path, "w") as f:
        f.write(program(n, b, d, layers))


if __name__ == "__main__":
    if len(sys.argv) != 6:
        sys.exit(__doc__)
    write(*(int(v) for v in sys.argv[1:5]), sys.argv[5])
