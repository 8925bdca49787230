"""Writes malformed .npy files for bad-npy.mlir into the directory argv[1].

Each header is written by hand (version 1.0: magic, two length bytes, a
Python-literal dict padded with spaces to a multiple of 64 bytes)."""
import struct
import sys

import numpy as np

out = sys.argv[1]


def write(name, header, data=b""):
    text = header.encode("latin1")
    pad = 64 - (10 + len(text) + 1) % 64
    text += b" " * pad + b"\n"
    with open(f"{out}/{name}.npy", "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(text)) + text + data)


four = np.arange(4, dtype=np.float32).tobytes()
write("huge", "{'descr': '<f4', 'fortran_order': False, 'shape': (1099511627776,), }", four)
write("billion", "{'descr': '<f4', 'fortran_order': False, 'shape': (1000000000,), }", four)
write("overflow", "{'descr': '<f4', 'fortran_order': False, 'shape': (4294967296, 4294967296), }", four)
write("letters", "{'descr': '<f4', 'fortran_order': False, 'shape': (4, abc, 8), }", four)
write("maybe", "{'descr': '<f4', 'fortran_order': Maybe, 'shape': (4,), }", four)
write("trailing", "{'descr': '<f4', 'fortran_order': False, 'shape': (4,), }", four + b"\0\0\0\0")
write("good", "{'descr': '<f4', 'fortran_order': False, 'shape': (4,), }", four)
# A version-1 header whose length field claims more bytes than the file has.
with open(f"{out}/cut.npy", "wb") as f:
    f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", 4000) + b"{'descr'")
