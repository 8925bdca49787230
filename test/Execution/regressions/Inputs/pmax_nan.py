"""Inputs for pmax-nan.mlir: one element per device of a 4-device mesh."""
import sys

import numpy as np

out = sys.argv[1]
nan = np.nan
np.save(f"{out}/nan_last.npy", np.array([0, 1, 2, nan], np.float32))
np.save(f"{out}/nan_first.npy", np.array([nan, 1, 2, 3], np.float32))
np.save(f"{out}/nan_middle.npy", np.array([5, nan, -2, 3], np.float32))
np.save(f"{out}/zeros.npy", np.array([-0.0, 0.0, -0.0, -0.0], np.float32))
np.save(f"{out}/inf.npy", np.array([1, -np.inf, np.inf, 0], np.float32))
np.save(f"{out}/nan_last64.npy", np.array([0, 1, 2, nan], np.float64))
row = np.arange(16, dtype=np.float32).reshape(2, 8) % 4
row[1, 6] = nan
np.save(f"{out}/nan_row.npy", row)
