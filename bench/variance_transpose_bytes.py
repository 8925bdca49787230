#!/usr/bin/env python3
"""Bytes communicated by backward passes: naive vs efficient transposition.

Transposes bench/variance_transpose.mlir twice with trellis-opt
(--spmd-transpose, and --spmd-transpose=naive=true: psum transposed to psum
with 1/N rescaling, as JAX did before device-variance types), then for each
transposed function:

* counts, from the IR, the communicating collectives and the bytes of the
  buffer each reduces / gathers / scatters / sends on one device (pvary and
  pscatter move no data), and the bytes one device sends on the wire with
  ring algorithms (all-reduce 2(N-1)/N of the buffer, all-gather and
  reduce-scatter (N-1)/N, all_to_all (N-1)/N, ppermute all of it);
* runs it on the simulated mesh with `trellis-run --random 1 --trace` and
  counts the collective events of device 0 and the "bytes" the runtime
  records for them (its own count: the input of an all-reduce or
  all-gather, the output block of a reduce-scatter).

Usage: bench/variance_transpose_bytes.py [--build-dir build]
           [--trellis-opt PATH] [--trellis-run PATH]
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
FUNCS = [
    ("dp_loss", "seed 001's data-parallel loss, mesh (8,)"),
    ("dp_loss_2d", "the same loss, mesh (4, 2)"),
    ("psum_unmapped", "Example 1: psum to an unmapped output"),
    ("cursed_identity", "Example 3: the cursed identity"),
    ("gather_unmapped", "Example 4: all_gather_invariant to an unmapped output"),
]
ELEMENT_BYTES = {"f32": 4, "f64": 8, "f16": 2, "bf16": 2, "i32": 4, "i64": 8}
OP = re.compile(r"= spmd\.(psum|pmean|pmax|pmin|all_gather|all_gather_invariant|"
                r"psum_scatter|all_to_all|ppermute) .* over (\[[^\]]*\])")
TENSOR = re.compile(r"tensor<([0-9x]+)x?([a-z]+[0-9]+)")


def tensor_bytes(text):
    dims, element = TENSOR.search(text).groups()
    n = 1
    for d in dims.split("x"):
        if d:
            n *= int(d)
    return n * ELEMENT_BYTES[element]


def meshes(text):
    found = {}
    for name, axes in re.findall(r"trellis\.mesh @(\w+) = <\[([^\]]*)\]", text):
        found[name] = {a: int(s) for a, s in re.findall(r'"(\w+)"=(\d+)', axes)}
    return found


def static_cost(mlir, func):
    """(collectives, buffer bytes, ring wire bytes) of @func, one device."""
    text = open(mlir).read()
    sizes = meshes(text)
    body = re.search(r"\n  func\.func @" + func + r"\(.*?\n  }\n", text, re.S).group(0)
    if "scf.for" in body:
        raise SystemExit(f"@{func} has a loop; static counting assumes none")
    mesh = sizes[re.search(r"spmd\.shard_map @(\w+)", body).group(1)]
    calls = buffer = wire = 0
    for line in body.splitlines():
        m = OP.search(line)
        if not m:
            continue
        kind = m.group(1)
        n = 1
        for axis in re.findall(r'"(\w+)"', m.group(2)):
            n *= mesh[axis]
        types = line.split(" : ", 1)[1]
        operand = tensor_bytes(types)
        result = tensor_bytes(types.split("->")[-1])
        calls += 1
        if kind in ("psum", "pmean", "pmax", "pmin"):
            buffer += operand
            wire += 2 * (n - 1) * operand // n
        elif kind in ("all_gather", "all_gather_invariant"):
            buffer += result
            wire += (n - 1) * result // n
        elif kind in ("psum_scatter", "all_to_all"):
            buffer += operand
            wire += (n - 1) * operand // n
        else:  # ppermute
            buffer += operand
            wire += operand
    return calls, buffer, wire


def traced(trellis_run, mlir, func, tmp):
    trace = os.path.join(tmp, f"{func}.json")
    subprocess.run([trellis_run, mlir, "--entry", func,
                    "--random", "1", "--trace", trace, "--quiet"],
                   check=True, stdout=subprocess.DEVNULL)
    with open(trace) as f:
        events = json.load(f)["traceEvents"]
    mine = [e for e in events if e.get("cat") == "collective" and e["tid"] == 0]
    return len(mine), sum(e["args"]["bytes"] for e in mine)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build-dir", default=os.path.join(HERE, "..", "build"))
    parser.add_argument("--trellis-opt", help="default: BUILD_DIR/bin/trellis-opt")
    parser.add_argument("--trellis-run", help="default: BUILD_DIR/bin/trellis-run")
    args = parser.parse_args()
    build = os.path.abspath(args.build_dir)
    trellis_opt = args.trellis_opt or os.path.join(build, "bin", "trellis-opt")
    trellis_run = args.trellis_run or os.path.join(build, "bin", "trellis-run")
    source = os.path.join(HERE, "variance_transpose.mlir")
    with tempfile.TemporaryDirectory() as tmp:
        modules = {}
        for mode, flag in (("naive", "--spmd-transpose=naive=true"),
                           ("efficient", "--spmd-transpose")):
            modules[mode] = os.path.join(tmp, f"{mode}.mlir")
            subprocess.run([trellis_opt, source, flag,
                            "-o", modules[mode]], check=True)
        print("Backward-pass communication per device (f32; 8 simulated devices;")
        print("buffers of 1 MiB = 1048576 bytes)\n")
        header = (f"{'function':<16} {'mode':<9} | {'IR: calls':>9} {'buffer B':>9} "
                  f"{'ring wire B':>11} | {'run: calls':>10} {'runtime B':>9}")
        print(header)
        print("-" * len(header))
        for func, what in FUNCS:
            wires = {}
            for mode in ("naive", "efficient"):
                calls, buffer, wire = static_cost(modules[mode], f"{func}_t")
                run_calls, run_bytes = traced(trellis_run, modules[mode], f"{func}_t", tmp)
                wires[mode] = wire
                print(f"{func:<16} {mode:<9} | {calls:>9} {buffer:>9} {wire:>11} | "
                      f"{run_calls:>10} {run_bytes:>9}")
            print(f"{'':<16} {'':<9} |  {what}; naive sends "
                  f"{wires['naive'] - wires['efficient']} more wire bytes")
        print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
