#!/usr/bin/env python3
"""Reshapes of sharded dimensions, executed: sub-axes keep data in place.

Usage: subaxis_programs.py TRELLIS_RUN TRELLIS_OPT WORKDIR

Each program reshapes an i32 argument whose dimension is split over mesh
axes, on meshes (8), (2,4), (4,2) and (2,2,2), and then
  expand:   splits that dimension in two and doubles the result;
  collapse: merges two dimensions (each split its own way) into one;
  sum-minor / sum-major: splits it in two and sums over one of the two;
  pinned:   splits it in two with the result's sharding given in
            sub-axes, as this script works them out;
  swapped:  the same with the two dimensions' axes exchanged where they
            still divide (a reshard between parts of axes).
Each extent on each mesh and choice of axes gets three of these kinds
(drawn with a fixed seed). Every program runs on 8 devices with random inputs and is compared
exactly with numpy and with --reference.

Bytes: where the split axes fill the new dimensions major to minor
(this script's own check, `fill`), an expand or collapse must move
nothing (0 B by trellis-comm-report); the last line counts those and the
bytes the others move.
"""
import os
import random
import sys

import numpy as np

from partition_runs import reported_bytes, write_and_run

MESHES = [{"x": 8}, {"a": 2, "b": 4}, {"a": 4, "b": 2},
          {"p": 2, "q": 2, "r": 2}]
EXTENTS = [8, 16, 24, 32]


def fill(sizes, factors):
    """Splits axes of SIZES (name, size) over FACTORS, major to minor,
    cutting an axis where it straddles two factors. Per factor a list of
    (axis, pre-size, size), or None when they do not fit."""
    out = [[] for _ in factors]
    f, room = 0, factors[0]
    for name, size in sizes:
        whole, pre = size, 1
        while size > 1:
            while room == 1 and f + 1 < len(factors):
                f += 1
                room = factors[f]
            if room == 1:
                return None
            if room % size == 0:
                out[f].append((name, pre, size, whole))
                room //= size
                break
            if size % room:
                return None
            out[f].append((name, pre, room, whole))
            pre, size, room = pre * room, size // room, 1
    return out


def axis_text(part):
    name, pre, size, whole = part
    if pre == 1 and size == whole:
        return f'"{name}"'
    return f'"{name}":({pre}){size}'


def dims_text(dims):
    return "[" + ", ".join("{" + ", ".join(dim) + "}" for dim in dims) + "]"


def sharding(dims):
    return f"{{trellis.sharding = #trellis.sharding<@mesh, {dims_text(dims)}>}}"


def mesh_text(mesh):
    return ("trellis.mesh @mesh = <[" +
            ", ".join(f'"{a}"={s}' for a, s in mesh.items()) + "]>")


def axis_choices(mesh):
    names = list(mesh)
    choices = [names, names[:1], names[-1:]]
    if len(names) > 1:
        choices.append(list(reversed(names)))
    return choices


