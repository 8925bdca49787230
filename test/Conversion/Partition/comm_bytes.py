"""Bytes per device a partitioned program sends, by trellis-comm-report.

Shared by the partitioner's byte tests (reshard_pairs.py,
halo_programs.py): partitions PATH with --trellis-global-to-manual and
returns the report's total.
"""
import os
import subprocess


def reported_bytes(opt, path):
    proc = subprocess.run([opt, path, "--trellis-global-to-manual",
                           "--trellis-comm-report", "-o", os.devnull],
                          capture_output=True, text=True, timeout=300)
    for line in (proc.stdout + proc.stderr).splitlines():
        if "total:" in line:
            return int(line.split(",")[1].split("B per device")[0])
    raise RuntimeError(f"no comm report for {path}:\n{proc.stderr}")
