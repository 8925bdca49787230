#!/usr/bin/python3
"""Writes xfail.txt from the output of `run_corpus.py --xfail /dev/null`:
every failing program with its kind and a reason, grouped by cause. A cause
is known by a substring of its error (the backquoted key, which
run_corpus.py then requires); unknown errors keep their own text.

    test/Jax/run_corpus.py --xfail /dev/null -j 2 > run.txt
    test/Jax/make_xfail.py run.txt > test/Jax/xfail.txt
"""
import re, sys
cats = [
 ("unregistered operation 'stablehlo.sort'", "stablehlo.sort not imported (sort, argsort, permutation)"),
 ("interior padding is not supported", "stablehlo.pad with interior padding (associative_scan, grad of strided slices/pooling)"),
 ("custom op 'chlo.square'", "chlo.square not imported (jnp.var, x**2 in some forms)"),
 ("output_operand_alias", "custom_call @lapack_* with output_operand_alias (CPU LAPACK: cholesky, triangular_solve)"),
 ("custom op 'stablehlo.convolution'", "stablehlo.convolution not imported"),
 ("custom op 'stablehlo.fft'", "stablehlo.fft not imported"),
 ("gathers with batching dimensions", "gather with batching dimensions (vmap of indexing)"),
 ("scatters with batching dimensions", "scatter with batching dimensions (vmap of .at[].add)"),
 ("may vary over mesh ax", "variance check refuses a check_vma=False program (all_gather out to a replicated spec)"),
 ("custom op 'chlo.lgamma'", "chlo.lgamma/digamma not imported"),
 ("custom op 'chlo.erfc'", "chlo.erfc not imported"),
 ("custom op 'chlo.erf_inv'", "chlo.erf_inv not imported (jax.random.normal)"),
 ("select_and_scatter", "stablehlo.select_and_scatter (max-pool gradient)"),
 ("need index_vector_dim", "gather/scatter without index_vector_dim (default-valued attribute required)"),
 ("returns tensors in a manual region", "func.call of a private function inside sdy.manual_computation"),
 ("collective_permute' outside a manual computation", "collective inside a private function called from a manual computation (fori_loop body as @closed_call)"),
 ("rng_bit_generator", "stablehlo.rng_bit_generator (jax.random rbg/unsafe_rbg)"),
 ("reduce_precision", "stablehlo.reduce_precision not imported (also from checkpoint policies)"),
 ("dilated reduce_windows", "reduce_window with base/window dilation"),
 ("the reduction must be one stablehlo.add", "partially manual computation: sdy.sharding_constraint inside the all_reduce reducer"),
 ("unsigned arguments are not supported", "unsigned (ui8/ui32) function arguments, also of private functions (threefry keys)"),
 ("unsigned results are not supported", "unsigned function results"),
 ("successor operand type", "INVALID IR: scf.while operand/result variance types differ (while with loop-invariant bound)"),
 ("custom op 'stablehlo.dot' is unknown", "stablehlo.dot not imported (XLA's HLO round trip prints dot for 2-D dot_general)"),
 ("mhlo.topk", "custom op mhlo.topk (XLA's HLO round trip prints lax.top_k so)"),
 ("more than one mesh", "several sdy.mesh in one module"),
 ("op was not bufferized", "op was not bufferized (unsharded entry calling a function with a sharding constraint)"),
]
out = []
for line in open(sys.argv[1]):
    m = re.match(r"FAIL (\S+): (\w+): (.*?)( \[[\d.]+ s\])?$", line.strip())
    if not m: continue
    name, kind, msg = m.group(1), m.group(2), m.group(3)
    if kind == "mismatch":
        print(f"WRONG ANSWER, not listed: {name}: {msg}", file=sys.stderr)
        continue
    reason = next((r for k, r in cats if k in msg), None)
    if reason is None:
        print("UNCATEGORIZED", line, file=sys.stderr); reason = msg
    key = next((k for k, r in cats if k in msg), None)
    if key:
        reason = f"`{key}`: {reason}"
    out.append((reason, name, kind))
out.sort()
cur = None
print("""# Programs of the JAX corpus that Trellis does not run yet (issue 48).
# NAME  KIND  reason. KIND: error (a located error), crash, timeout or
# mismatch (a wrong answer); text in `backquotes` must appear in the error.
# run_corpus.py prints the actual error after each XFAIL; a listed program
# that passes (XPASS) or fails another way fails the suite, so update a line
# when its feature lands. Regenerate the list from a run with --xfail
# /dev/null (make_xfail.py).""")
for reason, name, kind in out:
    if reason != cur:
        print(f"\n# {reason}")
        cur = reason
    print(f"{name:40s} {kind:6s} {reason}")
