#!/usr/bin/env python3
"""Writes ring attention and all-gather attention as Trellis IR.

examples/overlap/ring_attention.mlir and attention_allgather.mlir are this
module's output for n=4 devices, S=64, D=16 (`attention.py --examples`
rewrites them); bench/ring_attention.py uses it at other sizes.

ring(n, S, D): Q, K, V of S x D split by rows over "i" (n devices, B = S/n
rows each); each device keeps its query block and attends to one key/value
block per step with an online softmax (running row max m, row sum l,
unnormalised output o) while the next block travels around the ring by
ppermute; n - 1 steps send, the last does not. allgather(n, S, D): K and V
all-gathered first, the same step once over all S keys.
"""
import os
import re
import sys


def t(*dims):
    return "tensor<" + "x".join(str(d) for d in dims) + "xf32>"


def step(B, C, D, k, v, m, l, o, indent):
    """One online-softmax step of B query rows against C keys; returns the
    text, defining %m_new, %l_new and %o_new."""
    text = f'''// scores[r, c] = (q[r, :] . k[c, :]) / sqrt(D)
%se = tensor.empty() : {t(B, C)}
%s0 = linalg.fill ins(%zero : f32) outs(%se : {t(B, C)}) -> {t(B, C)}
%scores = linalg.generic {{indexing_maps = [affine_map<(r, c, d) -> (r, d)>,
                                          affine_map<(r, c, d) -> (c, d)>,
                                          affine_map<(r, c, d) -> (r, c)>],
                         iterator_types = ["parallel", "parallel", "reduction"]}}
    ins(%qb, {k} : {t(B, D)}, {t(C, D)}) outs(%s0 : {t(B, C)}) {{
^bb0(%x: f32, %y: f32, %acc: f32):
  %p = arith.mulf %x, %y : f32
  %ps = arith.mulf %p, %scale : f32
  %sum = arith.addf %acc, %ps : f32
  linalg.yield %sum : f32
}} -> {t(B, C)}
// m_new[r] = max(m[r], max_c scores[r, c])
%m_new = linalg.generic {{indexing_maps = [affine_map<(r, c) -> (r, c)>,
                                         affine_map<(r, c) -> (r)>],
                        iterator_types = ["parallel", "reduction"]}}
    ins(%scores : {t(B, C)}) outs({m} : {t(B)}) {{
^bb0(%x: f32, %acc: f32):
  %mx = arith.maximumf %acc, %x : f32
  linalg.yield %mx : f32
}} -> {t(B)}
// p[r, c] = exp(scores[r, c] - m_new[r])
%pe = tensor.empty() : {t(B, C)}
%p = linalg.generic {{indexing_maps = [affine_map<(r, c) -> (r, c)>,
                                     affine_map<(r, c) -> (r)>,
                                     affine_map<(r, c) -> (r, c)>],
                    iterator_types = ["parallel", "parallel"]}}
    ins(%scores, %m_new : {t(B, C)}, {t(B)}) outs(%pe : {t(B, C)}) {{
^bb0(%x: f32, %mx: f32, %unused: f32):
  %dx = arith.subf %x, %mx : f32
  %ex = math.exp %dx : f32
  linalg.yield %ex : f32
}} -> {t(B, C)}
// corr[r] = exp(m[r] - m_new[r]); l_new[r] = l[r] * corr[r] + sum_c p[r, c]
%ce = tensor.empty() : {t(B)}
%corr = linalg.generic {{indexing_maps = [affine_map<(r) -> (r)>,
                                        affine_map<(r) -> (r)>,
                                        affine_map<(r) -> (r)>],
                       iterator_types = ["parallel"]}}
    ins({m}, %m_new : {t(B)}, {t(B)}) outs(%ce : {t(B)}) {{
^bb0(%old: f32, %new: f32, %unused: f32):
  %d = arith.subf %old, %new : f32
  %e = math.exp %d : f32
  linalg.yield %e : f32
}} -> {t(B)}
%ls = linalg.generic {{indexing_maps = [affine_map<(r) -> (r)>,
                                      affine_map<(r) -> (r)>,
                                      affine_map<(r) -> (r)>],
                     iterator_types = ["parallel"]}}
    ins({l}, %corr : {t(B)}, {t(B)}) outs(%ce : {t(B)}) {{
^bb0(%a: f32, %b: f32, %unused: f32):
  %prod = arith.mulf %a, %b : f32
  linalg.yield %prod : f32
}} -> {t(B)}
%l_new = linalg.generic {{indexing_maps = [affine_map<(r, c) -> (r, c)>,
                                         affine_map<(r, c) -> (r)>],
                        iterator_types = ["parallel", "reduction"]}}
    ins(%p : {t(B, C)}) outs(%ls : {t(B)}) {{
^bb0(%x: f32, %acc: f32):
  %sum = arith.addf %acc, %x : f32
  linalg.yield %sum : f32
}} -> {t(B)}
// o_new[r, d] = o[r, d] * corr[r] + sum_c p[r, c] v[c, d]
%oe = tensor.empty() : {t(B, D)}
%os = linalg.generic {{indexing_maps = [affine_map<(r, d) -> (r, d)>,
                                      affine_map<(r, d) -> (r)>,
                                      affine_map<(r, d) -> (r, d)>],
                     iterator_types = ["parallel", "parallel"]}}
    ins({o}, %corr : {t(B, D)}, {t(B)}) outs(%oe : {t(B, D)}) {{
^bb0(%a: f32, %b: f32, %unused: f32):
  %prod = arith.mulf %a, %b : f32
  linalg.yield %prod : f32
}} -> {t(B, D)}
%o_new = linalg.matmul ins(%p, {v} : {t(B, C)}, {t(C, D)})
                       outs(%os : {t(B, D)}) -> {t(B, D)}
'''
    return "".join(" " * indent + line + "\n" if line else "\n"
                   for line in text.split("\n")[:-1])


