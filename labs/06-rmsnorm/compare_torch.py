# SPDX-License-Identifier: MIT
"""Lab 06's solutions against torch.nn.functional.rms_norm (run through
`make torch-compare`; needs a GPU and PyTorch; not needed to grade)."""
import ctypes
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "common"))
import torch_compare as tc  # noqa: E402
import torch  # noqa: E402

EPS = 1e-6
rows = []
for name, dtype, size in (("rmsnorm", torch.float32, 4), ("rmsnorm_bf16", torch.bfloat16, 2)):
    fn = getattr(tc.load(sys.argv[1], name), name)
    for r, h in ((16384, 4096), (65536, 768)):
        x = torch.randn(r, h, device="cuda").to(dtype)
        w = (torch.rand(h, device="cuda") + 0.5).to(dtype)
        y = torch.empty_like(x)
        ours = lambda: fn(tc.ptr(x), tc.ptr(w), tc.ptr(y), ctypes.c_size_t(r),
                          ctypes.c_size_t(h), ctypes.c_float(EPS))
        theirs = lambda: torch.nn.functional.rms_norm(x, (h,), w, EPS)
        ours()
        diff = (y.float() - theirs().float()).abs().max().item()
        t_ours, t_torch = tc.time_pair(ours, theirs)
        rows.append((name, f"{r}x{h}", (2 * r * h + h) * size, t_ours, t_torch, diff))
tc.report(rows)
