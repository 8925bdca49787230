#!/usr/bin/env python3
"""Concatenations along a split dimension on a (2,4) mesh, executed.

Usage: concat_programs.py TRELLIS_RUN TRELLIS_OPT WORKDIR

Each program concatenates two or three i32 tensors of 8 columns along
their rows (row counts 4, 8 and 12 in several orders), each operand
sharded its own way (rows over "a", "b", both, or columns over "a", or
whole; 4 or 12 rows over both split unevenly), into a result whose rows are wanted split ("a", "b", ("a", "b"),
("b", "a"), or rows over "a" and columns over "b"). Each runs on 8
devices with random inputs and is compared exactly with numpy's
concatenate and with --reference.

Bytes: trellis-comm-report's bytes per device against a lower bound
computed here from the blocks: the most bytes any device needs for its
result block that its own operand blocks do not hold (an operand split
unevenly reaches every device whole: the function boundary passes it so). Never below it;
the last line counts the programs at it and sums both (gathering every
operand, what the partitioner did before, is far above it).
"""
import os
import sys

import numpy as np

from partition_runs import device_block, reported_bytes, write_and_run

SIZES = {"a": 2, "b": 4}
COLS = 8
ELEMENT_BYTES = 4
OPERAND_SHARDINGS = [[[], []], [["a"], []], [["b"], []], [["a", "b"], []],
                     [[], ["a"]]]
RESULT_SHARDINGS = [[["a"], []], [["b"], []], [["a", "b"], []],
                    [["b", "a"], []], [["a"], ["b"]]]
ROW_SPLITS = [(8, 8), (4, 12), (12, 4), (4, 4, 8), (8, 4, 12)]


def text(s):
    return "[" + ", ".join("{" + ", ".join(f'"{a}"' for a in d) + "}"
                           for d in s) + "]"


def ttype(rows):
    return f"tensor<{rows}x{COLS}xi32>"


def uneven(s, shape):
    for d, axes in enumerate(s):
        count = 1
        for axis in axes:
            count *= SIZES[axis]
        if shape[d] % count:
            return True
    return False


def lower_bound(rows, operand_shardings, result_sharding):
    total = sum(rows)
    worst = 0
    for a in range(SIZES["a"]):
        for b in range(SIZES["b"]):
            coord = {"a": a, "b": b}
            need = device_block(result_sharding, (total, COLS), coord, SIZES)
            held = np.zeros((total, COLS), dtype=bool)
            offset = 0
            for r, s in zip(rows, operand_shardings):
                # An argument split unevenly reaches every device whole.
                if uneven(s, (r, COLS)):
                    s = [[], []]
                (r0, r1), (c0, c1) = device_block(s, (r, COLS), coord, SIZES)
                held[offset + r0:offset + r1, c0:c1] = True
                offset += r
            (n0, n1), (m0, m1) = need
            lacking = (~held[n0:n1, m0:m1]).sum()
            worst = max(worst, int(lacking) * ELEMENT_BYTES)
    return worst


def cases():
    index = 0
    for rows in ROW_SPLITS:
        for result in RESULT_SHARDINGS:
            # Five operand sharding combinations per shape and result, each
            # sharding once in each slot, the slots shifted against each
            # other.
            n = len(OPERAND_SHARDINGS)
            for k in range(n):
                index += 1
                yield index, rows, [OPERAND_SHARDINGS[(k + 2 * i) % n]
                                    for i in range(len(rows))], result


def main():
    run, opt, work = sys.argv[1], sys.argv[2], sys.argv[3]
    os.makedirs(work, exist_ok=True)
    failed = False
    count = at_bound = moved_total = bound_total = 0
    for index, rows, operand_shardings, result in cases():
        total = sum(rows)
        if total % 8:
            continue
        args = ", ".join(
            f"%x{i}: {ttype(r)} {{trellis.sharding = #trellis.sharding<@mesh, "
            f"{text(s)}>}}" for i, (r, s) in enumerate(zip(rows, operand_shardings)))
        operands = ", ".join(f"%x{i}" for i in range(len(rows)))
        types = ", ".join(ttype(r) for r in rows)
        module = f"""trellis.mesh @mesh = <["a"=2, "b"=4]>
func.func @main({args})
    -> ({ttype(total)} {{trellis.sharding = #trellis.sharding<@mesh, {text(result)}>}}) {{
  %c = tensor.concat dim(0) {operands} : ({types}) -> {ttype(total)}
  return %c : {ttype(total)}
}}
"""
        name = (f"{' ++ '.join(f'{r}{text(s)}' for r, s in zip(rows, operand_shardings))}"
                f" -> {text(result)}")
        path, ins, got = write_and_run(run, work, f"c{index}", index, module,
                                       name)
        if ins is None:
            failed = True
            continue
        ok = np.array_equal(got, np.concatenate(ins, axis=0))
        moved = reported_bytes(opt, path)
        bound = lower_bound(rows, operand_shardings, result)
        ok &= moved >= bound
        count += 1
        at_bound += moved == bound
        moved_total += moved
        bound_total += bound
        print(f"{name}: {'ok' if ok else 'FAIL'} {moved} B (bound {bound} B)")
        failed |= not ok
    print(f"concatenations at the lower bound: {at_bound} of {count}; "
          f"{moved_total} B moved, bound {bound_total} B")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
