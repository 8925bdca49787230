#!/usr/bin/env python3
"""Partitioned vs unpartitioned gradients of the partitioner's corpus.

Usage: corpus_grad.py TRELLIS_OPT TRELLIS_RUN WORKDIR PROGRAM.mlir...

Each PROGRAM is a test/Conversion/Partition/corpus template; on each of the
corpus's seven meshes it is instantiated (run_corpus.py's rules), wrapped in
a loss, sum(r * r) of its first floating-point result r, and
differentiated with respect to every floating-point argument
(--inline --trellis-grad); the gradient then runs partitioned and is
compared with the unpartitioned program on one device (trellis-run
--reference). Programs without a floating-point result or argument are
reported as skipped. Prints one line per program; exits 1 on a failure.
"""
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "Conversion", "Partition"))
import run_corpus  # noqa: E402

FLOAT = re.compile(r"tensor<([0-9x]*)(f16|bf16|f32|f64)(,.*)?>")


def split_top(text):
    """Splits `text` at commas outside brackets."""
    parts, depth, cur = [], 0, ""
    for ch in text:
        if ch in "<({[":
            depth += 1
        elif ch in ">)}]":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        parts.append(cur.strip())
    return parts


def wrap(printed):
    """Adds @grad_loss around @main of a printed module, or None."""
    m = re.search(r"func\.func @main\((.*)\) -> (.*) \{\n", printed)
    if not m:
        return None
    args = split_top(m.group(1))
    results = m.group(2)
    if results.startswith("("):
        results = results[1:-1]
    result_types = [re.sub(r"\s*\{.*\}$", "", r) for r in split_top(results)]
    arg_types = [re.sub(r"\s*\{.*\}$", "", a.split(": ", 1)[1]) for a in args]
    floats = [i for i, t in enumerate(arg_types) if FLOAT.fullmatch(t)]
    out = next((j for j, t in enumerate(result_types) if FLOAT.fullmatch(t)),
               None)
    if not floats or out is None:
        return None
    rt = result_types[out]
    dims, element, enc = FLOAT.fullmatch(rt).groups()
    rank = len([d for d in dims.split("x") if d])
    names = ", ".join(a.split(":")[0] for a in args)
    results_sig = ", ".join(result_types)
    call_results = f"%r:{len(result_types)}" if len(result_types) > 1 else "%r"
    r = f"%r#{out}" if len(result_types) > 1 else "%r"
    plain = f"tensor<{dims}{element}>"
    scalar = f"tensor<{element}>"
    lines = [
        f"  func.func @grad_loss({', '.join(args)}) -> {scalar} "
        f"attributes {{trellis.grad = [{', '.join(map(str, floats))}]}} {{",
        f"    {call_results} = func.call @main({names}) : "
        f"({', '.join(arg_types)}) -> ({results_sig})",
    ]
    value = r
    if enc:
        lines.append(f"    %plain = trellis.reshard {r} : {rt} -> {plain}")
        value = "%plain"
    lines += [
        f"    %sq = arith.mulf {value}, {value} : {plain}",
        # A constant (not a fresh tensor) as the init: the loss is
        # replicated even where the squares are sharded over explicit axes
        # (JAX's out_sharding=P() on the sum).
        f"    %z = arith.constant dense<0.0> : {scalar}",
        f"    %l = linalg.reduce ins(%sq : {plain}) outs(%z : {scalar}) "
        f"dimensions = [{', '.join(map(str, range(rank)))}]",
        f"      (%a: {element}, %acc: {element}) {{",
        f"        %s = arith.addf %a, %acc : {element}",
        f"        linalg.yield %s : {element}",
        "      }",
        f"    return %l : {scalar}",
        "  }",
    ]
    end = printed.rstrip().rfind("}")
    return printed[:end] + "\n".join(lines) + "\n}\n"


def main():
    opt, run, work = sys.argv[1:4]
    programs = sys.argv[4:]
    failed = False
    for path in programs:
        name = os.path.splitext(os.path.basename(path))[0]
        text = open(path).read()
        status = []
        for mesh in run_corpus.DEFAULT_MESHES:
            sizes = [int(s) for s in mesh.split("x")]
            d = os.path.join(work, name, mesh)
            os.makedirs(d, exist_ok=True)
            src = os.path.join(d, "program.mlir")
            open(src, "w").write(run_corpus.instantiate(text, sizes))
            printed = subprocess.run([opt, src], capture_output=True,
                                     text=True)
            wrapped = wrap(printed.stdout) if printed.returncode == 0 else None
            if wrapped is None:
                status.append(f"{mesh}: skipped")
                continue
            loss = os.path.join(d, "loss.mlir")
            open(loss, "w").write(wrapped)
            grad = os.path.join(d, "grad.mlir")
            r = subprocess.run([opt, loss, "--inline", "--trellis-grad", "-o",
                                grad], capture_output=True, text=True)
            if r.returncode:
                status.append(f"{mesh}: grad FAILED")
                sys.stdout.write(r.stderr)
                failed = True
                continue
            r = subprocess.run([run, grad, "--entry", "grad_loss_grad",
                                "--random", "1", "--reference", "--quiet"],
                               capture_output=True, text=True)
            if r.returncode:
                status.append(f"{mesh}: run FAILED")
                sys.stdout.write(r.stdout[-2000:] + r.stderr[-2000:])
                failed = True
                continue
            status.append(f"{mesh}: ok")
        print(f"{name}: " + ", ".join(status))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
