#!/usr/bin/env python3
"""Checks that two functions of a printed module are the same program.

Usage: trellis-opt ... | compare_funcs.py F G

Both functions are taken from the module trellis-opt prints (generic SSA
names, one function per `func.func` line up to its closing brace). They
must have the same signature (argument and result types; argument and
function attributes aside) and, op by op, the same body: the printer numbers
values per function, so equal programs print equally.
"""
import re
import sys


def functions(text):
    found = {}
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        m = re.match(r"(\s*)func\.func (?:private )?@([\w$.]+)\((.*)", lines[i])
        if not m:
            i += 1
            continue
        indent, name, rest = m.groups()
        body = []
        i += 1
        while i < len(lines) and lines[i] != indent + "}":
            body.append(lines[i])
            i += 1
        found[name] = (rest, body)
        i += 1
    return found


def signature(rest):
    """Argument and result types, without attribute dictionaries."""
    rest = re.sub(r"\s*attributes \{.*\}\s*\{$", "", rest)
    rest = re.sub(r"\s*\{$", "", rest)
    depth, out, i = 0, "", 0
    # Drop `{...}` argument attribute dictionaries (not types' braces, which
    # only appear inside `<...>`).
    angle = 0
    while i < len(rest):
        c = rest[i]
        if c == "<":
            angle += 1
        elif c == ">" and angle:
            angle -= 1
        if c == "{" and angle == 0:
            depth += 1
        if depth == 0:
            out += c
        if c == "}" and angle == 0:
            depth -= 1
        i += 1
    return re.sub(r"\s+", " ", out).strip()


def main():
    f, g = sys.argv[1:3]
    funcs = functions(sys.stdin.read())
    for name in (f, g):
        if name not in funcs:
            print(f"FAIL: no function @{name}")
            return 1
    (fs, fb), (gs, gb) = funcs[f], funcs[g]
    if signature(fs) != signature(gs):
        print(f"FAIL: signatures differ:\n  @{f}: {signature(fs)}\n  @{g}: {signature(gs)}")
        return 1
    if fb != gb:
        print(f"FAIL: bodies of @{f} and @{g} differ")
        for a, b in zip(fb + [""] * len(gb), gb + [""] * len(fb)):
            if a != b:
                print(f"  @{f}: {a.strip()}\n  @{g}: {b.strip()}")
                break
        return 1
    print(f"OK @{f} and @{g} are the same program ({len(fb)} lines)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
