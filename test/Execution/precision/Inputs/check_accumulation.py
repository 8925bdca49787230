"""Checks a bf16 matmul or an f16 sum run by trellis-run against numpy.

  check_accumulation.py matmul|sum one|split DIR

one:   the result is the exact sum rounded once to the 16-bit type, within
       one ulp (accumulating in f32 adds a little; accumulating in the
       16-bit type misses by many ulps).
split: the contraction dimension is split in two halves: each partial sum
       is rounded, then the two are added in f32 and rounded again (the
       partitioned program's local op and psum), within one ulp."""
import sys

import numpy as np


def load_bf16(path):
    raw = np.load(path).view(np.uint16).astype(np.uint32)
    return (raw << 16).view(np.float32).astype(np.float64)


def round_bf16(x):
    bits = np.asarray(x, dtype=np.float32).view(np.uint32).astype(np.uint64)
    bits = (bits + 0x7FFF + ((bits >> 16) & 1)) >> 16 << 16
    return bits.astype(np.uint32).view(np.float32).astype(np.float64)


def round_f16(x):
    return np.asarray(x, dtype=np.float32).astype(np.float16).astype(np.float64)


def ulp(x, bits):
    e = np.floor(np.log2(np.maximum(np.abs(x), 2.0 ** -24)))
    return 2.0 ** (e - (bits - 1))


kind, mode, d = sys.argv[1:4]
if kind == "matmul":
    a, b = load_bf16(f"{d}/arg0.npy"), load_bf16(f"{d}/arg1.npy")
    out, rnd, bits = load_bf16(f"{d}/out0.npy"), round_bf16, 8
    half = a.shape[1] // 2
    exact = a @ b
    partials = [a[:, :half] @ b[:half], a[:, half:] @ b[half:]]
else:
    x = np.load(f"{d}/arg0.npy").astype(np.float64)
    out, rnd, bits = np.load(f"{d}/out0.npy").astype(np.float64), round_f16, 11
    half = x.shape[1] // 2
    exact = x.sum(axis=1)
    partials = [x[:, :half].sum(axis=1), x[:, half:].sum(axis=1)]
if mode == "one":
    model, what = rnd(exact), "the exact sum rounded once"
else:
    model = rnd(rnd(partials[0]) + rnd(partials[1]))
    what = "partial sums rounded, then their f32 sum rounded"
err = np.abs(out - model)
ok = bool(np.all(err <= ulp(model, bits)))
print(f"{kind} {mode}: {what}: {'OK' if ok else 'FAIL'} (max error "
      f"{err.max():.4g}, {np.max(err / ulp(model, bits)):.3g} ulp; "
      f"vs the exact sum {np.max(np.abs(out - exact) / ulp(exact, bits)):.3g} ulp)")
