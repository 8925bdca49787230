#!/usr/bin/env python3
"""Rolls (jnp.roll) of split dimensions, executed.

Usage: roll_programs.py TRELLIS_RUN TRELLIS_OPT WORKDIR

`jnp.roll(x, s, axis=d)` prints as the concatenation x[N-s:] ++ x[:N-s]
along d. Each program rolls a 2-D array along a dimension split over the
mesh (shifts below, at and past a block, and near N) and returns it split
the same way; it runs with --reference and its result is compared with
numpy's np.roll of the saved input. Bytes per device (trellis-comm-report)
must equal what a device's result block needs and its own block of x does
not hold, counted here from index sets.
"""
import os
import sys

import numpy as np

from partition_runs import reported_bytes, write_and_run

ELEMENT_BYTES = 4


def program(mesh, axes, shape, dim, shift):
    n = shape[dim]
    spec = ["{}", "{}"]
    spec[dim] = "{" + ", ".join(f'"{a}"' for a in axes) + "}"
    sharding = f"#trellis.sharding<@mesh, [{', '.join(spec)}]>"
    t = lambda s: "tensor<" + "x".join(map(str, s)) + "xf32>"
    head, tail = list(shape), list(shape)
    head[dim], tail[dim] = shift, n - shift
    off_head = [0, 0]
    off_head[dim] = n - shift
    mesh_text = ", ".join(f'"{a}"={k}' for a, k in mesh)
    return f"""trellis.mesh @mesh = <[{mesh_text}]>
func.func @main(%x: {t(shape)} {{trellis.sharding = {sharding}}})
    -> ({t(shape)} {{trellis.sharding = {sharding}}}) {{
  %a = tensor.extract_slice %x[{off_head[0]}, {off_head[1]}] [{head[0]}, {head[1]}] [1, 1] : {t(shape)} to {t(head)}
  %b = tensor.extract_slice %x[0, 0] [{tail[0]}, {tail[1]}] [1, 1] : {t(shape)} to {t(tail)}
  %r = tensor.concat dim({dim}) %a, %b : ({t(head)}, {t(tail)}) -> {t(shape)}
  return %r : {t(shape)}
}}
"""


def needed_bytes(shape, dim, shift, devices):
    """The most elements of x a device's result block needs that its own
    block does not hold (all other dimensions whole)."""
    n = shape[dim]
    block = n // devices
    other = shape[1 - dim]
    worst = 0
    for i in range(devices):
        own = set(range(i * block, (i + 1) * block))
        need = {(j - shift) % n for j in range(i * block, (i + 1) * block)}
        worst = max(worst, len(need - own))
    return worst * other * ELEMENT_BYTES


def main():
    run, opt, work = sys.argv[1], sys.argv[2], sys.argv[3]
    os.makedirs(work, exist_ok=True)
    failed = False
    cases = []
    for mesh, axes in [([("x", 2)], ["x"]), ([("x", 4)], ["x"]),
                       ([("x", 2), ("y", 2)], ["x", "y"]), ([("x", 8)], ["x"])]:
        devices = 1
        for _, k in mesh:
            devices *= k
        for dim in (0, 1):
            shape = [16, 3] if dim == 0 else [3, 16]
            block = 16 // devices
            for shift in sorted({1, block - 1, block, block + 1, 2 * block + 1, 15} - {0}):
                if 0 < shift < 16:
                    cases.append((mesh, axes, shape, dim, shift, devices))
    for index, (mesh, axes, shape, dim, shift, devices) in enumerate(cases):
        tag = "x".join(str(k) for _, k in mesh)
        name = f"roll {shift} along dim {dim} of {shape} on ({tag})"
        path, ins, got = write_and_run(run, work, f"r{index}", index + 1,
                                       program(mesh, axes, shape, dim, shift),
                                       name)
        if ins is None:
            failed = True
            continue
        x = ins[0]
        ok = np.array_equal(got, np.roll(x, shift, axis=dim))
        # The oracle must tell shifts apart.
        ok &= not np.array_equal(got, np.roll(x, shift + 1, axis=dim))
        moved, need = reported_bytes(opt, path), needed_bytes(shape, dim, shift, devices)
        ok &= moved == need
        print(f"{name}: {'ok' if ok else 'FAIL'} {moved} B (needs {need} B)")
        failed |= not ok
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
