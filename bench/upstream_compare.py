#!/usr/bin/env python3
"""Trellis's auto partitioner vs upstream MLIR's shard dialect (LLVM 22).

The same linalg programs, with the same shardings on function arguments
and results, are written twice: for Trellis (`trellis.mesh`, auto axes,
`trellis.sharding` argument/result attributes; `trellis-opt
--trellis-global-to-manual`) and for upstream (`shard.grid`, `shard.shard`
annotations; `mlir-opt` with `sharding-propagation,shard-partition` on each
function). For each case it reports the collectives each tool emits and
the bytes one device sends, with the same ring formulas for both (those of
`trellis-comm-report`: all-reduce 2(n-1)/n B, all_gather (n-1) B of its
operand, reduce-scatter and all_to_all (n-1)/n B, shift/ppermute B), and
whether the result has the per-device shape the requested sharding needs.
Then it times both tools on chains of 100 to 10,000 ops.

Usage (after scripts/build.sh):
  /usr/bin/python3 bench/upstream_compare.py [--out-dir bench/results] [--quick]
"""
import argparse
import os
import re
import statistics
import subprocess
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MLIR_OPT = "/usr/lib/llvm-22/bin/mlir-opt"
UPSTREAM_PIPELINE = "builtin.module(func.func(sharding-propagation,shard-partition))"
AXES = ["x", "y"]


def ttype(shape):
    return "tensor<" + "x".join(map(str, shape)) + "xf32>"


def trellis_sharding(spec):
    dims = ", ".join("{" + ", ".join(f'"{AXES[a]}"' for a in d) + "}" for d in spec)
    return f"#trellis.sharding<@mesh, [{dims}]>"


def upstream_sharding(spec):
    return "[" + ", ".join("[" + ", ".join(str(a) for a in d) + "]" for d in spec) + "]"


