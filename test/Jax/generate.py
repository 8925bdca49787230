#!/usr/bin/env python3
"""Writes the JAX corpus: every program registered in test/Jax/programs/,
lowered by JAX to StableHLO (Shardy form unless a program asks for GSPMD)
and run by JAX on 8 CPU devices with fixed inputs.

    scripts/setup-jax.sh                    # once: the pinned JAX venv
    $(scripts/setup-jax.sh) test/Jax/generate.py           # the committed suite
    $(scripts/setup-jax.sh) test/Jax/generate.py --long    # realistic sizes
    ... generate.py -k 'mlp_.*'                            # a subset

For each program NAME it writes OUT/NAME/program.mlir (jax.jit(f).lower(
*args).as_text()), OUT/NAME/inN.npy (the module's arguments, in order),
OUT/NAME/outN.npy (JAX's results, in order) and OUT/NAME/meta.json. OUT is
test/Jax/data (committed) or, with --long, test/Jax/data-long (not
committed: regenerate it; the inputs are seeded by each program's name).
"""

import argparse
import contextlib
import glob
import importlib
import json
import os
import re
import shutil
import sys
import time

os.environ["XLA_FLAGS"] = (os.environ.get("XLA_FLAGS", "") +
                           " --xla_force_host_platform_device_count=8")
os.environ.setdefault("JAX_PLATFORMS", "cpu")

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.append(os.path.join(HERE, "programs"))

import numpy as np  # noqa: E402
import jax  # noqa: E402
import jaxlib  # noqa: E402

import common  # noqa: E402


def load_families():
    for path in sorted(glob.glob(os.path.join(HERE, "programs", "*.py"))):
        mod = os.path.splitext(os.path.basename(path))[0]
        if mod != "common":
            importlib.import_module(mod)


def print_module(form, fn, args):
    if form in ("shardy", "gspmd"):
        return fn.lower(*args).as_text()
    if form == "export":
        structs = jax.tree.map(
            lambda a: jax.ShapeDtypeStruct(np.shape(a), np.asarray(a).dtype
                                           if not hasattr(a, "sharding") else a.dtype,
                                           sharding=getattr(a, "sharding", None)), args)
        return jax.export.export(fn)(*structs).mlir_module()
    if form == "roundtrip":
        from jax._src.lib import _jax
        text = fn.lower(*args).as_text()
        comp = _jax.mlir.mlir_module_to_xla_computation(
            text, use_tuple_args=False, return_tuple=False)
        return _jax.mlir.xla_computation_to_mlir_module(comp)
    raise ValueError(form)


def main_arg_count(text):
    m = re.search(r"func\.func (?:public )?@main\((.*?)\)\s*(->|\{)", text, re.S)
    if not m:
        return None
    return len(re.findall(r"%arg\d+:", m.group(1)))


disagree_outs = [None]


def differs(a, b):
    if a.shape != b.shape or a.dtype != b.dtype:
        return f"{a.dtype}{list(a.shape)} vs {b.dtype}{list(b.shape)}"
    if a.dtype.kind in "iub":
        n = int((a != b).sum())
        return f"{n} elements differ" if n else None
    x, y = a.astype(np.float64), b.astype(np.float64)
    fin = np.isfinite(y)
    scale = np.abs(y[fin]).max() if fin.any() else 0.0
    tol = 1e-4 if a.dtype.itemsize >= 4 else 3e-2
    with np.errstate(invalid="ignore"):
        ok = (np.abs(x - y) <= tol * (np.abs(y) + scale)) | (x == y) | (np.isnan(x) & np.isnan(y))
    return None if ok.all() else f"{int((~ok).sum())} elements differ, max {np.nanmax(np.abs(x - y)):.3g}"


def cross_check(entry, prog, text, outs):
    """Runs the function again on one device, without shardings (programs
    without shard_map and without explicit mode), and compares."""
    if prog.ctx is not None or "manual_computation" in text or "SPMDFullToShardShape" in text:
        return None
    raw = getattr(prog.fn, "__wrapped__", None)
    if raw is None:
        return None
    ref = jax.jit(raw)(*prog.args)
    ref = [np.asarray(o) for o in jax.tree.leaves(ref)]
    if len(ref) != len(outs):
        return f"{len(outs)} vs {len(ref)} outputs"
    for i, (a, b) in enumerate(zip(outs, ref)):
        d = differs(a, b)
        if d:
            disagree_outs[0] = ref
            return f"out{i}: {d}"
    return None


