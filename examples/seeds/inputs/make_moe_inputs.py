#!/usr/bin/env python3
"""Writes the inputs of moe_all_to_all.mlir (seed 003's MoE example).

W: float32[4, 16, 8] expert weights, A: float32[32, 16] activations,
B: int32[32] routing in [0, 4). Deterministic (seeded).
Usage: make_moe_inputs.py [OUTPUT_DIR]   (default: this directory)
"""
import os
import sys

import numpy as np

out = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
rng = np.random.default_rng(2023)
np.save(os.path.join(out, "moe_W.npy"), rng.standard_normal((4, 16, 8)).astype(np.float32))
np.save(os.path.join(out, "moe_A.npy"), rng.standard_normal((32, 16)).astype(np.float32))
np.save(os.path.join(out, "moe_B.npy"), rng.integers(0, 4, size=32).astype(np.int32))