class Program:
    """A function body written once, printed in both syntaxes. Ops are
    ('matmul', a, b, shape) | ('add', a, b, shape) | ('relu', a, shape) |
    ('transpose', a, shape)."""

    def __init__(self, name, mesh, args, result_spec, ops):
        self.name, self.mesh, self.args, self.result_spec, self.ops = name, mesh, args, result_spec, ops

    def body(self, value):
        lines, names = [], {}

        def zeros(name, empty, shape):
            # A zero-filled destination.
            lines.append(f"  {empty} = tensor.empty() : {ttype(shape)}")
            lines.append(f"  {name} = linalg.fill ins(%cst : f32) outs({empty} : {ttype(shape)}) -> {ttype(shape)}")
        for i, op in enumerate(self.ops):
            r = f"%v{i}"
            kind = op[0]
            if kind == "matmul":
                _, a, b, shape = op
                zeros(f"%z{i}", f"%e{i}", shape)
                lines.append(f"  {r} = linalg.matmul ins({value(a)}, {value(b)} : {self.type_of(a)}, {self.type_of(b)}) "
                             f"outs(%z{i} : {ttype(shape)}) -> {ttype(shape)}")
            elif kind == "add":
                # linalg named ops: upstream has no sharding model for arith
                # on tensors.
                _, a, b, shape = op
                lines.append(f"  %e{i} = tensor.empty() : {ttype(shape)}")
                lines.append(f"  {r} = linalg.add ins({value(a)}, {value(b)} : {self.type_of(a)}, {self.type_of(b)}) "
                             f"outs(%e{i} : {ttype(shape)}) -> {ttype(shape)}")
            elif kind == "relu":
                _, a, shape = op
                zeros(f"%zr{i}", f"%e{i}", shape)
                lines.append(f"  %o{i} = tensor.empty() : {ttype(shape)}")
                lines.append(f"  {r} = linalg.max ins({value(a)}, %zr{i} : {self.type_of(a)}, {ttype(shape)}) "
                             f"outs(%o{i} : {ttype(shape)}) -> {ttype(shape)}")
            elif kind == "conv":
                # A "same" 3-tap convolution: pad by one on each side.
                _, a, w, shape = op
                n = shape[0]
                lines.append(f"  %p{i} = tensor.pad {value(a)} low[1] high[1] {{")
                lines.append("  ^bb0(%i: index):")
                lines.append("    tensor.yield %cst : f32")
                lines.append(f"  }} : {self.type_of(a)} to {ttype([n + 2])}")
                zeros(f"%z{i}", f"%e{i}", shape)
                lines.append(f"  {r} = linalg.conv_1d ins(%p{i}, {value(w)} : {ttype([n + 2])}, {self.type_of(w)}) "
                             f"outs(%z{i} : {ttype(shape)}) -> {ttype(shape)}")
            elif kind == "roll":
                # jnp.roll(a, shift, axis=0): two slices, one concatenate.
                _, a, shift, shape = op
                n, rest = shape[0], shape[1:]
                head, tail = [shift] + rest, [n - shift] + rest
                zeros = ", ".join("0" for _ in rest)
                ones = ", ".join("1" for _ in shape)
                sizes = ", ".join(str(d) for d in rest)
                lines.append(f"  %h{i} = tensor.extract_slice {value(a)}[{n - shift}, {zeros}] [{shift}, {sizes}] [{ones}] : "
                             f"{self.type_of(a)} to {ttype(head)}")
                lines.append(f"  %t{i} = tensor.extract_slice {value(a)}[0, {zeros}] [{n - shift}, {sizes}] [{ones}] : "
                             f"{self.type_of(a)} to {ttype(tail)}")
                lines.append(f"  {r} = tensor.concat dim(0) %h{i}, %t{i} : ({ttype(head)}, {ttype(tail)}) -> {ttype(shape)}")
            elif kind == "concat":
                # Two tensors concatenated along dimension 0.
                _, a, b, shape = op
                lines.append(f"  {r} = tensor.concat dim(0) {value(a)}, {value(b)} : "
                             f"({self.type_of(a)}, {self.type_of(b)}) -> {ttype(shape)}")
            elif kind == "expand":
                # The first dimension split in two.
                _, a, shape = op
                groups = "[[0, 1]" + "".join(f", [{d + 1}]" for d in range(1, len(shape) - 1)) + "]"
                lines.append(f"  {r} = tensor.expand_shape {value(a)} {groups} output_shape "
                             f"[{', '.join(map(str, shape))}] : {self.type_of(a)} into {ttype(shape)}")
            elif kind == "collapse":
                # The first two dimensions merged.
                _, a, shape = op
                groups = "[[0, 1]" + "".join(f", [{d + 1}]" for d in range(1, len(shape))) + "]"
                lines.append(f"  {r} = tensor.collapse_shape {value(a)} {groups} : "
                             f"{self.type_of(a)} into {ttype(shape)}")
            elif kind == "transpose":
                _, a, shape = op
                lines.append(f"  %e{i} = tensor.empty() : {ttype(shape)}")
                lines.append(f"  {r} = linalg.transpose ins({value(a)} : {self.type_of(a)}) "
                             f"outs(%e{i} : {ttype(shape)}) permutation = [1, 0]")
            names[i] = r
        return lines

    def type_of(self, ref):
        if isinstance(ref, str):  # an argument
            return ttype(dict((n, s) for n, s, _ in self.args)[ref])
        return ttype(self.ops[ref][-1])

    def result_shape(self):
        return self.ops[-1][-1]

    def trellis(self):
        mesh = ", ".join(f'"{AXES[i]}"={s}' for i, s in enumerate(self.mesh))
        out = [f"trellis.mesh @mesh = <[{mesh}]>", ""]
        params = []
        for n, shape, spec in self.args:
            attr = f" {{trellis.sharding = {trellis_sharding(spec)}}}" if spec is not None else ""
            params.append(f"%{n}: {ttype(shape)}{attr}")
        res = ttype(self.result_shape())
        if self.result_spec is not None:
            res += f" {{trellis.sharding = {trellis_sharding(self.result_spec)}}}"
        out.append(f"func.func @{self.name}({', '.join(params)}) -> ({res}) {{")
        out.append("  %cst = arith.constant 0.0 : f32")
        out += self.body(lambda ref: f"%{ref}" if isinstance(ref, str) else f"%v{ref}")
        out.append(f"  return %v{len(self.ops) - 1} : {ttype(self.result_shape())}")
        out.append("}")
        return "\n".join(out) + "\n"

    def upstream(self):
        grid = "x".join(map(str, self.mesh))
        out = [f"shard.grid @grid(shape = {grid})", ""]
        params = [f"%{n}_in: {ttype(shape)}" for n, shape, _ in self.args]
        out.append(f"func.func @{self.name}({', '.join(params)}) -> {ttype(self.result_shape())} {{")
        out.append("  %cst = arith.constant 0.0 : f32")
        for n, shape, spec in self.args:
            if spec is None:
                out.append(f"  %{n} = tensor.cast %{n}_in : {ttype(shape)} to {ttype(shape)}")
                continue
            out.append(f"  %s_{n} = shard.sharding @grid split_axes = {upstream_sharding(spec)} : !shard.sharding")
            out.append(f"  %{n} = shard.shard %{n}_in to %s_{n} : {ttype(shape)}")
        out += self.body(lambda ref: f"%{ref}" if isinstance(ref, str) else f"%v{ref}")
        last = f"%v{len(self.ops) - 1}"
        if self.result_spec is not None:
            out.append(f"  %s_res = shard.sharding @grid split_axes = {upstream_sharding(self.result_spec)} : !shard.sharding")
            out.append(f"  %res = shard.shard {last} to %s_res : {ttype(self.result_shape())}")
            last = "%res"
        out.append(f"  return {last} : {ttype(self.result_shape())}")
        out.append("}")
        return "\n".join(out) + "\n"


