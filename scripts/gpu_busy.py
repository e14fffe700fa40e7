#!/usr/bin/env python3
"""How busy each GPU was during a batch, from `nvidia-smi dmon -s u` (one line a GPU a sample).

Its `sm` column is the share of the sample's period in which a kernel ran on that GPU. A batch whose
GPU is near 100 % through its steady state is paced by the GPU's own work (its processes' kernels
take turns on it); one well below that, with cores to spare, by the host feeding it
(docs/performance.md). Usage: gpu_busy.py DMON_OUTPUT
"""
import sys


def samples(lines):
    """{gpu index: [sm %, ...]} from dmon's text; its header names the columns."""
    columns, by_gpu = None, {}
    for line in lines:
        words = line.split()
        if not words:
            continue
        if words[0] == "#":
            if columns is None and len(words) > 2 and words[1] == "gpu":
                columns = words[1:]
            continue
        if columns is None or "sm" not in columns or len(words) != len(columns):
            continue
        gpu, sm = words[columns.index("gpu")], words[columns.index("sm")]
        if sm.isdigit():  # "-" where the driver has no figure
            by_gpu.setdefault(gpu, []).append(int(sm))
    return by_gpu


def main():
    with open(sys.argv[1], errors="replace") as f:
        by_gpu = samples(f)
    if not by_gpu:
        print("GPU busy time not measured: no samples from nvidia-smi dmon")
        return
    for gpu, sm in sorted(by_gpu.items(), key=lambda kv: int(kv[0]) if kv[0].isdigit() else kv[0]):
        if max(sm) == 0:
            print(f"GPU {gpu}: no kernel ran ({len(sm)} samples)")
            continue
        mean = sum(sm) / len(sm)
        high = sum(1 for v in sm if v >= 90)
        print(f"GPU {gpu}: a kernel ran {mean:.0f} % of the time ({len(sm)} samples of 1 s), "
              f"at 90 % or more in {high} of them")


if __name__ == "__main__":
    main()
