#!/usr/bin/env python3
"""Writes seed 003's Mixture-of-Experts block as Trellis IR, with its
all_to_alls whole or split into ppermute steps pipelined with the experts.

examples/overlap/moe_alltoall.mlir and moe_pipelined.mlir are this module's
output for n=4 devices, T=8 tokens per device, D=16, F=8 (`moe.py
--examples` rewrites them; `moe.py KIND N T D F OUT` writes one at other
sizes); bench/moe_overlap.py uses it to measure.

Both take W: float32[n@X, D, F] (one expert per device), A: float32[nT@X, D]
and B: int32[nT@X] (each token's expert, taken modulo n), and compute
Out[t] = A[t] @ W[B[t]] with capacity-based dispatch (capacity C = T, so no
token is dropped), as examples/seeds/moe_all_to_all.mlir does:

  mask[t, e*C + c] = (B[t] mod n == e and pos[t] == c), pos[t] the number of
                     earlier local tokens with the same expert
  dispatch = mask^T @ A                 [n*C, D]: row block e for expert e
  alltoall:  received = all_to_all(dispatch); y = received @ W_local;
             combined = all_to_all(y)
  pipelined: step s = 0..n-1 sends row block (me + s) mod n to device
             me + s (one ppermute with shift s; step 0 is local), applies
             the expert to the block received from me - s, and sends the
             result back by the ppermute with shift -s, into row block
             (me + s) mod n of combined. Every send is written before the
             first expert (spmd-async-collectives keeps starts in program
             order), so it starts them all at once and waits for each just
             before its expert; each return starts right after its expert.
  Out = mask @ combined                 [T, F]
"""
import os
import sys


def t(*dims, elem="f32"):
    return "tensor<" + "x".join(str(d) for d in dims) + "x" + elem + ">"


def pairs(n, shift):
    return "[" + ", ".join(f"[{i}, {(i + shift) % n}]" for i in range(n)) + "]"