def cases():
    B, D, F = 64, 256, 1024
    out = []
    for mesh in ([8], [2, 4]):
        last = len(mesh) - 1  # the model axis: "x" on (8), "y" on (2,4)
        batch = [[0]] if len(mesh) == 2 else [[]]
        tag = "x".join(map(str, mesh))
        out.append(Program(f"megatron_{tag}", mesh,
                           [("x", [B, D], batch + [[]]), ("w1", [D, F], [[], [last]]),
                            ("w2", [F, D], [[last], []])],
                           batch + [[]],
                           [("matmul", "x", "w1", [B, F]), ("relu", 0, [B, F]),
                            ("matmul", 1, "w2", [B, D])]))
        out.append(Program(f"contracting_{tag}", mesh,
                           [("a", [B, D], [[], [last]]), ("b", [D, F], [[last], []])],
                           [[], []], [("matmul", "a", "b", [B, F])]))
        out.append(Program(f"reduce_scatter_{tag}", mesh,
                           [("a", [B, D], [[], [last]]), ("b", [D, F], [[last], []])],
                           [[last], []], [("matmul", "a", "b", [B, F])]))
        out.append(Program(f"elementwise_{tag}", mesh,
                           [("a", [B, D], [[last], []]), ("b", [B, D], [[last], []])],
                           [[last], []], [("add", "a", "b", [B, D]), ("relu", 0, [B, D]),
                                          ("add", 1, "a", [B, D])]))
        out.append(Program(f"transpose_{tag}", mesh,
                           [("a", [B, D], [[last], []])],
                           [[], [last]], [("transpose", "a", [D, B])]))
        out.append(Program(f"row_to_col_{tag}", mesh,
                           [("a", [D, D], [[last], []]), ("b", [D, D], [[], [last]])],
                           [[], [last]], [("add", "a", "b", [D, D])]))
        # Halo exchange and rolls (issue 25).
        out.append(Program(f"conv_same_{tag}", mesh,
                           [("a", [F], [[last]]), ("w", [3], [[]])],
                           [[last]], [("conv", "a", "w", [F])]))
        out.append(Program(f"roll_{tag}", mesh,
                           [("a", [B, D], [[last], []])],
                           [[last], []], [("roll", "a", 2, [B, D])]))
        # A concatenation along a split dimension of operands split over
        # different axes (issue 25): routed pieces instead of gathers.
        if len(mesh) == 2:
            out.append(Program(f"concat_split_{tag}", mesh,
                               [("a", [B, D], [[0], []]), ("b", [B, D], [[1], []])],
                               [[1], []], [("concat", "a", "b", [2 * B, D])]))
        # A reshape that splits a sharded dimension where its axis does not
        # fit the major half (issue 25: sub-axes), then merges it back.
        out.append(Program(f"reshape_split_{tag}", mesh,
                           [("a", [16, D], [[last], []])],
                           [[last], []],
                           [("expand", "a", [2, 8, D]), ("relu", 0, [2, 8, D]),
                            ("collapse", 1, [16, D])]))
        # Uneven dimensions (issue 25): a hidden size of 1020 and a
        # contraction of 250, neither divisible by 8 (1020 by 4 is).
        out.append(Program(f"megatron_uneven_{tag}", mesh,
                           [("x", [B, D], batch + [[]]), ("w1", [D, 1020], [[], [last]]),
                            ("w2", [1020, D], [[last], []])],
                           batch + [[]],
                           [("matmul", "x", "w1", [B, 1020]), ("relu", 0, [B, 1020]),
                            ("matmul", 1, "w2", [B, D])]))
        out.append(Program(f"contracting_uneven_{tag}", mesh,
                           [("a", [B, 250], [[], [last]]), ("b", [250, F], [[last], []])],
                           [[], []], [("matmul", "a", "b", [B, F])]))
    return out


