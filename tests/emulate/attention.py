#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""attention.py - run lab 08's fused attention solution's index arithmetic
on the CPU.

No GPU here, and the fragment layouts are where fused attention kernels go
wrong. This replays solutions/08-tensor-cores/attention.cu's block, warp
and lane arithmetic (swizzle, cp.async tiles, ldmatrix and ldmatrix.trans
addresses, the m16n8k16 fragments, masks, online softmax with quad
shuffles, P packed from the score accumulators, the staged store) with
ldmatrix and mma modelled from the PTX ISA's descriptions, and compares the
result with a plain softmax(Q K^T / sqrt(d)) V. It checks the kernel's
index formulas against the documented instruction semantics, not the
hardware, and it is a copy of them, not the file: change one and change
the other. The GPU (make grade, tests/gpu/lab08.sh) has the last word.

    python3 tests/emulate/attention.py       # seven shapes, ~12 s
make test's unit section runs it where python3 is. Instructors only (a
solution in all but name): tools/handout.exclude leaves it out.
Pure Python (no numpy); exit status 1 on a mismatch.
"""
import math
import random
import struct
import sys

# The solution's default tiles per head size (D64_* and D128_*): warps,
# m16 tiles a warp, keys a tile, pipeline (0: one K and one V buffer, 2:
# two of each). QREG is not modelled: Q's fragments are the same whether
# kept in registers or read again from the unchanged Q tile.
TILES = {64: (4, 2, 128, 0), 128: (4, 2, 64, 0)}


def bf16(x):
    """Round a float to bfloat16 (nearest even), returned as a float."""
    if math.isinf(x) or math.isnan(x):
        return x
    b = struct.unpack("<I", struct.pack("<f", x))[0]
    b = (b + 0x7FFF + ((b >> 16) & 1)) & 0xFFFF0000
    return struct.unpack("<f", struct.pack("<I", b))[0]


def f32(x):
    return struct.unpack("<f", struct.pack("<f", x))[0] if math.isfinite(x) else x


def sw(row, col, dim):
    return row * dim + (((col >> 3) ^ (row & 7)) << 3) + (col & 7)


def load_tile(smem, base, g, r0, rows, seq, dim):
    """cp.async of rows [r0, r0 + rows): zero-filled past seq."""
    chunks = dim // 8
    for c in range(rows * chunks):
        row, col = c // chunks, (c % chunks) * 8
        for e in range(8):
            ok = r0 + row < seq
            smem[base + sw(row, col, dim) + e] = g[(r0 + row) * dim + col + e] if ok else 0.0


def ldmatrix_x4(smem, addrs, trans):
    """addrs[l]: lane l's row address. Returns regs[l][i] = (lo, hi)."""
    mats = [[smem[addrs[8 * i + r]:addrs[8 * i + r] + 8] for r in range(8)]
            for i in range(4)]
    regs = []
    for l in range(32):
        rl = []
        for i in range(4):
            m = mats[i]
            if trans:
                rl.append((m[2 * (l % 4)][l // 4], m[2 * (l % 4) + 1][l // 4]))
            else:
                rl.append((m[l // 4][2 * (l % 4)], m[l // 4][2 * (l % 4) + 1]))
        regs.append(rl)
    return regs


def mma(d, a, b0, b1):
    """d[l][4] += A B from per-lane fragments (PTX ISA m16n8k16 layouts)."""
    A = [[None] * 16 for _ in range(16)]
    B = [[None] * 8 for _ in range(16)]
    for l in range(32):
        g, t = l // 4, l % 4
        for e in range(2):
            A[g][2 * t + e] = a[l][0][e]
            A[g + 8][2 * t + e] = a[l][1][e]
            A[g][2 * t + 8 + e] = a[l][2][e]
            A[g + 8][2 * t + 8 + e] = a[l][3][e]
            B[2 * t + e][g] = b0[l][e]
            B[2 * t + 8 + e][g] = b1[l][e]
    for l in range(32):
        g, t = l // 4, l % 4
        for e in range(4):
            row, col = g + (e >> 1) * 8, 2 * t + (e & 1)
            d[l][e] = f32(d[l][e] + sum(A[row][x] * B[x][col] for x in range(16)))


def quad(vals, op):
    """__shfl_xor 1 then 2 over each quad: vals[l] -> reduced per lane."""
    for m in (1, 2):
        vals = [op(vals[l], vals[l ^ m]) for l in range(32)]
    return vals


def block(q, k, v, o, heads, seq, dim, causal, bx):
    """One block (bx of the 1-D grid) of its head; o is written. The kernel's
    phases run in its order for all warps at once: load V j, S = Q K^T,
    load K j + 1 (PIPE 0), softmax and P V."""
    NW, WM, BC, PIPE = TILES[dim]
    BR = NW * WM * 16
    nbuf = 2 if PIPE == 2 else 1
    smem = [float("nan")] * ((BR + 2 * nbuf * BC) * dim)
    sq, sk, sv = 0, BR * dim, BR * dim + nbuf * BC * dim
    scale_log2 = f32(math.log2(math.e) / math.sqrt(dim))
    qtiles = (seq + BR - 1) // BR
    q0 = (qtiles - 1 - bx // heads) * BR
    head = bx % heads * seq * dim
    q, k, v = q[head:head + seq * dim], k[head:head + seq * dim], v[head:head + seq * dim]
    ntiles = (seq + BC - 1) // BC
    if causal:
        ntiles = min(ntiles, (q0 + BR - 1) // BC + 1)
    load_tile(smem, sq, q, q0, BR, seq, dim)
    load_tile(smem, sk, k, 0, BC, seq, dim)
    if PIPE == 2:
        load_tile(smem, sv, v, 0, BC, seq, dim)
    W, M = range(NW), range(WM)
    qf = [[None] * WM for _ in W]
    acc = [[[[[0.0] * 4 for _ in range(32)] for _ in range(dim // 8)] for _ in M] for _ in W]
    m = [[[[-math.inf] * 2 for _ in range(32)] for _ in M] for _ in W]
    lsum = [[[[0.0] * 2 for _ in range(32)] for _ in M] for _ in W]
    for j in range(ntiles):
        b = j & 1 if PIPE == 2 else 0
        ks, vs, k0 = sk + b * BC * dim, sv + b * BC * dim, j * BC
        if PIPE == 2 and j + 1 < ntiles:
            load_tile(smem, sk + (b ^ 1) * BC * dim, k, k0 + BC, BC, seq, dim)
            load_tile(smem, sv + (b ^ 1) * BC * dim, v, k0 + BC, BC, seq, dim)
        if PIPE == 0:
            load_tile(smem, sv, v, k0, BC, seq, dim)
        S = [None] * NW
        for w in W:
            wrow = w * WM * 16
            if causal and k0 > q0 + wrow + WM * 16 - 1:
                continue  # every query of the warp above the tile's keys
            if j == 0:
                for mi in M:
                    qf[w][mi] = [ldmatrix_x4(smem, [sq + sw(wrow + mi * 16 + l % 16,
                                                            kk * 16 + l // 16 * 8, dim)
                                                    for l in range(32)], False)
                                 for kk in range(dim // 16)]
            s = [[[[0.0] * 4 for _ in range(32)] for _ in range(BC // 8)] for _ in M]
            for kk in range(dim // 16):
                for np_ in range(BC // 16):
                    b = ldmatrix_x4(smem, [ks + sw(np_ * 16 + l % 8 + l // 16 * 8,
                                                   kk * 16 + (l // 8) % 2 * 8, dim)
                                           for l in range(32)], False)
                    for mi in M:
                        a = qf[w][mi][kk]
                        mma(s[mi][2 * np_], a, [b[l][0] for l in range(32)], [b[l][1] for l in range(32)])
                        mma(s[mi][2 * np_ + 1], a, [b[l][2] for l in range(32)], [b[l][3] for l in range(32)])
            if k0 + BC > seq or (causal and k0 + BC - 1 > q0 + wrow):
                for mi in M:
                    for n in range(BC // 8):
                        for l in range(32):
                            g, t = l // 4, l % 4
                            for e in range(4):
                                key = k0 + n * 8 + 2 * t + (e & 1)
                                qry = q0 + wrow + mi * 16 + g + (e >> 1) * 8
                                if key >= seq or (causal and key > qry):
                                    s[mi][n][l][e] = -math.inf
            S[w] = s
        if PIPE == 0 and j + 1 < ntiles:
            load_tile(smem, sk, k, k0 + BC, BC, seq, dim)
        for w in W:
            if S[w] is None:
                continue
            for mi in M:
                s = S[w][mi]
                for r in range(2):
                    mx = [max(max(s[n][l][2 * r], s[n][l][2 * r + 1]) for n in range(BC // 8))
                          for l in range(32)]
                    mx = quad(mx, max)
                    for l in range(32):
                        mnew = max(m[w][mi][l][r], f32(mx[l] * scale_log2))
                        base = 0.0 if mnew == -math.inf else mnew
                        alpha = 2.0 ** (m[w][mi][l][r] - base)
                        tot = 0.0
                        for n in range(BC // 8):
                            for e in (2 * r, 2 * r + 1):
                                s[n][l][e] = f32(2.0 ** f32(s[n][l][e] * scale_log2 - base))
                                tot = f32(tot + s[n][l][e])
                        lsum[w][mi][l][r] = f32(lsum[w][mi][l][r] * alpha + tot)
                        m[w][mi][l][r] = mnew
                        for n in range(dim // 8):
                            acc[w][mi][n][l][2 * r] *= alpha
                            acc[w][mi][n][l][2 * r + 1] *= alpha
            for kk in range(BC // 16):
                a = []
                for mi in M:
                    s0, s1 = S[w][mi][2 * kk], S[w][mi][2 * kk + 1]
                    a.append([[(bf16(s0[l][0]), bf16(s0[l][1])), (bf16(s0[l][2]), bf16(s0[l][3])),
                               (bf16(s1[l][0]), bf16(s1[l][1])), (bf16(s1[l][2]), bf16(s1[l][3]))]
                              for l in range(32)])
                for dp in range(dim // 16):
                    b = ldmatrix_x4(smem, [vs + sw(kk * 16 + l % 8 + (l // 8) % 2 * 8,
                                                   dp * 16 + l // 16 * 8, dim)
                                           for l in range(32)], True)
                    for mi in M:
                        mma(acc[w][mi][2 * dp], a[mi], [b[l][0] for l in range(32)], [b[l][1] for l in range(32)])
                        mma(acc[w][mi][2 * dp + 1], a[mi], [b[l][2] for l in range(32)], [b[l][3] for l in range(32)])
    for w in W:
        wrow = w * WM * 16
        for mi in M:
            for r in range(2):
                tot = quad([lsum[w][mi][l][r] for l in range(32)], lambda x, y: f32(x + y))
                for l in range(32):
                    g, t = l // 4, l % 4
                    inv = f32(1.0 / tot[l]) if tot[l] else math.inf  # as 1.0f / 0.0f
                    row = wrow + mi * 16 + g + r * 8
                    for n in range(dim // 8):
                        at = sq + sw(row, n * 8 + 2 * t, dim)
                        smem[at] = bf16(acc[w][mi][n][l][2 * r] * inv)
                        smem[at + 1] = bf16(acc[w][mi][n][l][2 * r + 1] * inv)
        for l in range(32):
            for c in range(l, WM * 16 * dim // 8, 32):
                row, col = wrow + c // (dim // 8), c % (dim // 8) * 8
                if q0 + row < seq:
                    for e in range(8):
                        o[head + (q0 + row) * dim + col + e] = smem[sq + sw(row, col, dim) + e]


def reference(q, k, v, seq, dim, causal):
    out = []
    for i in range(seq):
        n = i + 1 if causal else seq
        s = [sum(q[i * dim + d] * k[j * dim + d] for d in range(dim)) / math.sqrt(dim)
             for j in range(n)]
        mx = max(s)
        p = [math.exp(x - mx) for x in s]
        tot = sum(p)
        for d in range(dim):
            out.append(sum(p[j] * v[j * dim + d] for j in range(n)) / tot)
    return out


def run(heads, seq, dim, causal, amp, rng):
    n = heads * seq * dim
    q = [bf16(rng.uniform(-amp, amp)) for _ in range(n)]
    k = [bf16(rng.uniform(-amp, amp)) for _ in range(n)]
    v = [bf16(rng.uniform(-1, 1)) for _ in range(n)]
    o = [float("nan")] * n
    nw, wm = TILES[dim][0], TILES[dim][1]
    for bx in range((seq + nw * wm * 16 - 1) // (nw * wm * 16) * heads):
        block(q, k, v, o, heads, seq, dim, causal, bx)
    ref = []
    for h in range(heads):
        part = slice(h * seq * dim, (h + 1) * seq * dim)
        ref += reference(q[part], k[part], v[part], seq, dim, causal)
    worst = max(abs(a - b) for a, b in zip(o, ref)) if all(map(math.isfinite, o)) else math.inf
    ok = worst <= 2.0 ** -6
    print(f"heads {heads} seq {seq:4d} dim {dim:3d} {'causal' if causal else 'full  '} amp {amp:4}: "
          f"max |error| {worst:.2e} {'ok' if ok else 'WRONG'}", flush=True)
    if not ok:
        bad = [x for x in range(n) if not abs(o[x] - ref[x]) <= 2.0 ** -6][:6]
        for x in bad:
            print(f"    row {x // dim} col {x % dim}: got {o[x]:.5f} want {ref[x]:.5f}")
    return ok


def main():
    rng = random.Random(int(sys.argv[1]) if len(sys.argv) > 1 else 1)
    cases = [(1, 1, 64, 0, 1.0), (2, 33, 64, 1, 1.0), (1, 31, 128, 0, 1.0),
             (1, 100, 64, 1, 1.0), (1, 130, 64, 0, 1.0), (1, 80, 64, 1, 12.0),
             (1, 150, 128, 1, 1.0)]
    ok = all([run(*c, rng) for c in cases])
    print("emulation:", "all right" if ok else "MISMATCH")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