def program(kind, n, S, D):
    B = S // n
    pairs = ", ".join(f"[{i}, {(i + 1) % n}]" for i in range(n))
    name = "ring_attention" if kind == "ring" else "attention_allgather"
    head = f'''trellis.mesh @mesh = <["i"={n}]>

func.func @{name}(%query: {t(S, D)}, %key: {t(S, D)}, %value: {t(S, D)}) -> {t(S, D)} {{
  %r = spmd.shard_map @mesh in_specs = [[{{"i"}}, {{}}], [{{"i"}}, {{}}], [{{"i"}}, {{}}]]
                            out_specs = [[{{"i"}}, {{}}]]
      (%query, %key, %value) : ({t(S, D)}, {t(S, D)}, {t(S, D)}) -> {t(S, D)} {{
  ^bb0(%qb: {t(B, D)}, %kb: {t(B, D)}, %vb: {t(B, D)}):
    %zero = arith.constant 0.0 : f32
    // Below every score: exp(lowest - m) is 0 (a finite stand-in for -inf).
    %lowest = arith.constant -1.0e30 : f32
    %scale = arith.constant {1 / D ** 0.5} : f32
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %me = tensor.empty() : {t(B)}
    %m0 = linalg.fill ins(%lowest : f32) outs(%me : {t(B)}) -> {t(B)}
    %l0 = linalg.fill ins(%zero : f32) outs(%me : {t(B)}) -> {t(B)}
    %o0e = tensor.empty() : {t(B, D)}
    %o0 = linalg.fill ins(%zero : f32) outs(%o0e : {t(B, D)}) -> {t(B, D)}
'''
    if kind == "ring":
        body = f'''    %steps = spmd.axis_size over ["i"] : index
    // steps - 1 steps with a ppermute, then the last one without.
    %last = arith.subi %steps, %c1 : index
    %loop:5 = scf.for %s = %c0 to %last step %c1
        iter_args(%m = %m0, %l = %l0, %o = %o0, %k = %kb, %v = %vb)
        -> ({t(B)}, {t(B)}, {t(B, D)}, {t(B, D)}, {t(B, D)}) {{
      // The next step's blocks come from the device before this one.
      %k_next = spmd.ppermute %k over ["i"] pairs [{pairs}] : {t(B, D)}
      %v_next = spmd.ppermute %v over ["i"] pairs [{pairs}] : {t(B, D)}
{step(B, B, D, "%k", "%v", "%m", "%l", "%o", 6)}      scf.yield %m_new, %l_new, %o_new, %k_next, %v_next
          : {t(B)}, {t(B)}, {t(B, D)}, {t(B, D)}, {t(B, D)}
    }}
    // The last step, on the block that arrived last.
{step(B, B, D, "%loop#3", "%loop#4", "%loop#0", "%loop#1", "%loop#2", 4)}'''
    else:
        body = f'''    %k = spmd.all_gather %kb over ["i"] dim 0 tiled : {t(B, D)} -> {t(S, D)}
    %v = spmd.all_gather %vb over ["i"] dim 0 tiled : {t(B, D)} -> {t(S, D)}
{step(B, S, D, "%k", "%v", "%m0", "%l0", "%o0", 4)}'''
    tail = f'''    // out[r, d] = o[r, d] / l[r]
    %fe = tensor.empty() : {t(B, D)}
    %out = linalg.generic {{indexing_maps = [affine_map<(r, d) -> (r, d)>,
                                           affine_map<(r, d) -> (r)>,
                                           affine_map<(r, d) -> (r, d)>],
                          iterator_types = ["parallel", "parallel"]}}
        ins(%o_new, %l_new : {t(B, D)}, {t(B)}) outs(%fe : {t(B, D)}) {{
    ^bb0(%a: f32, %b: f32, %unused: f32):
      %q = arith.divf %a, %b : f32
      linalg.yield %q : f32
    }} -> {t(B, D)}
    spmd.yield %out : {t(B, D)}
  }}
  return %r : {t(S, D)}
}}
'''
    return head + body + tail


