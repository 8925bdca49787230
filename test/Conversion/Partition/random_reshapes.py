#!/usr/bin/env python3
"""Random chains of reshapes of a sharded dimension, executed.

Usage: random_reshapes.py TRELLIS_RUN TRELLIS_OPT WORKDIR SEED COUNT

Each program takes an f32 argument of N x 2 (N from 12, 24, 36, 48, 72)
whose rows are split over a random subset of the axes of a mesh (6),
(2,3), (3,2), (12), (4,3) or (8), then applies one to four random
expand_shape / collapse_shape ops (splitting a dimension into two
factors, or merging two neighbours), each maybe followed by a negation.
Meshes whose axes are not powers of two make cuts of one axis that do
not nest (2 and 3 of 6), which propagation must not combine. Every
program runs with --reference and is compared exactly with numpy's
reshapes; the last line counts those moving 0 B.
"""
import os
import random
import sys

import numpy as np

from partition_runs import reported_bytes, write_and_run

MESHES = [{"x": 6}, {"a": 2, "b": 3}, {"a": 3, "b": 2}, {"x": 12},
          {"x": 4, "y": 3}, {"x": 8}]


def ttype(shape):
    return f"tensor<{'x'.join(map(str, shape))}xf32>"


def factor_pairs(n):
    """The ways to write N as p * q with p, q > 1."""
    return [(p, n // p) for p in range(2, n) if n % p == 0]


def expand(rng, shape):
    """A random split of one dimension of SHAPE: (new shape, groups), or
    None when the drawn dimension has no split."""
    d = rng.randrange(len(shape) - 1)
    if not factor_pairs(shape[d]):
        return None
    p, q = rng.choice(factor_pairs(shape[d]))
    groups, j = [], 0
    for i in range(len(shape)):
        width = 2 if i == d else 1
        groups.append(list(range(j, j + width)))
        j += width
    return shape[:d] + [p, q] + shape[d + 1:], groups


def collapse(rng, shape):
    """A random merge of two neighbouring dimensions (not the last)."""
    d = rng.randrange(len(shape) - 2)
    groups = [[i] for i in range(d)] + [[d, d + 1]] + \
        [[i] for i in range(d + 2, len(shape))]
    return shape[:d] + [shape[d] * shape[d + 1]] + shape[d + 2:], groups


def prog(rng, mesh):
    """A random program on MESH and the numpy function it computes, or
    None when the drawn axes do not divide the rows."""
    n = rng.choice([12, 24, 36, 48, 72])
    axes = rng.sample(list(mesh), rng.randint(1, len(mesh)))
    if n % int(np.prod([mesh[a] for a in axes])):
        return None
    lines, steps = [], []
    shape, cur = [n, 2], "%x"
    for k in range(rng.randint(1, 4)):
        merge = len(shape) > 2 and (len(shape) == 4 or rng.random() < 0.6)
        made = collapse(rng, shape) if merge else expand(rng, shape)
        if not made:
            continue
        new, groups = made
        if merge:
            lines.append(f"  %v{k} = tensor.collapse_shape {cur} {groups} : "
                         f"{ttype(shape)} into {ttype(new)}")
        else:
            lines.append(f"  %v{k} = tensor.expand_shape {cur} {groups} "
                         f"output_shape {new} : {ttype(shape)} into {ttype(new)}")
        shape, cur = new, f"%v{k}"
        steps.append(("reshape", new))
        if rng.random() < 0.5:
            lines.append(f"  %w{k} = arith.negf {cur} : {ttype(shape)}")
            cur = f"%w{k}"
            steps.append(("negate", None))
    if not steps:
        return None
    mesh_axes = ", ".join(f'"{a}"={s}' for a, s in mesh.items())
    dims = ", ".join(f'"{a}"' for a in axes)
    text = (f"trellis.mesh @mesh = <[{mesh_axes}]>\n"
            f"func.func @main(%x: {ttype([n, 2])} {{trellis.sharding = "
            f"#trellis.sharding<@mesh, [{{{dims}}}, {{}}]>}}) -> {ttype(shape)} {{\n"
            + "\n".join(lines) + f"\n  return {cur} : {ttype(shape)}\n}}\n")

    def expect(x):
        for kind, new in steps:
            x = x.reshape(new) if kind == "reshape" else -x
        return x
    return text, expect

def main():
    run, opt, work = sys.argv[1], sys.argv[2], sys.argv[3]
    seed, wanted = int(sys.argv[4]), int(sys.argv[5])
    os.makedirs(work, exist_ok=True)
    rng = random.Random(seed)
    failed = False
    count = zero = 0
    while count < wanted:
        mesh = rng.choice(MESHES)
        made = prog(rng, mesh)
        if not made:
            continue
        text, expect = made
        name = f"r{count}"
        path, ins, got = write_and_run(run, work, name, count, text, name)
        count += 1
        if ins is None:
            failed = True
            continue
        ok = np.array_equal(got, expect(ins[0]))
        moved = reported_bytes(opt, path)
        zero += moved == 0
        print(f"{name}: {'ok' if ok else 'FAIL'} {moved} B")
        if not ok:
            print(text)
        failed |= not ok
    print(f"{count} reshape chains, {zero} moving 0 B")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
