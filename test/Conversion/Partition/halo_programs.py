#!/usr/bin/env python3
"""Stencils, convolutions and pooling on split dimensions, executed.

Usage: halo_programs.py TRELLIS_RUN TRELLIS_OPT WORKDIR

Each program reads a padded tensor through windows of a loop split over
the mesh (a linalg.generic stencil with shifted reads, linalg.conv_1d,
linalg.conv_2d_nhwc_hwcf, a strided max pooling). Each runs on its mesh
with random inputs and --reference (partitioned vs unpartitioned), and its
result is compared with numpy, computed here from the saved inputs. The
numpy model is checked too: it must see the halo (a change in the second
device's first element changes the first device's outputs).

Bytes: trellis-comm-report's bytes per device against the halo, computed
here from index sets: the source elements a device's output block reads
(padding excluded) that its own block does not hold, the most over the
devices. A program whose halo fits in one neighbour's block must move
exactly that; one whose window is wider than a block gathers (at least
that). Prints one line per program; exits 1 on a failure.
"""
import itertools
import os
import sys

import numpy as np

from partition_runs import reported_bytes, write_and_run

ELEMENT_BYTES = 4


def mesh_text(mesh):
    return ", ".join(f'"{a}"={n}' for a, n in mesh)


def spec(dims):
    return "[" + ", ".join("{" + ", ".join(f'"{a}"' for a in d) + "}"
                           for d in dims) + "]"


def ttype(shape):
    return "tensor<" + "x".join(str(s) for s in shape) + "xf32>"


def pad_op(name, src, shape, lows, highs, value):
    padded = [s + l + h for s, l, h in zip(shape, lows, highs)]
    args = ", ".join(f"%i{d}: index" for d in range(len(shape)))
    return padded, f"""  %pv = arith.constant {value} : f32
  %{name} = tensor.pad %{src} low{list(lows)} high{list(highs)} {{
  ^bb0({args}):
    tensor.yield %pv : f32
  }} : {ttype(shape)} to {ttype(padded)}
"""


class Program:
    """A module, its numpy model and its windows for the byte count."""

    def __init__(self, name, mesh, module, model, windows, source_shape,
                 source_dims):
        self.name, self.mesh, self.module = name, mesh, module
        self.model, self.windows = model, windows
        self.source_shape, self.source_dims = source_shape, source_dims


def stencil1d(mesh, axes, n, pad_value):
    """y[i] = x[i-1] - 2 x[i] + 3 x[i+1] through shifts 1, 2, 3 of x padded
    by 2 on each side."""
    padded, pad = pad_op("p", "x", [n], [2], [2], pad_value)
    m = "(i) -> "
    module = f"""trellis.mesh @mesh = <[{mesh_text(mesh)}]>
func.func @main(%x: {ttype([n])} {{trellis.sharding = #trellis.sharding<@mesh, {spec([axes])}>}})
    -> ({ttype([n])} {{trellis.sharding = #trellis.sharding<@mesh, {spec([axes])}>}}) {{
{pad}  %e = tensor.empty() : {ttype([n])}
  %y = linalg.generic {{indexing_maps = [affine_map<{m}(i + 1)>, affine_map<{m}(i + 2)>, affine_map<{m}(i + 3)>, affine_map<{m}(i)>],
                       iterator_types = ["parallel"]}}
      ins(%p, %p, %p : {ttype(padded)}, {ttype(padded)}, {ttype(padded)}) outs(%e : {ttype([n])}) {{
  ^bb0(%a: f32, %b: f32, %c: f32, %o: f32):
    %m2 = arith.constant -2.0 : f32
    %k3 = arith.constant 3.0 : f32
    %b2 = arith.mulf %b, %m2 : f32
    %c3 = arith.mulf %c, %k3 : f32
    %s = arith.addf %a, %b2 : f32
    %t = arith.addf %s, %c3 : f32
    linalg.yield %t : f32
  }} -> {ttype([n])}
  return %y : {ttype([n])}
}}
"""

    def model(x, pv):
        p = np.pad(x, 2, constant_values=pv)
        return p[1:n + 1] - 2 * p[2:n + 2] + 3 * p[3:n + 3]

    # (dim, stride, min offset, max offset, low padding, source size)
    return module, lambda ins, pv=pad_value: model(ins[0], pv), \
        [(0, 1, 1, 3, 2, n)]


