#!/usr/bin/env python3
"""Checks that a training run's loss per step (a .npy vector) is finite and
falls: the last loss at least FACTOR times below the first, and no step
more than 1% above the previous one.

Usage: check_loss.py LOSSES.npy FACTOR
"""
import sys

import numpy as np


def main():
    losses = np.load(sys.argv[1]).astype(np.float64)
    factor = float(sys.argv[2])
    if not np.all(np.isfinite(losses)):
        print(f"FAIL: non-finite loss at step {int(np.argmin(np.isfinite(losses)))}")
        return 1
    if losses[-1] * factor > losses[0]:
        print(f"FAIL: loss went from {losses[0]:.4g} to {losses[-1]:.4g}, "
              f"not {factor}x lower")
        return 1
    rises = np.nonzero(losses[1:] > losses[:-1] * 1.01)[0]
    if len(rises):
        print(f"FAIL: loss rises at step {int(rises[0]) + 1}")
        return 1
    print(f"OK loss falls from {losses[0]:.4g} to {losses[-1]:.4g} "
          f"in {len(losses)} steps")
    return 0


if __name__ == "__main__":
    sys.exit(main())