def head(n, T, D, F):
    C = T
    EC = n * C
    return f'''trellis.mesh @mesh = <["X"={n}]>

func.func @moe(%W: {t(n, D, F)} {{trellis.name = "W"}},
               %A: {t(n * T, D)} {{trellis.name = "A"}},
               %B: {t(n * T, elem="i32")} {{trellis.name = "B"}}) -> {t(n * T, F)} {{
  %out = spmd.shard_map @mesh in_specs = [[{{"X"}}], [{{"X"}}], [{{"X"}}]] out_specs = [[{{"X"}}]]
      (%W, %A, %B) : ({t(n, D, F)}, {t(n * T, D)}, {t(n * T, elem="i32")}) -> {t(n * T, F)} {{
  ^bb0(%w3: {t(1, D, F)}, %a: {t(T, D)}, %braw: {t(T, elem="i32")}):
    %zero = arith.constant 0.0 : f32
    %zero_i = arith.constant 0 : i32
    %experts = arith.constant {n} : i32
    %w = tensor.collapse_shape %w3 [[0, 1], [2]] : {t(1, D, F)} into {t(D, F)}

    // b[t] = B[t] mod n
    %be = tensor.empty() : {t(T, elem="i32")}
    %b = linalg.generic {{indexing_maps = [affine_map<(t) -> (t)>, affine_map<(t) -> (t)>],
                         iterator_types = ["parallel"]}}
        ins(%braw : {t(T, elem="i32")}) outs(%be : {t(T, elem="i32")}) {{
    ^bb0(%x: i32, %unused: i32):
      %r = arith.remui %x, %experts : i32
      linalg.yield %r : i32
    }} -> {t(T, elem="i32")}

    // pos[t] = #{{t' < t : b[t'] == b[t]}}
    %p0 = linalg.fill ins(%zero_i : i32) outs(%be : {t(T, elem="i32")}) -> {t(T, elem="i32")}
    %pos = linalg.generic {{indexing_maps = [affine_map<(t, u) -> (t)>,
                                            affine_map<(t, u) -> (u)>,
                                            affine_map<(t, u) -> (t)>],
                           iterator_types = ["parallel", "reduction"]}}
        ins(%b, %b : {t(T, elem="i32")}, {t(T, elem="i32")}) outs(%p0 : {t(T, elem="i32")}) {{
    ^bb0(%bt: i32, %bu: i32, %acc: i32):
      %ti = linalg.index 0 : index
      %ui = linalg.index 1 : index
      %earlier = arith.cmpi ult, %ui, %ti : index
      %same = arith.cmpi eq, %bt, %bu : i32
      %both = arith.andi %earlier, %same : i1
      %inc = arith.extui %both : i1 to i32
      %sum = arith.addi %acc, %inc : i32
      linalg.yield %sum : i32
    }} -> {t(T, elem="i32")}

    // mask[t, e * C + c] = (b[t] == e && pos[t] == c)
    %me = tensor.empty() : {t(T, EC)}
    %mask = linalg.generic {{indexing_maps = [affine_map<(t, j) -> (t)>,
                                             affine_map<(t, j) -> (t)>,
                                             affine_map<(t, j) -> (t, j)>],
                            iterator_types = ["parallel", "parallel"]}}
        ins(%b, %pos : {t(T, elem="i32")}, {t(T, elem="i32")}) outs(%me : {t(T, EC)}) {{
    ^bb0(%bt: i32, %pt: i32, %unused: f32):
      %ji = linalg.index 1 : index
      %j = arith.index_cast %ji : index to i32
      %cap = arith.constant {C} : i32
      %slot = arith.muli %bt, %cap : i32
      %at = arith.addi %slot, %pt : i32
      %hit = arith.cmpi eq, %j, %at : i32
      %v = arith.uitofp %hit : i1 to f32
      linalg.yield %v : f32
    }} -> {t(T, EC)}

    // dispatch = mask^T @ a: row block e holds the tokens for expert e.
    %de = tensor.empty() : {t(EC, D)}
    %d0 = linalg.fill ins(%zero : f32) outs(%de : {t(EC, D)}) -> {t(EC, D)}
    %dispatch = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (k, m)>,
                                               affine_map<(m, n, k) -> (k, n)>,
                                               affine_map<(m, n, k) -> (m, n)>]
        ins(%mask, %a : {t(T, EC)}, {t(T, D)}) outs(%d0 : {t(EC, D)}) -> {t(EC, D)}
'''


def tail(n, T, D, F):
    C = T
    EC = n * C
    return f'''
    // out = mask @ combined
    %oe = tensor.empty() : {t(T, F)}
    %o0 = linalg.fill ins(%zero : f32) outs(%oe : {t(T, F)}) -> {t(T, F)}
    %o = linalg.matmul ins(%mask, %combined : {t(T, EC)}, {t(EC, F)}) outs(%o0 : {t(T, F)}) -> {t(T, F)}
    spmd.yield %o : {t(T, F)}
  }}
  return %out : {t(n * T, F)}
}}
'''


def alltoall(n, T, D, F):
    C = T
    EC = n * C
    return head(n, T, D, F) + f'''
    // Every expert's tokens to its device, the expert, and back.
    %d3 = tensor.expand_shape %dispatch [[0, 1], [2]] output_shape [{n}, {C}, {D}] : {t(EC, D)} into {t(n, C, D)}
    %r3 = spmd.all_to_all %d3 over ["X"] split 0 concat 0 : {t(n, C, D)} -> {t(n, C, D)}
    %received = tensor.collapse_shape %r3 [[0, 1], [2]] : {t(n, C, D)} into {t(EC, D)}
    %ye = tensor.empty() : {t(EC, F)}
    %y0 = linalg.fill ins(%zero : f32) outs(%ye : {t(EC, F)}) -> {t(EC, F)}
    %y = linalg.matmul ins(%received, %w : {t(EC, D)}, {t(D, F)}) outs(%y0 : {t(EC, F)}) -> {t(EC, F)}
    %y3 = tensor.expand_shape %y [[0, 1], [2]] output_shape [{n}, {C}, {F}] : {t(EC, F)} into {t(n, C, F)}
    %c3 = spmd.all_to_all %y3 over ["X"] split 0 concat 0 : {t(n, C, F)} -> {t(n, C, F)}
    %combined = tensor.collapse_shape %c3 [[0, 1], [2]] : {t(n, C, F)} into {t(EC, F)}
''' + tail(n, T, D, F)