HEADERS = {
    "ring": '''// Ring attention (seed 003's reason for shard_map; issue 28): the sequence
// of Q, K and V is split over "i" ({n} devices, {B} rows each). Every device
// keeps its query block and attends to one key/value block per step, the
// blocks travelling around the ring by ppermute while the current one is
// used (spmd-async-collectives starts each ppermute before the step's
// compute and waits after it), with the online softmax (running row
// maximum m, row sum l and unnormalised output o). After {n} steps each
// device has seen every block: out = softmax(Q K^T / sqrt({D})) V, its rows.
// The last step sends nothing (n - 1 transfers, as an all-gather's).
// attention_allgather.mlir is the same attention with K and V gathered
// first; test/Examples/overlap/ring_attention.test checks both against
// numpy. Written by bench/overlap/attention.py --examples.

''',
    "allgather": '''// The attention of ring_attention.mlir written the simple way: K and V
// are all-gathered over "i" first, then each device computes softmax(q K^T
// / sqrt({D})) V for its {B} query rows with the same online-softmax step,
// once, over all {S} keys. Nothing overlaps the gathers. Written by
// bench/overlap/attention.py --examples.

''',
}


def write(kind, n, S, D, path, header=False):
    text = program(kind, n, S, D)
    if header:
        text = HEADERS[kind].format(n=n, B=S // n, S=S, D=D) + text
    with open(path, "w") as f:
        f.write(text)


if __name__ == "__main__":
    if sys.argv[1:] != ["--examples"]:
        sys.exit("usage: attention.py --examples")
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    out = os.path.join(root, "examples", "overlap")
    write("ring", 4, 64, 16, os.path.join(out, "ring_attention.mlir"), True)
    write("allgather", 4, 64, 16, os.path.join(out, "attention_allgather.mlir"), True)
