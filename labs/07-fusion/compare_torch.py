# SPDX-License-Identifier: MIT
"""Lab 07's solutions against PyTorch: F.gelu(approximate="tanh"),
torch.softmax, and eager torch for the two fused pairs (x + b then gelu;
residual add then F.rms_norm). Run through `make torch-compare`; needs a
GPU and PyTorch; not needed to grade."""
import ctypes
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "common"))
import torch_compare as tc  # noqa: E402
import torch  # noqa: E402
import torch.nn.functional as F  # noqa: E402

EPS = 1e-6
S = ctypes.c_size_t
folder = sys.argv[1]
rows = []


def compare(name, shape, nbytes, ours, theirs, out):
    """Run both once, compare outputs, then time them interleaved."""
    ours()
    diff = (out() - theirs()).abs().max().item()
    t_ours, t_torch = tc.time_pair(ours, theirs)
    rows.append((name, shape, nbytes, t_ours, t_torch, diff))


n = 64 << 20
x = torch.empty(n, device="cuda").uniform_(-6, 6)
y = torch.empty_like(x)
gelu = tc.load(folder, "gelu").gelu
compare("gelu", "n=64M", 8 * n, lambda: gelu(tc.ptr(x), tc.ptr(y), S(n)),
        lambda: F.gelu(x, approximate="tanh"), lambda: y)

r, c = 8192, 8192
x2 = torch.empty(r, c, device="cuda").uniform_(-6, 6)
b = torch.empty(c, device="cuda").uniform_(-1, 1)
y2 = torch.empty_like(x2)
bias_gelu = tc.load(folder, "bias_gelu").bias_gelu
compare("bias_gelu", f"{r}x{c}", 8 * r * c + 4 * c,
        lambda: bias_gelu(tc.ptr(x2), tc.ptr(b), tc.ptr(y2), S(r), S(c)),
        lambda: F.gelu(x2 + b, approximate="tanh"), lambda: y2)

r, h = 16384, 4096
x3 = torch.empty(r, h, device="cuda").uniform_(-1, 1)
res0 = torch.empty(r, h, device="cuda").uniform_(-1, 1)
res = res0.clone()
w = torch.empty(h, device="cuda").uniform_(0.5, 1.5)
y3 = torch.empty_like(x3)
add_rmsnorm = tc.load(folder, "add_rmsnorm").add_rmsnorm


def ours_add_rmsnorm():
    # The residual is updated in place, so repeated timed calls keep adding
    # x to it: the values drift, the work does not. The output check below
    # starts again from res0.
    add_rmsnorm(tc.ptr(x3), tc.ptr(res), tc.ptr(w), tc.ptr(y3), S(r), S(h), ctypes.c_float(EPS))


def torch_add_rmsnorm():
    h_ = x3 + res0
    return F.rms_norm(h_, (h,), w, EPS)


res.copy_(res0)
compare("add_rmsnorm", f"{r}x{h}", 16 * r * h + 4 * h, ours_add_rmsnorm, torch_add_rmsnorm,
        lambda: (res.copy_(res0), ours_add_rmsnorm(), y3)[2])

r, c = 16384, 4096
x4 = torch.empty(r, c, device="cuda").uniform_(-100, 100)
y4 = torch.empty_like(x4)
softmax = tc.load(folder, "softmax").softmax
compare("softmax", f"{r}x{c}", 8 * r * c, lambda: softmax(tc.ptr(x4), tc.ptr(y4), S(r), S(c)),
        lambda: torch.softmax(x4, dim=-1), lambda: y4)
tc.report(rows)
