"""Checks trellis-run's bf16 .npy files with numpy alone (bf16 is the top
half of an f32), then writes a '|V2' file of [1, -1.5, 0.25, -0]."""
import sys

import numpy as np


def header_descr(path):
    with open(path, "rb") as f:
        head = f.read(128).decode("latin1")
    return head.split("'descr': '")[1].split("'")[0]


def bf16_to_f32(raw):
    return (raw.view(np.uint16).astype(np.uint32) << 16).view(np.float32)


arg_path, out_path, void_path = sys.argv[1:4]
arg = bf16_to_f32(np.load(arg_path))
out = bf16_to_f32(np.load(out_path))
ok = np.array_equal(out, 2 * arg)
print(f"arg0 {header_descr(arg_path)}, out0 {header_descr(out_path)}: "
      f"out0 {'==' if ok else '!='} 2 * arg0 exactly")
values = np.array([1.0, -1.5, 0.25, -0.0], dtype=np.float32)
bits = (values.view(np.uint32) >> 16).astype(np.uint16)
np.save(void_path, bits.view("V2"))