def run(cmd, stdin_text=None, timeout=600):
    start = time.perf_counter()
    proc = subprocess.run(cmd, input=stdin_text, capture_output=True, text=True, timeout=timeout)
    return proc, (time.perf_counter() - start) * 1e3


def trellis_run(args, path):
    proc, ms = run([args.trellis_opt, path, "--trellis-global-to-manual",
                    "--trellis-comm-report=output=" + path + ".comm", "-o", path + ".out"])
    if proc.returncode != 0:
        return {"ok": False, "error": proc.stderr.strip().splitlines()[-1] if proc.stderr else "failed"}, ms
    report = open(path + ".comm").read()
    ops = re.findall(r"spmd\.(\w+) over \[([^\]]*)\]", report)
    total = re.search(r"total: \d+ collectives?, (\d+) B", report)
    ir = open(path + ".out").read()
    return {"ok": True, "ops": [o for o, _ in ops], "bytes": int(total.group(1)) if total else 0,
            "ir": ir}, ms


BYTES = {"f32": 4}


def tensor_bytes(t):
    m = re.match(r"tensor<([0-9x]+)x(f32|f64|i32|i64)", t)
    n = 1
    for d in m.group(1).split("x"):
        n *= int(d)
    return n * {"f32": 4, "f64": 8, "i32": 4, "i64": 8}[m.group(2)]


