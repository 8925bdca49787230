#!/usr/bin/env python3
"""Programs whose shardings split dimensions unevenly, executed.

Usage: uneven_programs.py TRELLIS_RUN TRELLIS_OPT WORKDIR

Each program splits a dimension of 30, 17 or 7 (attention heads, a
vocabulary, a batch) over axes that do not divide it, on meshes (4), (8),
(3) and (2,4), and reads the padding where a careless partitioner would
let it in: contractions of log(x*x) (the padding is -inf), sums of exp
(it adds 1), maxima of -(x*x) (it wins with 0), integer sums, softmax and
logsumexp over a split vocabulary, per-head matmuls, and moves of the
uneven dimension to other axes and dimensions. Each runs with random
inputs and --reference (partitioned vs unpartitioned) and is compared with
numpy, computed here from the saved inputs. Each program must also keep
the uneven dimension split (its local op sees a block of ceil(n / k), not
n): the partitioned IR is checked for it. Prints one line per program with
its bytes per device; exits 1 on a failure. Then stencils written as
shifted slices (x[1:] - x[:-1], a second difference, x[1::2]) and a
valid convolution, whose results of 15, 14, 8 and 14 rows are split like
the 16 rows of x and read their windows by halo.
"""
import itertools
import os
import subprocess
import sys

import numpy as np

from partition_runs import write_and_run

MESHES = [[("x", 4)], [("x", 8)], [("x", 3)], [("x", 2), ("y", 4)]]
SIZES = [30, 17, 7]


def mesh_text(mesh):
    return ", ".join(f'"{a}"={n}' for a, n in mesh)


def axes_text(axes):
    return "{" + ", ".join(f'"{a}"' for a in axes) + "}"


def spec(dims):
    return "[" + ", ".join(axes_text(d) for d in dims) + "]"


def ttype(shape, elt="f32"):
    return "tensor<" + "x".join(str(s) for s in shape) + f"x{elt}>"


def arg(name, shape, dims, elt="f32"):
    return (f"%{name}: {ttype(shape, elt)} "
            f"{{trellis.sharding = #trellis.sharding<@m, {spec(dims)}>}}")


def module(mesh, args, result, body, ret, elt="f32", result_dims=None):
    res = ttype(result, elt)
    if result_dims is not None:
        res += (f" {{trellis.sharding = #trellis.sharding<@m, "
                f"{spec(result_dims)}>}}")
    return (f"trellis.mesh @m = <[{mesh_text(mesh)}]>\n"
            f"func.func @main({', '.join(args)}) -> ({res}) {{\n"
            f"{body}  return %{ret} : {ttype(result, elt)}\n}}\n")


def filled(name, shape, value, elt="f32"):
    return (f"  %{name}_e = tensor.empty() : {ttype(shape, elt)}\n"
            f"  %{name}_c = arith.constant {value} : {elt}\n"
            f"  %{name} = linalg.fill ins(%{name}_c : {elt}) "
            f"outs(%{name}_e : {ttype(shape, elt)}) -> {ttype(shape, elt)}\n")


def row_reduce(name, src, shape, init, combiner, elt="f32", payload=""):
    """Reduces `src` [r, n] over dimension 1 with `combiner`; `payload`
    (optional) maps the input element %in first."""
    r = shape[0]
    value = "%p" if payload else "%in"
    return (filled(f"{name}_i", [r], init, elt) +
            f"  %{name} = linalg.generic {{indexing_maps = "
            f"[affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>], "
            f"iterator_types = [\"parallel\", \"reduction\"]}} "
            f"ins(%{src} : {ttype(shape, elt)}) outs(%{name}_i : "
            f"{ttype([r], elt)}) {{\n"
            f"  ^bb0(%in: {elt}, %acc: {elt}):\n"
            + (f"    %p = {payload}\n" if payload else "") +
            f"    %t = arith.{combiner} {value}, %acc : {elt}\n"
            f"    linalg.yield %t : {elt}\n  }} -> {ttype([r], elt)}\n")