def conv1d(mesh, axes, n, k, low):
    high = k - 1 - low
    padded, pad = pad_op("p", "x", [n], [low], [high], "0.0")
    module = f"""trellis.mesh @mesh = <[{mesh_text(mesh)}]>
func.func @main(%x: {ttype([n])} {{trellis.sharding = #trellis.sharding<@mesh, {spec([axes])}>}},
                %w: {ttype([k])})
    -> ({ttype([n])} {{trellis.sharding = #trellis.sharding<@mesh, {spec([axes])}>}}) {{
{pad}  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : {ttype([n])}
  %z = linalg.fill ins(%zero : f32) outs(%e : {ttype([n])}) -> {ttype([n])}
  %y = linalg.conv_1d ins(%p, %w : {ttype(padded)}, {ttype([k])}) outs(%z : {ttype([n])}) -> {ttype([n])}
  return %y : {ttype([n])}
}}
"""

    def model(ins):
        x, w = ins
        p = np.pad(x, (low, high))
        return np.array([np.dot(p[o:o + k], w) for o in range(n)],
                        dtype=np.float64)

    return module, model, [(0, 1, 0, k - 1, low, n)]


def conv2d(mesh, hw_axes, h, w_, c, f):
    shape = [1, h, w_, c]
    padded, pad = pad_op("p", "x", shape, [0, 1, 1, 0], [0, 1, 1, 0], "0.0")
    dims = [[], hw_axes[0], hw_axes[1], []]
    out = [1, h, w_, f]
    module = f"""trellis.mesh @mesh = <[{mesh_text(mesh)}]>
func.func @main(%x: {ttype(shape)} {{trellis.sharding = #trellis.sharding<@mesh, {spec(dims)}>}},
                %w: {ttype([3, 3, c, f])})
    -> ({ttype(out)} {{trellis.sharding = #trellis.sharding<@mesh, {spec(dims)}>}}) {{
{pad}  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : {ttype(out)}
  %z = linalg.fill ins(%zero : f32) outs(%e : {ttype(out)}) -> {ttype(out)}
  %y = linalg.conv_2d_nhwc_hwcf {{dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}}
      ins(%p, %w : {ttype(padded)}, {ttype([3, 3, c, f])}) outs(%z : {ttype(out)}) -> {ttype(out)}
  return %y : {ttype(out)}
}}
"""

    def model(ins):
        x, wt = ins
        p = np.pad(x.astype(np.float64), ((0, 0), (1, 1), (1, 1), (0, 0)))
        y = np.zeros(out)
        for kh, kw in itertools.product(range(3), range(3)):
            y += np.einsum("nhwc,cf->nhwf", p[:, kh:kh + h, kw:kw + w_, :],
                           wt[kh, kw])
        return y

    return module, model, [(1, 1, 0, 2, 1, h), (2, 1, 0, 2, 1, w_)]


def maxpool(mesh, axes, n):
    """Windows of 3 with stride 2 over x padded with -inf at the end."""
    padded, pad = pad_op("p", "x", [n], [0], [1], "0xFF800000")
    o = n // 2
    module = f"""trellis.mesh @mesh = <[{mesh_text(mesh)}]>
func.func @main(%x: {ttype([n])} {{trellis.sharding = #trellis.sharding<@mesh, {spec([axes])}>}})
    -> ({ttype([o])} {{trellis.sharding = #trellis.sharding<@mesh, {spec([axes])}>}}) {{
{pad}  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : {ttype([o])}
  %z = linalg.fill ins(%ninf : f32) outs(%e : {ttype([o])}) -> {ttype([o])}
  %win = tensor.empty() : tensor<3xf32>
  %y = linalg.generic {{indexing_maps = [affine_map<(i, k) -> (i * 2 + k)>, affine_map<(i, k) -> (k)>, affine_map<(i, k) -> (i)>],
                       iterator_types = ["parallel", "reduction"]}}
      ins(%p, %win : {ttype(padded)}, tensor<3xf32>) outs(%z : {ttype([o])}) {{
  ^bb0(%a: f32, %unused: f32, %acc: f32):
    %mx = arith.maximumf %a, %acc : f32
    linalg.yield %mx : f32
  }} -> {ttype([o])}
  return %y : {ttype([o])}
}}
"""

    def model(ins):
        p = np.pad(ins[0], (0, 1), constant_values=-np.inf)
        return np.array([p[2 * i:2 * i + 3].max() for i in range(o)])

    return module, model, [(0, 2, 0, 2, 0, n)]


def devices_along(mesh, axes):
    sizes = dict(mesh)
    return int(np.prod([sizes[a] for a in axes])) if axes else 1