def describe(a):
    return f"{a.dtype}[{','.join(map(str, a.shape))}]"


def generate(entry, out_dir):
    prog = entry.build()
    leaves = jax.tree.leaves(prog.args)
    call_args = prog.call_args if prog.call_args is not None else prog.args
    prev = jax.config.jax_use_shardy_partitioner
    if entry.form == "gspmd":
        jax.config.update("jax_use_shardy_partitioner", False)
    try:
        with prog.ctx if prog.ctx is not None else contextlib.nullcontext():
            text = print_module(entry.form, prog.fn, call_args)
            outs = prog.fn(*call_args)
    finally:
        jax.config.update("jax_use_shardy_partitioner", prev)
    outs = [np.asarray(o) for o in jax.tree.leaves(outs)]
    disagree = cross_check(entry, prog, text, outs)
    if disagree:
        # XLA's partitioned program gave another answer than the same
        # function on one device (an XLA bug: cumsum and cummax of one sharded
        # value, for example). Keep the one-device answer as the expected one.
        print(f"WARN {entry.name}: JAX's sharded run differs from its "
              f"unsharded run ({disagree}); saving the unsharded outputs",
              flush=True)
        outs = disagree_outs[0]
    nargs = main_arg_count(text)
    if nargs != len(leaves):
        raise RuntimeError(f"main has {nargs} arguments, the program "
                           f"{len(leaves)} leaves (an argument was pruned?)")
    d = os.path.join(out_dir, entry.name)
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    with open(os.path.join(d, "program.mlir"), "w") as f:
        f.write(text)
    for i, a in enumerate(leaves):
        np.save(os.path.join(d, f"in{i}.npy"), np.asarray(a))
    for i, a in enumerate(outs):
        np.save(os.path.join(d, f"out{i}.npy"), a)
    meta = {
        "name": entry.name,
        "family": entry.family,
        "form": entry.form,
        "long": entry.long,
        "jax": jax.__version__,
        "inputs": [describe(np.asarray(a)) for a in leaves],
        "outputs": [describe(a) for a in outs],
    }
    if entry.tol:
        meta["tol"] = entry.tol
    if entry.note:
        meta["note"] = entry.note
    if disagree:
        meta["jax_sharded_differs"] = disagree
    with open(os.path.join(d, "meta.json"), "w") as f:
        json.dump(meta, f, indent=1)
        f.write("\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--long", action="store_true",
                    help="the realistic-size programs (not committed)")
    ap.add_argument("-k", default=None, help="regex: only matching names")
    ap.add_argument("--out", default=None, help="output directory")
    ap.add_argument("--list", action="store_true", help="list and exit")
    ap.add_argument("--clean", action="store_true",
                    help="remove program directories no longer registered")
    args = ap.parse_args()
    out_dir = args.out or os.path.join(HERE, "data-long" if args.long else "data")
    load_families()
    entries = [e for e in common.REGISTRY.values() if e.long == args.long]
    if args.k:
        entries = [e for e in entries if re.search(args.k, e.name)]
    if args.list:
        for e in entries:
            print(e.family, e.name)
        print(len(entries), "programs")
        return 0
    assert len(jax.devices()) == 8, jax.devices()
    os.makedirs(out_dir, exist_ok=True)
    failed = []
    for e in entries:
        t0 = time.time()
        try:
            generate(e, out_dir)
            print(f"wrote {e.name} ({time.time() - t0:.1f} s)", flush=True)
        except Exception as ex:  # report and continue
            msg = str(ex).strip().splitlines()
            print(f"ERROR {e.name}: {type(ex).__name__}: "
                  f"{msg[0] if msg else ''}", flush=True)
            failed.append(e.name)
    if args.clean and not args.k:
        names = {e.name for e in entries}
        for d in sorted(os.listdir(out_dir)):
            if d not in names and os.path.isdir(os.path.join(out_dir, d)):
                shutil.rmtree(os.path.join(out_dir, d))
                print("removed", d)
    print(f"generate: {len(entries) - len(failed)} written, {len(failed)} "
          f"failed (jax {jax.__version__}, jaxlib {jaxlib.__version__})")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
