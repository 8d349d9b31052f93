# SPDX-License-Identifier: MIT
"""torch_compare.py - time a lab's solutions against PyTorch, same shapes,
same process, same measurement as the grader (CUDA events, L2 flushed
before every sample, interleaved, medians). Not needed to grade; used by
labs/*/compare_torch.py, run through `make torch-compare` on a GPU machine
with PyTorch installed.
"""
import ctypes
import statistics
import sys

try:
    import torch
except ImportError:
    print("PyTorch is not installed: nothing to compare (skipped)")
    sys.exit(0)

SAMPLES = 41  # odd, so the median is one sample


def load(folder, exercise):
    """One solution file as a shared library, built by make torch-compare."""
    return ctypes.CDLL(f"{folder}/{exercise}.so")


def ptr(t):
    return ctypes.c_void_p(t.data_ptr())


def _flusher():
    l2 = torch.cuda.get_device_properties(0).L2_cache_size
    return torch.empty(max(2 * l2, 32 << 20), dtype=torch.uint8, device="cuda")


def time_pair(ours, theirs):
    """Median ms of ours() and theirs(), interleaved, L2 flushed each time."""
    flush = _flusher()
    start, stop = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    times = {"ours": [], "torch": []}
    for f in (ours, theirs, ours, theirs):  # warm-up
        f()
    for i in range(SAMPLES):
        order = [("ours", ours), ("torch", theirs)]
        for name, f in order if i % 2 == 0 else reversed(order):
            flush.fill_(i & 0x7F)
            torch.cuda.synchronize()
            start.record()
            f()
            stop.record()
            torch.cuda.synchronize()
            times[name].append(start.elapsed_time(stop))
    return statistics.median(times["ours"]), statistics.median(times["torch"])


def report(rows):
    """rows: (name, shape, bytes, ours_ms, torch_ms, max_abs_diff)."""
    dev = torch.cuda.get_device_name(0)
    print(f"solutions vs PyTorch {torch.__version__} on {dev} (median of {SAMPLES}, L2 flushed)")
    print(f"{'exercise':<14} {'shape':<12} {'ours':>10} {'GB/s':>6} {'torch':>10} {'GB/s':>6} "
          f"{'torch/ours':>10} {'max |diff|':>10}")
    for name, shape, nbytes, ours, theirs, diff in rows:
        print(f"{name:<14} {shape:<12} {ours * 1e3:8.1f}us {nbytes / ours / 1e6:6.0f} "
              f"{theirs * 1e3:8.1f}us {nbytes / theirs / 1e6:6.0f} {theirs / ours:9.2f}x {diff:10.2e}")