def upstream_run(args, path, mesh):
    proc, ms = run([MLIR_OPT, path, "--pass-pipeline=" + UPSTREAM_PIPELINE, "-o", path + ".out"])
    if proc.returncode != 0:
        msg = (proc.stderr or "crash").strip().splitlines()
        first = (msg[0] if msg else "failed").split("error: ")[-1]
        return {"ok": False, "error": first[:160]}, ms
    ir = open(path + ".out").read()
    ops, total = [], 0
    for m in re.finditer(r"shard\.(all_reduce|all_gather|all_to_all|reduce_scatter|shift|broadcast|"
                         r"permute|send|recv|scatter|gather|reduce|all_slice)\b([^\n]*)", ir):
        op, rest = m.group(1), m.group(2)
        axes = re.search(r"grid_axes = \[([0-9, ]*)\]", rest)
        axis_list = [int(a) for a in axes.group(1).split(",") if a.strip()] if axes else list(range(len(mesh)))
        n = 1
        for a in axis_list:
            n *= mesh[a]
        types = re.findall(r"tensor<[^>]*>", rest)
        b = tensor_bytes(types[0]) if types else 0
        sent = {"all_reduce": 2 * (n - 1) * b // n, "all_gather": (n - 1) * b,
                "reduce_scatter": (n - 1) * b // n, "all_to_all": (n - 1) * b // n,
                "shift": b, "permute": b, "broadcast": b, "all_slice": 0}.get(op, b)
        ops.append(op)
        total += sent
    return {"ok": True, "ops": ops, "bytes": total, "ir": ir}, ms


def result_shape_ok(ir, name, want):
    m = re.search(rf"func\.func @{name}\([^)]*\)\s*->\s*\(?(tensor<[^>]*>)", ir)
    return m is not None and m.group(1).startswith("tensor<" + "x".join(map(str, want)) + "x")


def uncovered(ir, case):
    """For each argument dimension the partitioned function's per-device
    blocks cannot cover (block * devices < extent: a block rounded down),
    'arg d: covered of extent'."""
    m = re.search(rf"func\.func @{case.name}\(([^)]*)\)", ir)
    if not m:
        return []
    types = re.findall(r"tensor<([0-9x]+)x[a-z]", m.group(1))
    out = []
    for (name, shape, spec), t in zip(case.args, types):
        local = [int(v) for v in t.split("x")]
        for d, axes in enumerate(spec or []):
            parts = 1
            for a in axes:
                parts *= case.mesh[a]
            if local[d] * parts < shape[d]:
                out.append(f"{name} dim {d}: {local[d] * parts} of {shape[d]}")
    return out


def local_shape(shape, spec, mesh):
    out = list(shape)
    for d, axes in enumerate(spec or []):
        for a in axes:
            out[d] //= mesh[a]
    return out