def cases(rng):
    for mesh in MESHES:
        for axes in axis_choices(mesh):
            for n in EXTENTS:
                if n % np.prod([mesh[a] for a in axes]):
                    continue
                splits = [(p, n // p) for p in range(2, n) if n % p == 0
                          and n // p > 1]
                kinds = ["expand", "collapse", "sum-minor", "sum-major",
                         "pinned", "swapped"]
                for kind in sorted(rng.sample(kinds, 3), key=kinds.index):
                    p, q = rng.choice(splits)
                    yield mesh, axes, n, p, q, kind


def program(mesh, axes, n, p, q, kind):
    """The module's text and the numpy function it computes."""
    sizes = [(a, mesh[a]) for a in axes]
    flat = f"tensor<{n}xi32>"
    pair = f"tensor<{p}x{q}xi32>"
    head = mesh_text(mesh)
    split = fill(sizes, [p, q])
    if kind == "collapse":
        # The argument is laid out as the expanded form of `axes` when they
        # fit, else dimension 0 over the first axis and 1 over the rest.
        if split:
            dims = [[axis_text(t) for t in d] for d in split]
        else:
            dims = [[f'"{axes[0]}"'], [f'"{a}"' for a in axes[1:]]]
        body = f"""func.func @main(%x: {pair} {sharding(dims)}) -> {flat} {{
  %c = tensor.collapse_shape %x [[0, 1]] : {pair} into {flat}
  %d = arith.addi %c, %c : {flat}
  return %d : {flat}
}}"""
        return head + "\n" + body, lambda x: 2 * x.reshape(n), bool(split)
    arg = f"%x: {flat} {sharding([[chr(34) + a + chr(34) for a in axes]])}"
    expand = f"""  %e = tensor.expand_shape %x [[0, 1]] output_shape [{p}, {q}] : {flat} into {pair}
"""
    if kind in ("expand", "pinned", "swapped"):
        pin = ""
        if kind in ("pinned", "swapped"):
            dims = [[axis_text(t) for t in d] for d in split] if split else [[], []]
            if kind == "swapped":
                # The two dimensions' axes exchanged where they still
                # divide: a reshard between the parts of the axes.
                size = [int(np.prod([t[2] for t in d])) for d in split or [[], []]]
                if split and p % size[1] == 0 and q % size[0] == 0:
                    dims = [dims[1], dims[0]]
            pin = (f"  %e2 = trellis.sharding_constraint %e to "
                   f"<@mesh, {dims_text(dims)}> : {pair}\n")
        name = "%e2" if pin else "%e"
        body = f"""func.func @main({arg}) -> {pair} {{
{expand}{pin}  %d = arith.addi {name}, {name} : {pair}
  return %d : {pair}
}}"""
        return head + "\n" + body, lambda x: 2 * x.reshape(p, q), \
            bool(split) and kind != "swapped"
    minor = kind == "sum-minor"
    keep, out = (p, 1) if minor else (q, 0)
    res = f"tensor<{keep}xi32>"
    body = f"""func.func @main({arg}) -> {res} {{
{expand}  %z = arith.constant 0 : i32
  %i = tensor.empty() : {res}
  %f = linalg.fill ins(%z : i32) outs(%i : {res}) -> {res}
  %s = linalg.reduce ins(%e : {pair}) outs(%f : {res}) dimensions = [{1 if minor else 0}]
    (%a: i32, %b: i32) {{
      %t = arith.addi %a, %b : i32
      linalg.yield %t : i32
    }}
  return %s : {res}
}}"""
    return head + "\n" + body, \
        lambda x: x.reshape(p, q).sum(axis=1 if minor else 0, dtype=np.int32), \
        False


def main():
    run, opt, work = sys.argv[1], sys.argv[2], sys.argv[3]
    os.makedirs(work, exist_ok=True)
    rng = random.Random(25)
    failed = False
    count = in_place = in_place_ok = 0
    moved_other = 0
    for index, (mesh, axes, n, p, q, kind) in enumerate(cases(rng)):
        text, expect, keep = program(mesh, axes, n, p, q, kind)
        name = (f"{kind} {n}@{tuple(axes)} -> {p}x{q} on "
                f"{tuple(mesh.values())}")
        path, ins, got = write_and_run(run, work, f"s{index}", index, text,
                                       name)
        if ins is None:
            failed = True
            continue
        ok = np.array_equal(got, expect(ins[0]))
        moved = reported_bytes(opt, path)
        count += 1
        if keep:
            in_place += 1
            ok &= moved == 0
            in_place_ok += moved == 0
        else:
            moved_other += moved
        print(f"{name}: {'ok' if ok else 'FAIL'} {moved} B")
        failed |= not ok
    print(f"reshapes kept in place: {in_place_ok} of {in_place}; "
          f"{count} programs, the others moving {moved_other} B")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
