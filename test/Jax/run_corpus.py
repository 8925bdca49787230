#!/usr/bin/python3
"""Runs every program of the JAX corpus with trellis-run and compares its
results with JAX's (test/Jax/data/NAME/outN.npy, written by generate.py).

    test/Jax/run_corpus.py [--trellis-run build/bin/trellis-run] [-j 2]
                           [-k REGEX] [--long] [--keep DIR] [--self-test]
                           [--mpi 'mpiexec --oversubscribe' --sample 4]

Needs only numpy (Debian's python3), not JAX. One line per program:

    PASS NAME
    FAIL NAME: <first error line, or the first mismatching output>
    XFAIL NAME: <reason from xfail.txt> [<what happened>]
    XPASS NAME: listed in xfail.txt but passed (counted as failed)

and last `N passed, M failed, K xfailed`. Integer and boolean results must
match exactly; floats within |got - want| <= rtol*|want| + atol*max|want|
(f32: 1e-4, 1e-4; bf16: 2^-5; f16: 2^-8; per program in meta.json "tol"),
NaN where JAX has NaN. A run that exits 0 with a wrong result is a
MISMATCH, reported as a wrong answer.

xfail.txt lists programs Trellis does not run yet, one per line:

    NAME  KIND  reason...

KIND is `error` (trellis-run stops with an error), `crash` (a signal or an
LLVM stack dump), `timeout` or `mismatch` (a wrong answer). Text in
backquotes in the reason must appear in the error. A listed program that
fails in another way is a failure too, so that the list stays true when
a feature lands and the program stops at the next one.
"""

import argparse
import concurrent.futures
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))

TOLS = {  # dtype -> (rtol, atol relative to the largest |expected|)
    "float64": (1e-9, 1e-9),
    "float32": (1e-4, 1e-4),
    "bfloat16": (2.0 ** -5, 2.0 ** -5),
    "float16": (2.0 ** -8, 2.0 ** -8),
}


def load_npy(path):
    """Loads a .npy; bfloat16 (stored as raw 2-byte 'V2') becomes float32,
    marked by the returned dtype name."""
    a = np.load(path, allow_pickle=False)
    if a.dtype.kind == "V" and a.dtype.itemsize == 2:
        bits = a.view(np.uint16).astype(np.uint32) << 16
        return bits.view(np.float32), "bfloat16"
    return a, str(a.dtype)