def halo_bytes(windows, source_shape, dim_axes, mesh):
    """The most source elements a device's output block reads (padding
    excluded) that its block does not hold, in bytes; and whether each
    window's halo lies in the neighbours' blocks."""
    reads, owns, fits = [], [], True
    for d, size in enumerate(source_shape):
        p = devices_along(mesh, dim_axes[d])
        win = next((w for w in windows if w[0] == d), None)
        per_device = []
        for dev in range(p):
            block = size // p
            own = set(range(dev * block, (dev + 1) * block))
            if win is None:
                per_device.append((own, own))
                continue
            _, stride, lo, hi, low, _ = win
            out_block = block // stride
            read = set()
            for o in range(dev * out_block, (dev + 1) * out_block):
                for off in range(lo, hi + 1):
                    i = stride * o + off - low
                    if 0 <= i < size:
                        read.add(i)
            per_device.append((read, own))
            fits &= all(dev * block - block <= i < (dev + 2) * block
                        for i in read)
        reads.append(per_device)
    worst = 0
    for coord in itertools.product(*[range(len(r)) for r in reads]):
        need = held = 1
        for d, k in enumerate(coord):
            read, own = reads[d][k]
            need *= len(read)
            held *= len(read & own)
        worst = max(worst, need - held)
    return worst * ELEMENT_BYTES, fits


def cases():
    m2, m4, m22, m3 = [("x", 2)], [("x", 4)], [("x", 2), ("y", 2)], [("x", 3)]
    m8 = [("x", 8)]
    out = []
    for mesh, axes in [(m2, ["x"]), (m4, ["x"]), (m22, ["x", "y"]),
                       (m3, ["x"])]:
        n = 12 if mesh == m3 else 16
        tag = "x".join(str(s) for _, s in mesh)
        out.append((f"stencil1d pad 0 ({tag})", mesh, [axes],
                    stencil1d(mesh, axes, n, "0.0"), [n]))
        out.append((f"stencil1d pad 1.5 ({tag})", mesh, [axes],
                    stencil1d(mesh, axes, n, "1.5"), [n]))
        for k, low in [(3, 1), (5, 2), (4, 1), (2, 0)]:
            out.append((f"conv1d k={k} low={low} ({tag})", mesh, [axes],
                        conv1d(mesh, axes, n, k, low), [n]))
        out.append((f"maxpool 3/2 ({tag})", mesh, [axes],
                    maxpool(mesh, axes, 2 * n), [2 * n]))
    for mesh, hw in [(m2, [["x"], []]), (m4, [["x"], []]),
                     (m22, [["x"], ["y"]]), (m22, [["y"], ["x"]])]:
        tag = "x".join(str(s) for _, s in mesh)
        out.append((f"conv2d 3x3 ({tag}, H over {hw[0]}, W over {hw[1]})",
                    mesh, [[], hw[0], hw[1], []],
                    conv2d(mesh, hw, 8, 8, 2, 3), [1, 8, 8, 2]))
    # A window wider than a block: gathered.
    out.append(("conv1d k=9 low=4 (8, gathers)", m8, [["x"]],
                conv1d(m8, ["x"], 16, 9, 4), [16]))
    return out


def main():
    run, opt, work = sys.argv[1], sys.argv[2], sys.argv[3]
    os.makedirs(work, exist_ok=True)
    failed = False
    for index, (name, mesh, dim_axes, built, source_shape) in enumerate(cases()):
        module, model, windows = built
        path, ins, got = write_and_run(run, work, f"p{index}", index + 1,
                                       module, name)
        if ins is None:
            failed = True
            continue
        ins = [x.astype(np.float64) for x in ins]
        got = got.astype(np.float64)
        want = model(ins)
        scale = max(1.0, float(np.abs(want[np.isfinite(want)]).max()))
        ok = got.shape == want.shape and np.allclose(
            got, want, rtol=1e-5, atol=1e-5 * scale)
        # The model must see the halo: a large value in the first element
        # of the second device's block (along the first split dimension)
        # changes the first device's outputs.
        d0 = next(d for d, a in enumerate(dim_axes) if a)
        p = devices_along(mesh, dim_axes[d0])
        perturbed = ins[0].copy()
        index = [0] * perturbed.ndim
        index[d0] = perturbed.shape[d0] // p
        perturbed[tuple(index)] = 1e3
        first = range(want.shape[d0] // p)
        sensitive = not np.array_equal(
            np.take(model([perturbed] + ins[1:]), first, axis=d0),
            np.take(want, first, axis=d0))
        bound, fits = halo_bytes(windows, source_shape, dim_axes, mesh)
        moved = reported_bytes(opt, path)
        ok &= sensitive and (moved == bound if fits else moved >= bound)
        how = "halo" if fits else "gathered"
        print(f"{name}: {'ok' if ok else 'FAIL'} {how} {moved} B "
              f"(halo {bound} B){'' if sensitive else ' model blind'}")
        failed |= not ok
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