def cases():
    """(name, mesh, module, numpy model, the local block extent the
    partitioned IR must show)."""
    for mesh in MESHES:
        all_axes = [a for a, _ in mesh]
        k = 1
        for _, n in mesh:
            k *= n
        for n in SIZES:
            if n % k == 0:
                continue
            block = -(-n // k)
            tag = f"n={n} mesh=({','.join(str(s) for _, s in mesh)})"
            A = all_axes

            # A contraction over the uneven dimension of log(x*x): the
            # padding would be -inf, and -inf * 0 = NaN.
            body = (f"  %sq = arith.mulf %x, %x : {ttype([6, n])}\n"
                    f"  %l = math.log %sq : {ttype([6, n])}\n" +
                    filled("f", [6, 5], "0.0") +
                    f"  %y = linalg.matmul ins(%l, %w : {ttype([6, n])}, "
                    f"{ttype([n, 5])}) outs(%f : {ttype([6, 5])}) -> "
                    f"{ttype([6, 5])}\n")
            yield (f"matmul over k {tag}", mesh,
                   module(mesh, [arg("x", [6, n], [[], A]),
                                 arg("w", [n, 5], [A, []])],
                          [6, 5], body, "y"),
                   lambda i: np.log(i[0] * i[0]) @ i[1], f"6x{block}xf32")

            # A sum of exp: the padding would add 1 per padded entry.
            body = row_reduce("s", "x", [4, n], "0.0", "addf",
                              payload="math.exp %in : f32")
            yield (f"sum of exp {tag}", mesh,
                   module(mesh, [arg("x", [4, n], [[], A])], [4], body, "s"),
                   lambda i: np.exp(i[0]).sum(axis=1), f"4x{block}xf32")

            # A maximum of -(x*x) <= 0: padding zeros would win.
            body = (f"  %sq = arith.mulf %x, %x : {ttype([4, n])}\n"
                    f"  %ng = arith.negf %sq : {ttype([4, n])}\n" +
                    row_reduce("mx", "ng", [4, n], "0xFF800000", "maximumf"))
            yield (f"max of -x^2 {tag}", mesh,
                   module(mesh, [arg("x", [4, n], [[], A])], [4], body, "mx"),
                   lambda i: (-(i[0] * i[0])).max(axis=1), f"4x{block}xf32")

            # An integer sum of x + 1 (exact).
            body = (f"  %one = arith.constant dense<1> : {ttype([4, n], 'i32')}\n"
                    f"  %p = arith.addi %x, %one : {ttype([4, n], 'i32')}\n" +
                    row_reduce("s", "p", [4, n], "0", "addi", elt="i32"))
            yield (f"i32 sum {tag}", mesh,
                   module(mesh, [arg("x", [4, n], [[], A], "i32")], [4], body,
                          "s", elt="i32"),
                   lambda i: (i[0].astype(np.int64) + 1).sum(axis=1),
                   f"4x{block}xi32")

            # logsumexp over a split vocabulary: a max, then a sum of exp of
            # the difference, each over the padded dimension.
            body = (row_reduce("mx", "x", [4, n], "0xFF800000", "maximumf") +
                    f"  %be = tensor.empty() : {ttype([4, n])}\n"
                    f"  %b = linalg.broadcast ins(%mx : {ttype([4])}) "
                    f"outs(%be : {ttype([4, n])}) dimensions = [1]\n"
                    f"  %d = arith.subf %x, %b : {ttype([4, n])}\n" +
                    row_reduce("s", "d", [4, n], "0.0", "addf",
                               payload="math.exp %in : f32") +
                    f"  %ls = math.log %s : {ttype([4])}\n"
                    f"  %lse = arith.addf %ls, %mx : {ttype([4])}\n")
            yield (f"logsumexp over vocab {tag}", mesh,
                   module(mesh, [arg("x", [4, n], [[], A])], [4], body,
                          "lse"),
                   lambda i: np.log(np.exp(
                       i[0] - i[0].max(axis=1, keepdims=True)).sum(axis=1))
                   + i[0].max(axis=1), f"4x{block}xf32")

            # Softmax along the unsplit dimension of rows split unevenly; the
            # result keeps the rows split.
            body = (row_reduce("mx", "x", [n, 8], "0xFF800000", "maximumf") +
                    f"  %be = tensor.empty() : {ttype([n, 8])}\n"
                    f"  %b = linalg.broadcast ins(%mx : {ttype([n])}) "
                    f"outs(%be : {ttype([n, 8])}) dimensions = [1]\n"
                    f"  %d = arith.subf %x, %b : {ttype([n, 8])}\n"
                    f"  %e = math.exp %d : {ttype([n, 8])}\n" +
                    row_reduce("s", "e", [n, 8], "0.0", "addf") +
                    f"  %se = tensor.empty() : {ttype([n, 8])}\n"
                    f"  %sb = linalg.broadcast ins(%s : {ttype([n])}) "
                    f"outs(%se : {ttype([n, 8])}) dimensions = [1]\n"
                    f"  %y = arith.divf %e, %sb : {ttype([n, 8])}\n")

            def softmax(i):
                e = np.exp(i[0] - i[0].max(axis=1, keepdims=True))
                return e / e.sum(axis=1, keepdims=True)
            yield (f"softmax of split rows {tag}", mesh,
                   module(mesh, [arg("x", [n, 8], [A, []])], [n, 8], body,
                          "y", result_dims=[A, []]),
                   softmax, f"{block}x8xf32")

            # Per-head matmuls with the heads split.
            body = (filled("f", [n, 4, 3], "0.0") +
                    f"  %y = linalg.batch_matmul ins(%q, %k : "
                    f"{ttype([n, 4, 6])}, {ttype([n, 6, 3])}) "
                    f"outs(%f : {ttype([n, 4, 3])}) -> {ttype([n, 4, 3])}\n"
                    f"  %t = math.tanh %y : {ttype([n, 4, 3])}\n")
            yield (f"heads {tag}", mesh,
                   module(mesh, [arg("q", [n, 4, 6], [A, [], []]),
                                 arg("k", [n, 6, 3], [A, [], []])],
                          [n, 4, 3], body, "t", result_dims=[A, [], []]),
                   lambda i: np.tanh(np.einsum("hik,hkj->hij", i[0], i[1])),
                   f"{block}x4x6xf32")

            # The uneven dimension moved to the other dimension (12 divides)
            # and back; and onto fewer axes.
            body = (f"  %a = math.tanh %x : {ttype([n, 12])}\n"
                    f"  %c = trellis.sharding_constraint %a to <@m, "
                    f"{spec([[], A])}> : {ttype([n, 12])}\n"
                    f"  %e = math.exp %c : {ttype([n, 12])}\n"
                    f"  %c2 = trellis.sharding_constraint %e to <@m, "
                    f"{spec([A[:1], []])}> : {ttype([n, 12])}\n"
                    f"  %y = arith.mulf %c2, %x : {ttype([n, 12])}\n")
            yield (f"moves {tag}", mesh,
                   module(mesh, [arg("x", [n, 12], [A, []])], [n, 12], body,
                          "y"),
                   lambda i: np.exp(np.tanh(i[0])) * i[0], f"{block}x12xf32")


def stencil_cases():
    """Stencils written as shifted slices (as JAX prints jnp.diff and
    x[2:] - 2 x[1:-1] + x[:-2]), a strided slice x[1::2] and a valid
    convolution: results of n - 1, n - 2, n / 2 and n - 2 rows split
    unevenly like the 16 rows of x (blocks of 16 / k), each window read
    by halo from the next device."""
    for mesh in [[("x", 2)], [("x", 4)], [("x", 8)], [("x", 2), ("y", 4)]]:
        A = [a for a, _ in mesh]
        k = 1
        for _, n in mesh:
            k *= n
        tag = f"mesh=({','.join(str(n) for _, n in mesh)})"
        n, block = 16, 16 // k

        def sl(name, offset, size, stride=1):
            return (f"  %{name} = tensor.extract_slice %x[{offset}, 0] "
                    f"[{size}, 5] [{stride}, 1] : {ttype([n, 5])} to "
                    f"{ttype([size, 5])}\n")
        body = (sl("a", 1, n - 1) + sl("b", 0, n - 1) +
                f"  %d = arith.subf %a, %b : {ttype([n - 1, 5])}\n"
                f"  %t = math.tanh %d : {ttype([n - 1, 5])}\n")
        yield (f"diff {tag}", mesh,
               module(mesh, [arg("x", [n, 5], [A, []])], [n - 1, 5], body,
                      "t"),
               lambda i: np.tanh(np.diff(i[0], axis=0)), f"{block}x5xf32")
        if block >= 2:
            body = (sl("a", 2, n - 2) + sl("b", 1, n - 2) + sl("c", 0, n - 2) +
                    f"  %two = arith.constant dense<2.0> : {ttype([n - 2, 5])}\n"
                    f"  %m = arith.mulf %b, %two : {ttype([n - 2, 5])}\n"
                    f"  %s = arith.subf %a, %m : {ttype([n - 2, 5])}\n"
                    f"  %d = arith.addf %s, %c : {ttype([n - 2, 5])}\n")
            yield (f"second difference {tag}", mesh,
                   module(mesh, [arg("x", [n, 5], [A, []])], [n - 2, 5], body,
                          "d"),
                   lambda i: np.diff(i[0], n=2, axis=0), f"{block}x5xf32")
            body = (sl("a", 1, n // 2, 2) +
                    f"  %e = math.exp %a : {ttype([n // 2, 5])}\n")
            yield (f"odd rows {tag}", mesh,
                   module(mesh, [arg("x", [n, 5], [A, []])], [n // 2, 5],
                          body, "e"),
                   lambda i: np.exp(i[0][1::2]), f"{block // 2}x5xf32")
        # A valid 3-tap convolution (no padding): 14 outputs.
        body = (filled("f", [n - 2], "0.0") +
                f"  %y = linalg.conv_1d ins(%v, %w : {ttype([n])}, "
                f"{ttype([3])}) outs(%f : {ttype([n - 2])}) -> "
                f"{ttype([n - 2])}\n")
        yield (f"valid conv {tag}", mesh,
               module(mesh, [arg("v", [n], [A]), arg("w", [3], [[]])],
                      [n - 2], body, "y"),
               lambda i: np.convolve(i[0], i[1][::-1], mode="valid"),
               f"{block}xf32")


def main():
    run, opt, work = sys.argv[1], sys.argv[2], sys.argv[3]
    os.makedirs(work, exist_ok=True)
    failed = False
    for index, (name, mesh, text, model, block) in enumerate(
            itertools.chain(cases(), stencil_cases())):
        path, ins, got = write_and_run(run, work, f"p{index}", index + 1,
                                       text, name)
        if ins is None:
            failed = True
            continue
        want = model([x.astype(np.float64) if x.dtype.kind == "f" else x
                      for x in ins])
        if got.dtype.kind == "i":
            ok = np.array_equal(got.astype(np.int64),
                                want.astype(np.int64).astype(np.int32))
        else:
            got = got.astype(np.float64)
            scale = max(1.0, float(np.abs(want).max()))
            ok = got.shape == want.shape and np.allclose(
                got, want, rtol=1e-5, atol=1e-5 * scale)
        # One partitioning gives the IR and the bytes.
        report = path + ".comm"
        partitioned = subprocess.run(
            [opt, path, "--trellis-global-to-manual",
             "--trellis-comm-report=output=" + report], capture_output=True,
            text=True, timeout=300).stdout
        split = f"tensor<{block}>" in partitioned
        with open(report) as f:
            total = [l for l in f if "total:" in l][0]
        moved = int(total.split(",")[1].split("B per device")[0])
        ok &= split
        print(f"{name}: {'ok' if ok else 'FAIL'} {moved} B"
              f"{'' if split else f' (no {block} block: not split)'}")
        failed |= not ok
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