def read_xfail(path):
    xfail = {}
    if not os.path.exists(path):
        return xfail
    with open(path) as f:
        for n, line in enumerate(f, 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            parts = line.split(None, 2)
            if len(parts) < 3 or parts[1] not in ("error", "crash", "timeout", "mismatch"):
                sys.exit(f"{path}:{n}: expected 'NAME KIND reason', KIND one of "
                         f"error/crash/timeout/mismatch: {line}")
            xfail[parts[0]] = (parts[1], parts[2])
    return xfail


def first_error(text):
    lines = [l.strip() for l in text.splitlines() if l.strip()]
    for l in lines:
        if "error:" in l or "Error" in l or "Assertion" in l:
            return re.sub(r"^\S*/(program\.mlir)", r"\1", l)
    return lines[0] if lines else "(no output)"


def compare(got_path, want_path, tol):
    """None if equal within tolerance, else a message."""
    want, wdt = load_npy(want_path)
    if not os.path.exists(got_path):
        return f"{os.path.basename(got_path)} not written"
    got, gdt = load_npy(got_path)
    name = os.path.basename(want_path).replace(".npy", "")
    # Trellis returns an entry's unsigned result widened to the next signed
    # type (the importer warns): the values must still be JAX's exactly.
    widened = {"uint8": "int16", "uint16": "int32", "uint32": "int64"}
    if gdt != wdt and widened.get(wdt) == gdt:
        got, gdt = got.astype(want.dtype), wdt
        if not np.array_equal(load_npy(got_path)[0], want.astype(np.int64)):
            return f"{name}: widened {wdt} result differs from JAX's values"
    if gdt != wdt:
        return f"{name}: dtype {gdt}, JAX has {wdt}"
    if got.shape != want.shape:
        return f"{name}: shape {list(got.shape)}, JAX has {list(want.shape)}"
    if want.size == 0:
        return None
    if wdt not in TOLS:
        bad = got != want
        if not bad.any():
            return None
        i = np.unravel_index(np.argmax(bad), bad.shape)
        return (f"{name} ({wdt}{list(want.shape)}): {int(bad.sum())} of "
                f"{want.size} elements differ, first at {list(map(int, i))}: "
                f"{got[i]} vs JAX {want[i]}")
    rtol, atol = TOLS[wdt]
    if tol:
        rtol, atol = tol.get("rtol", rtol), tol.get("atol", atol)
    g = got.astype(np.float64)
    w = want.astype(np.float64)
    finite = np.isfinite(w)
    scale = np.max(np.abs(w[finite])) if finite.any() else 0.0
    with np.errstate(invalid="ignore"):
        err = np.abs(g - w)
        ok = err <= rtol * np.abs(w) + atol * scale
        ok |= (g == w)  # infinities
        ok |= np.isnan(g) & np.isnan(w)
    if ok.all():
        return None
    bad = ~ok
    i = np.unravel_index(np.argmax(np.where(bad, np.nan_to_num(err, nan=np.inf), -1)), bad.shape)
    return (f"{name} ({wdt}{list(want.shape)}): {int(bad.sum())} of {want.size} "
            f"elements off (rtol {rtol:g}, atol {atol:g} x max|JAX| {scale:.3g}); "
            f"worst at {list(map(int, i))}: {got[i]!r} vs JAX {want[i]!r}")


def device_count(path):
    """The devices a module runs on: mhlo.num_partitions, else the size of
    its first mesh (sdy.mesh, or in Shardy's round-trip strings), else 1."""
    with open(path) as f:
        text = f.read()
    m = re.search(r"mhlo\.num_partitions = (\d+)", text)
    if m:
        return int(m.group(1))
    m = re.search(r"sdy\.mesh[^<]*<\[([^\]]*)\]", text)
    if m:
        n = 1
        for size in re.findall(r"=\s*(\d+)", m.group(1)):
            n *= int(size)
        return n
    return 1


def run_one(name, args, work):
    d = os.path.join(args.data, name)
    with open(os.path.join(d, "meta.json")) as f:
        meta = json.load(f)
    nin = len(meta["inputs"])
    out = os.path.join(work, name)
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(out)
    prog = os.path.join(d, "program.mlir")
    cmd = [args.trellis_run, prog]
    if args.mpi:
        ndev = meta.get("devices") or device_count(prog)
        cmd = args.mpi.split() + ["-np", str(ndev), args.trellis_run,
                                  "--backend=mpi", prog]
    cmd += [f"--input=arg{i}={os.path.join(d, f'in{i}.npy')}" for i in range(nin)]
    cmd += ["--output-dir", out, "--quiet", "--timeout", str(args.timeout)]
    cmd += args.extra
    t0 = time.time()
    try:
        p = subprocess.run(cmd, capture_output=True, text=True,
                           timeout=args.timeout + 30)
    except subprocess.TimeoutExpired:
        return "timeout", f"no result after {args.timeout + 30} s", time.time() - t0
    dt = time.time() - t0
    text = p.stderr + p.stdout
    if p.returncode < 0 or "Stack dump" in text or "PLEASE submit" in text:
        return "crash", f"exit {p.returncode}: {first_error(text)}", dt
    if p.returncode != 0:
        if "timeout" in text.lower() and "took longer" in text.lower():
            return "timeout", first_error(text), dt
        return "error", first_error(text), dt
    msgs = []
    nout = len(meta["outputs"])
    for i in range(nout):
        m = compare(os.path.join(out, f"out{i}.npy"), os.path.join(d, f"out{i}.npy"),
                    meta.get("tol"))
        if m:
            msgs.append(m)
    extra = os.path.join(out, f"out{nout}.npy")
    if os.path.exists(extra):
        msgs.append(f"more results than JAX's {nout}")
    if msgs:
        return "mismatch", "WRONG ANSWER: " + msgs[0] + (
            f" (+{len(msgs) - 1} more outputs)" if len(msgs) > 1 else ""), dt
    return "pass", "", dt


def self_test(args, names, work):
    """Perturbs one expected float32 output and one int32 output (of programs
    that pass) in a copy of the data and checks that each now fails as a
    mismatch."""
    ok = True
    tmpdata = os.path.join(work, "selftest-data")
    todo = {"float32", "int32"}
    for name in names:
        d = os.path.join(args.data, name)
        with open(os.path.join(d, "meta.json")) as f:
            meta = json.load(f)
        kinds = [o.split("[")[0] for o in meta["outputs"]]
        hit = [(i, k) for i, k in enumerate(kinds) if k in todo]
        if not hit:
            continue
        i, k = hit[0]
        todo.discard(k)
        td = os.path.join(tmpdata, name)
        shutil.rmtree(td, ignore_errors=True)
        shutil.copytree(d, td)
        a = np.load(os.path.join(td, f"out{i}.npy"))
        flat = a.reshape(-1)
        flat[flat.size // 2] += (1 if k == "int32" else
                                 1e-2 * max(1.0, float(np.max(np.abs(a)))))
        np.save(os.path.join(td, f"out{i}.npy"), a)
        sub = argparse.Namespace(**vars(args))
        sub.data = tmpdata
        status, msg, _ = run_one(name, sub, work)
        good = status == "mismatch"
        ok &= good
        print(f"self-test {'ok' if good else 'FAILED'}: {name} out{i} ({k}) "
              f"perturbed -> {status}: {msg}")
        if not todo:
            break
    if todo:
        print(f"self-test FAILED: no passing program with a {sorted(todo)} output")
        ok = False
    return ok


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--trellis-run", default=os.environ.get("TRELLIS_RUN"),
                    help="the trellis-run binary (default: $TRELLIS_RUN, "
                         "build/bin/trellis-run, PATH)")
    ap.add_argument("--data", default=None, help="corpus directory")
    ap.add_argument("--long", action="store_true", help="run test/Jax/data-long")
    ap.add_argument("--xfail", default=None,
                    help="expected failures (default: xfail.txt, with --long "
                         "xfail-long.txt)")
    ap.add_argument("-k", default=None, help="regex: only matching names")
    ap.add_argument("-j", type=int, default=1, help="programs run at once")
    ap.add_argument("--timeout", type=int, default=60,
                    help="seconds per program (trellis-run --timeout)")
    ap.add_argument("--keep", default=None, help="keep outputs in DIR")
    ap.add_argument("--self-test", action="store_true",
                    help="also check that perturbed expected outputs fail")
    ap.add_argument("--mpi", default=None, metavar="MPIRUN",
                    help="run each program under this mpirun command line "
                         "(e.g. 'mpiexec --oversubscribe --bind-to none'), "
                         "-np the module's mhlo.num_partitions, --backend=mpi")
    ap.add_argument("--sample", type=int, default=1, metavar="N",
                    help="run every Nth program (in name order)")
    ap.add_argument("-v", action="store_true", help="print times")
    ap.add_argument("extra", nargs="*", help="more trellis-run options (after --)")
    args = ap.parse_args()
    if not args.trellis_run:
        cand = os.path.join(HERE, "..", "..", "build", "bin", "trellis-run")
        args.trellis_run = cand if os.path.exists(cand) else shutil.which("trellis-run")
    if not args.trellis_run:
        sys.exit("run_corpus: no trellis-run (use --trellis-run)")
    args.data = args.data or os.path.join(HERE, "data-long" if args.long else "data")
    args.xfail = args.xfail or os.path.join(
        HERE, "xfail-long.txt" if args.long else "xfail.txt")
    names = sorted(n for n in os.listdir(args.data)
                   if os.path.exists(os.path.join(args.data, n, "meta.json")))
    if args.k:
        names = [n for n in names if re.search(args.k, n)]
    subset = bool(args.k) or args.sample > 1
    names = names[::max(1, args.sample)]
    xfail = read_xfail(args.xfail)
    unknown = [n for n in xfail if n not in names and not subset]
    work = args.keep or tempfile.mkdtemp(prefix="trellis-jax-")
    os.makedirs(work, exist_ok=True)
    passed = failed = xfailed = 0
    passing = []
    try:
        with concurrent.futures.ThreadPoolExecutor(max(1, args.j)) as ex:
            results = ex.map(lambda n: (n, run_one(n, args, work)), names)
            for name, (status, msg, dt) in results:
                t = f" [{dt:.1f} s]" if args.v else ""
                if name in xfail:
                    kind, reason = xfail[name]
                    if status == "pass":
                        print(f"XPASS {name}: listed in xfail.txt ({kind}: "
                              f"{reason}) but passed{t}")
                        failed += 1
                    elif status == kind and all(
                            k in msg for k in re.findall(r"`([^`]+)`", reason)):
                        print(f"XFAIL {name}: {reason} [{msg}]{t}")
                        xfailed += 1
                    else:
                        print(f"FAIL {name}: expected {kind} ({reason}), got "
                              f"{status}: {msg}{t}")
                        failed += 1
                elif status == "pass":
                    print(f"PASS {name}{t}")
                    passed += 1
                    passing.append(name)
                else:
                    print(f"FAIL {name}: {status}: {msg}{t}")
                    failed += 1
                sys.stdout.flush()
        for n in unknown:
            print(f"FAIL {n}: listed in xfail.txt but not in the corpus")
            failed += 1
        if args.self_test:
            if not self_test(args, passing, work):
                failed += 1
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)
    print(f"{passed} passed, {failed} failed, {xfailed} xfailed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