def chain(n_blocks, tool):
    """n_blocks of (matmul with a replicated weight, add, relu) on a row-
    sharded activation; returns (text, number of ops)."""
    ops = []
    prev = "x"
    for i in range(n_blocks):
        ops.append(("matmul", prev, "w", [64, 64]))
        ops.append(("add", len(ops) - 1, "x", [64, 64]))
        ops.append(("relu", len(ops) - 1, [64, 64]))
        prev = len(ops) - 1
    p = Program("chain", [8], [("x", [64, 64], [[0], []]), ("w", [64, 64], [[], []])], [[0], []], ops)
    text = p.trellis() if tool == "trellis" else p.upstream()
    count = sum(1 for line in text.splitlines() if re.match(r"\s+(%\S+ = |return )", line))
    return text, count


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build-dir", default=os.path.join(ROOT, "build"))
    parser.add_argument("--out-dir", default=os.path.join(ROOT, "bench", "results"))
    parser.add_argument("--work", default="/tmp/trellis-upstream-compare")
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    args.trellis_opt = os.path.join(args.build_dir, "bin", "trellis-opt")
    os.makedirs(args.work, exist_ok=True)
    os.makedirs(args.out_dir, exist_ok=True)
    started = time.time()

    rows = []
    for case in cases():
        tpath = os.path.join(args.work, case.name + ".trellis.mlir")
        upath = os.path.join(args.work, case.name + ".upstream.mlir")
        open(tpath, "w").write(case.trellis())
        open(upath, "w").write(case.upstream())
        t, _ = trellis_run(args, tpath)
        u, _ = upstream_run(args, upath, case.mesh)
        want = local_shape(case.result_shape(), case.result_spec, case.mesh)
        if u["ok"]:
            u["shape_ok"] = result_shape_ok(u["ir"], case.name, want)
            u["uncovered"] = uncovered(u["ir"], case)
        rows.append((case, t, u, want))

    sizes = [100, 300, 1000] if args.quick else [100, 300, 1000, 3000, 10000]
    timing = []
    stopped = set()
    for target in sizes:
        blocks = max(1, target // 9)
        row = {"target": target}
        for tool in ("trellis", "upstream"):
            text, count = chain(blocks, tool)
            row["ops_" + tool] = count
            if tool in stopped:
                row[tool] = None
                continue
            path = os.path.join(args.work, f"chain{target}.{tool}.mlir")
            open(path, "w").write(text)
            times = []
            for _ in range(3):
                if tool == "trellis":
                    proc, ms = run([args.trellis_opt, path, "--trellis-global-to-manual", "-o", "/dev/null"])
                else:
                    proc, ms = run([MLIR_OPT, path, "--pass-pipeline=" + UPSTREAM_PIPELINE, "-o", "/dev/null"])
                if proc.returncode != 0:
                    times = None
                    row[tool + "_error"] = (proc.stderr or "crash").strip().splitlines()[:1]
                    break
                times.append(ms)
                if ms > 120e3:
                    stopped.add(tool)
                    break
            row[tool] = statistics.median(times) if times else None
        timing.append(row)
        print(row, flush=True)

    lines = ["## Trellis vs upstream `shard` partitioning (issue 6)", "",
             f"Regenerate: `/usr/bin/python3 bench/upstream_compare.py` after `scripts/build.sh` "
             f"(took {time.time() - started:.0f} s). Host: 2 cores. Upstream: `mlir-opt` "
             f"(LLVM 22) `--pass-pipeline='{UPSTREAM_PIPELINE}'`; Trellis: "
             "`trellis-opt --trellis-global-to-manual`. Bytes are per device, ring "
             "estimates (the formulas of `trellis-comm-report`) applied to both tools' "
             "collectives. \"upstream result\" says whether upstream's partitioned function "
             "returns the per-device block the requested result sharding implies, and "
             "whether its per-device argument blocks cover the arguments (on uneven "
             "dimensions upstream rounds the block down and drops the last elements) (Trellis's "
             "results are checked by executing them against the unpartitioned program: "
             "test/Conversion/Partition).", "",
             "| case | mesh | Trellis collectives | Trellis B/device | upstream collectives | upstream B/device | upstream result |",
             "|---|---|---|---|---|---|---|"]
    for case, t, u, want in rows:
        def cell(r):
            if not r["ok"]:
                return "error: " + r["error"].replace("|", "\\|"), "-"
            return (", ".join(r["ops"]) or "none"), str(r["bytes"])
        tc, tb = cell(t)
        uc, ub = cell(u)
        shapes = ("ok" if u.get("shape_ok") else "WRONG block") if u["ok"] else "-"
        if u.get("uncovered"):
            shapes = "WRONG: blocks drop elements (" + "; ".join(u["uncovered"]) + ")"
        lines.append(f"| {case.name.rsplit('_', 1)[0]} | ({','.join(map(str, case.mesh))}) | {tc} | {tb} | {uc} | {ub} | {shapes} |")
    lines += ["", "Compile time on chains of (matmul with a replicated weight, add, relu) "
              "blocks on a row-sharded 64x64 activation, mesh (8); median of 3 wall-clock "
              "runs of the whole tool (process start included):", "",
              "| ops (Trellis / upstream) | Trellis ms | ms per op | upstream ms | ms per op |",
              "|---|---|---|---|---|"]
    for row in timing:
        def fmt(tool):
            v = row.get(tool)
            if v is None:
                return ("error" if row.get(tool + "_error") else "stopped"), "-"
            return f"{v:.0f}", f"{v / row['ops_' + tool]:.3f}"
        a, b = fmt("trellis")
        c, d = fmt("upstream")
        lines.append(f"| {row['ops_trellis']} / {row['ops_upstream']} | {a} | {b} | {c} | {d} |")
    open(os.path.join(args.out_dir, "upstream_compare.md"), "w").write("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