def pipelined(n, T, D, F):
    C = T
    EC = n * C
    body = f'''
    // Step s: row block (me + s) mod n goes to device me + s, the block
    // from me - s meets this device's expert, its result goes back.
    %me_i = spmd.axis_index over ["X"] : index
    %cn = arith.constant {n} : index
    %cC = arith.constant {C} : index
    %ce = tensor.empty() : {t(EC, F)}
    %comb0 = linalg.fill ins(%zero : f32) outs(%ce : {t(EC, F)}) -> {t(EC, F)}
    %ye = tensor.empty() : {t(C, F)}
'''
    # Every send first (they need only the dispatch), so that their starts
    # come before the experts: spmd-async-collectives keeps starts in order.
    for s in range(n):
        body += f'''    %k{s} = arith.constant {s} : index
    %dst{s} = arith.addi %me_i, %k{s} : index
    %blk{s} = arith.remui %dst{s}, %cn : index
    %row{s} = arith.muli %blk{s}, %cC : index
    %send{s} = tensor.extract_slice %dispatch[%row{s}, 0] [{C}, {D}] [1, 1] : {t(EC, D)} to {t(C, D)}
'''
        if s:
            body += (f'    %got{s} = spmd.ppermute %send{s} over ["X"] pairs '
                     f'{pairs(n, s)} : {t(C, D)}\n')
    for s in range(n):
        prev = f"%comb{s}"
        got = f"%got{s}" if s else "%send0"
        body += f'''    %y0_{s} = linalg.fill ins(%zero : f32) outs(%ye : {t(C, F)}) -> {t(C, F)}
    %y{s} = linalg.matmul ins({got}, %w : {t(C, D)}, {t(D, F)}) outs(%y0_{s} : {t(C, F)}) -> {t(C, F)}
'''
        back = f"%y{s}"
        if s:
            body += (f'    %back{s} = spmd.ppermute %y{s} over ["X"] pairs '
                     f'{pairs(n, -s)} : {t(C, F)}\n')
            back = f"%back{s}"
        into = "%combined" if s == n - 1 else f"%comb{s + 1}"
        body += (f"    {into} = tensor.insert_slice {back} into {prev}"
                 f"[%row{s}, 0] [{C}, {F}] [1, 1] : {t(C, F)} into {t(EC, F)}\n")
    return head(n, T, D, F) + body + tail(n, T, D, F)


HEADER = {
    "alltoall": "// Seed 003's MoE block (bench/overlap/moe.py, n={n}, T={T}, D={D}, F={F}):\n"
                "// both all_to_alls whole. Generated; see moe.py's docstring.\n",
    "pipelined": "// Seed 003's MoE block (bench/overlap/moe.py, n={n}, T={T}, D={D}, F={F}):\n"
                 "// each all_to_all split into n - 1 ppermutes pipelined with the expert\n"
                 "// (run with --passes=spmd-async-collectives to overlap them).\n"
                 "// Generated; see moe.py's docstring.\n",
}


def write(kind, n, T, D, F, path):
    text = (alltoall if kind == "alltoall" else pipelined)(n, T, D, F)
    with open(path, "w") as f:
        f.write(HEADER[kind].format(n=n, T=T, D=D, F=F) + "\n" + text)


def main():
    args = sys.argv[1:]
    if len(args) == 6 and args[0] in ("alltoall", "pipelined"):
        n, T, D, F = (int(a) for a in args[1:5])
        return write(args[0], n, T, D, F, args[5])
    if args != ["--examples"]:
        sys.exit("usage: moe.py --examples | moe.py alltoall|pipelined "
                 "N T D F OUT.mlir")
    root = os.path.dirname(os.path.dirname(os.path.dirname(
        os.path.abspath(__file__))))
    for kind in ("alltoall", "pipelined"):
        write(kind, 4, 8, 16, 8,
              os.path.join(root, "examples", "overlap", f"moe_{kind}.mlir"))


if __name__ == "__main__":
    main()
