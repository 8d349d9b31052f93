#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
#
# tests/ladder/08-tensor-cores/emulate-hgemm.py - the hgemm kernels of
# lab 08's ladder (#16), replayed on the CPU, one block at a
# time and warp by warp, for machines without a GPU:
#
#   python3 tests/ladder/08-tensor-cores/emulate-hgemm.py [NAMES [SIZES]]
#
# A model, not a compiler: each entry of CFG restates one kernel's tile
# shapes, shared-memory layout (padding or swizzle), pipeline (one tile at
# a time; steps 3 to 5's wait-barrier-refill-multiply; steps 6 and 7's and
# step 8's double-buffered fragments with the barrier on a tile's
# last k-step), copies (step 8's worked out once per thread) and
# block order, and the replay follows the kernel's statements with
# the PTX ISA's semantics: cp.async chunks zero-filled past the matrix (a
# copy that would read past it fails),
# landing only at the cp.async.wait_group that forces them and visible to
# other threads only after the barrier; ldmatrix (.x4, .trans) and
# mma.sync.m16n8k16 fragments lane by lane; guarded float2 stores. It
# fails on a read of a chunk not yet landed (RAW), a copy into a chunk
# read since the last barrier (WAR), a fragment element never loaded, a
# store twice, any element of c not equal to the exact product (integer
# inputs), and counts ldmatrix phases whose 8 rows share a bank group:
# steps 2 and 3 store their tiles unpadded and must have such phases (they
# are what step 4's swizzle removes), every other kernel none. The
# mutants at the end must fail: they show the checks can. Update CFG when
# a kernel's shape or pipeline changes. About 3 minutes on one core.
import sys, random

class Hazard(Exception): pass

def run(cfg, m, k, n, rng):
    BM,BN,BK,ST,WMs,WNs = cfg['BM'],cfg['BN'],cfg['BK'],cfg['STAGES'],cfg['WARPS_M'],cfg['WARPS_N']
    THREADS = WMs*WNs*32; WM=BM//WMs; WN=BN//WNs; MI=WM//16; NI=WN//8
    A_ST=cfg.get('A_ST',BM*BK); B_ST=cfg.get('B_ST',BK*BN)
    a_off=cfg['a_off']; b_off=cfg['b_off']
    A = [[rng.randint(-8,7) for _ in range(k)] for _ in range(m)]
    B = [[rng.randint(-8,7) for _ in range(n)] for _ in range(k)]
    C = [[None]*n for _ in range(m)]
    gm=-(-m//BM); gn=-(-n//BN)
    kts=-(-k//BK)
    conflicts=[0]
    for pid in range(gm*gn):
        if cfg['raster']:
            G=cfg['GROUP_M']; group=G*gn; first=pid//group*G; gs=min(gm-first,G)
            tm=first+pid%group%gs; tn=pid%group//gs
        else:
            tm=pid//gn; tn=pid%gn
        bm=tm*BM; bn=tn*BN
        smem=[None]*(ST*(A_ST+B_ST))
        size=len(smem)
        state=[0]*(size//8)  # 0 stable, 1 in flight, 2 landed unpublished
        readset=set()
        groups=[]   # list of lists of (dst_chunk, data8)
        cur=[]
        def cp_async(dst, data):
            if dst % 8: raise Hazard('misaligned cp.async')
            ch=dst//8
            if ch in readset: raise Hazard('WAR: cp.async into chunk read this epoch')
            if state[ch]==1: raise Hazard('two copies in flight to one chunk')
            state[ch]=1
            cur.append((ch,data))
        def commit():
            nonlocal cur
            groups.append(cur); cur=[]
        def wait(nn):
            # complete all but the newest nn groups
            done=len(groups)-nn
            for gi in range(done):
                for ch,data in groups[gi]:
                    smem[ch*8:ch*8+8]=data; state[ch]=2
                groups[gi]=[]
        def sync():
            readset.clear()
            for i in range(len(state)):
                if state[i]==2: state[i]=0
        def read_chunk(idx):
            ch=idx//8
            if idx%8: raise Hazard('misaligned ldmatrix row')
            if state[ch]!=0: raise Hazard('RAW: ldmatrix of a chunk not landed/published (state %d)'%state[ch])
            readset.add(ch)
            return smem[idx:idx+8]
        def load_tile(as_, bs_, kt):
            k0=kt*BK
            if cfg.get('copies')=='once':
                return load_tile_once(as_, bs_, k0)
            for tid in range(THREADS):
                for q in range(tid, BM*BK//8, THREADS):
                    row=q//(BK//8); chn=q%(BK//8); gr=bm+row; gk=k0+chn*8
                    ok= gr<m and gk<k
                    cp_async(as_+a_off(row,chn), A[gr][gk:gk+8] if ok else [0]*8)
                for q in range(tid, BK*BN//8, THREADS):
                    row=q//(BN//8); chn=q%(BN//8); gk=k0+row; gc=bn+chn*8
                    ok= gk<k and gc<n
                    cp_async(bs_+b_off(row,chn), B[gk][gc:gc+8] if ok else [0]*8)
        def grab(M, r, c0, rows, cols):
            # 8 elements of a matrix, which must lie inside it
            if not (0 <= r < rows and 0 <= c0 and c0+8 <= cols):
                raise Hazard('a copy reads past the matrix')
            return M[r][c0:c0+8]
        def load_tile_once(as_, bs_, k0):
            # The solution's copies: each thread's rows, chunk, shared
            # offsets and bounds worked out once (copies_of()), the tile's
            # copies a base plus j whole row steps (load_tile()).
            CA=BM*BK//8//THREADS; CB=BK*BN//8//THREADS
            ars=THREADS//(BK//8); brs=THREADS//(BN//8)
            for tid in range(THREADS):
                ach=tid%(BK//8); arow=tid//(BK//8)
                bch=tid%(BN//8); brow=tid//(BN//8)
                a_in=[bm+arow+j*ars<m for j in range(CA)]
                b_in=bn+bch*8<n
                for j in range(CA):
                    ok=a_in[j] and k0+ach*8<k
                    cp_async(as_+a_off(arow,ach)+j*ars*BK,
                             grab(A,bm+arow+j*ars,k0+ach*8,m,k) if ok else [0]*8)
                for j in range(CB):
                    ok=b_in and k0+brow+(0 if cfg.get('b_k_first') else j*brs)<k
                    cp_async(bs_+b_off(brow,bch)+j*brs*BN,
                             grab(B,k0+brow+j*brs,bn+bch*8,k,n) if ok else [0]*8)
        def ldmatrix(addrs, trans):
            # addrs: 32 element offsets; returns regs[32][4][2]
            for ph in range(4):
                slots=[(addrs[ph*8+i]*2//16)%8 for i in range(8)]
                if len(set(slots))!=8: conflicts[0]+=1
            mats=[[read_chunk(addrs[j*8+r]) for r in range(8)] for j in range(4)]
            out=[[None]*4 for i in range(32)]
            for i in range(32):
                for j in range(4):
                    M=mats[j]
                    if trans: out[i][j]=(M[2*(i%4)][i//4], M[2*(i%4)+1][i//4])
                    else: out[i][j]=(M[i//4][2*(i%4)], M[i//4][2*(i%4)+1])
            return out
        def load_frags(w, as_, bs_, kk):
            wm=(w%WMs)*WM; wn=(w//WMs)*WN
            af=[None]*MI; bf=[None]*NI
            for i in range(MI):
                addrs=[]
                for lane in range(32):
                    q=lane>>3; r=lane&7
                    row=wm+i*16+(q&1)*8+r
                    addrs.append(as_+a_off(row,kk*2+(q>>1)))
                af[i]=ldmatrix(addrs,False)
            for j in range(0,NI,2):
                addrs=[]
                for lane in range(32):
                    q=lane>>3; r=lane&7
                    row=kk*16+(q&1)*8+r; col=wn+j*8+(q>>1)*8
                    addrs.append(bs_+b_off(row,col>>3))
                t=ldmatrix(addrs,not cfg.get('b_notrans',False))
                bf[j]=[x[0:2] for x in t]; bf[j+1]=[x[2:4] for x in t]
            return af,bf
        def mma(acc, a, b):
            # a: [32][4][2], b: [32][2][2], acc: [32][4]
            Am=[[None]*16 for _ in range(16)]; Bm=[[None]*8 for _ in range(16)]
            for l in range(32):
                g=l>>2; t=l&3
                Am[g][2*t:2*t+2]=a[l][0]; Am[g+8][2*t:2*t+2]=a[l][1]
                Am[g][2*t+8:2*t+10]=a[l][2]; Am[g+8][2*t+8:2*t+10]=a[l][3]
                Bm[2*t][g],Bm[2*t+1][g]=b[l][0]; Bm[2*t+8][g],Bm[2*t+9][g]=b[l][1]
            for row in Am+Bm:
                if None in row: raise Hazard('fragment element unset')
            Bt=list(zip(*Bm))
            D=[[sum(x*y for x,y in zip(Am[r],Bt[c])) for c in range(8)] for r in range(16)]
            for l in range(32):
                g=l>>2; t=l&3
                v=(D[g][2*t],D[g][2*t+1],D[g+8][2*t],D[g+8][2*t+1])
                for e in range(4): acc[l][e]+=v[e]
        W=WMs*WNs
        accs=[[[[[0]*4 for _ in range(32)] for j in range(NI)] for i in range(MI)] for w in range(W)]
        def mma_step(w, af, bf):
            for i in range(MI):
                for j in range(NI):
                    mma(accs[w][i][j], af[i], bf[j])
        As=lambda s: s*A_ST
        Bs=lambda s: ST*A_ST+s*B_ST
        for s in range(ST-1):
            if s<kts: load_tile(As(s),Bs(s),s)
            commit()
        if cfg['pipe']=='single':
            for kt in range(kts):
                load_tile(As(0),Bs(0),kt); commit(); wait(0)
                sync()
                for w in range(W):
                    for kk in range(BK//16):
                        af,bf=load_frags(w,As(0),Bs(0),kk)
                        mma_step(w,af,bf)
                sync()
        elif cfg['pipe']=='simple':
            for kt in range(kts):
                nxt=kt+ST-1; s=kt%ST
                wait(ST-2); sync()
                if nxt<kts: load_tile(As(nxt%ST),Bs(nxt%ST),nxt)
                commit()
                for w in range(W):
                    for kk in range(BK//16):
                        af,bf=load_frags(w,As(s),Bs(s),kk)
                        mma_step(w,af,bf)
        else:
            KS=BK//16
            wait(ST-2); sync()
            fr=[[None,None] for w in range(W)]
            for w in range(W): fr[w][0]=load_frags(w,As(0),Bs(0),0)
            for kt in range(kts):
                s=kt%ST; s1=(kt+1)%ST
                for kk in range(KS):
                    if kk==KS-1:
                        if cfg.get('commit_late'): commit()
                        wait(ST-2+cfg.get('wait_off',0)); sync()
                    for w in range(W):
                        if kk<KS-1: fr[w][(kk+1)&1]=load_frags(w,As(s),Bs(s),kk+1)
                        elif kt+1<kts: fr[w][0]=load_frags(w,As(s1),Bs(s1),0)
                    if kk==0:
                        nxt=kt+ST-1; dst=(nxt+cfg.get('refill_off',0))%ST
                        if nxt<kts: load_tile(As(dst),Bs(dst),nxt)
                        if not cfg.get('commit_late'): commit()
                    for w in range(W):
                        af,bf=fr[w][kk&1]
                        mma_step(w,af,bf)
        wait(0)
        for w in range(W):
            wm=(w%WMs)*WM; wn=(w//WMs)*WN
            for l in range(32):
                g=l>>2; t=l&3
                for i in range(MI):
                    for j in range(NI):
                        row=bm+wm+i*16+g; col=bn+wn+j*8+2*t
                        if col>=n: continue
                        acc=accs[w][i][j][l]
                        if row<m:
                            if C[row][col] is not None or C[row][col+1] is not None: raise Hazard('double store')
                            C[row][col:col+2]=acc[0:2]
                        if row+8<m:
                            if C[row+8][col] is not None or C[row+8][col+1] is not None: raise Hazard('double store')
                            C[row+8][col:col+2]=acc[2:4]
    Bt=list(zip(*B))
    ok=all(C[i][j]==sum(x*y for x,y in zip(A[i],Bt[j])) for i in range(m) for j in range(n))
    return ok, conflicts[0]

def sw_a32(BK): return lambda row,ch: row*BK+((ch^((row>>1)&3))<<3)
def sw_r8(W): return lambda row,ch: row*W+((ch^(row&7))<<3)
def pad(W): return lambda row,ch: row*W+(ch<<3)

SOL = dict(BM=128, BN=128, BK=32, STAGES=4, WARPS_M=2, WARPS_N=4,
           a_off=sw_a32(32), b_off=sw_r8(128), pipe='simple', raster=False)
# Steps 2 and 3: rows as they come, conflicts expected.
RAW = dict(SOL, a_off=pad(32), b_off=pad(128), conflicts=True)
CA = dict(SOL, BN=256, b_off=sw_r8(256))
CB = dict(CA, pipe='dbuf', raster=True, GROUP_M=16)
CC = dict(CB, BK=64, STAGES=3, a_off=sw_r8(64))
SOL8 = dict(CB, copies='once', commit_late=True)
CFG = {
    # tests/ladder/08-tensor-cores/<step>/08-tensor-cores/hgemm.cu
    '2-mma-sync': dict(RAW, STAGES=1, pipe='single'),
    '3-cp-async': RAW,
    '4-swizzle': SOL,
    '5-warp-64x64': CA,
    '6-frag-double-buffer': CB,
    '7-deep-k': CC,
    '8-copies-once': SOL8,      # and the solution's mma.sync path
}
# Each must fail (HAZARD, WRONG, or conflicted ldmatrix phases).
MUTANTS = {
    'step 4 without its swizzle (bank conflicts)': dict(SOL, a_off=pad(32), b_off=pad(128)),
    'step 3 padded (no conflicts where they are expected)': dict(RAW, a_off=pad(40), b_off=pad(136), A_ST=128 * 40, B_ST=32 * 136),
    'B: wait one group too few': dict(CB, wait_off=1),
    'C: refill the stage being read': dict(CC, refill_off=1),
    "A: a's swizzle for 64-byte rows wrong": dict(CA, a_off=sw_r8(32)),
    "B: b's ldmatrix without .trans": dict(CB, b_notrans=True),
    "solution: b's rows checked against k for the first copy only": dict(SOL8, b_k_first=True),
}
SIZES = '1x8x8,2x16x8,1x512x256,300x8x8,31x40x24,33x24x40,7x8x264,64x64x64,65x32x128,129x72x136,33x520x40,2100x8x264'

def one(name, cfg, size, rng):
    m, k, n = size
    try:
        ok, cf = run(cfg, m, k, n, rng)
        if not ok:
            res = 'WRONG'
        elif cfg.get('conflicts'):
            res = 'OK' if cf else 'NO CONFLICTS (expected some)'
        else:
            res = 'OK' if not cf else 'CONFLICTS (%d phases)' % cf
    except Hazard as e:
        res = 'HAZARD: %s' % e
    print('%-40s %-12s %s' % (name, '%dx%dx%d' % size, res), flush=True)
    return res == 'OK'

if __name__ == '__main__':
    names = sys.argv[1].split(',') if len(sys.argv) > 1 else list(CFG)
    sizes = [tuple(map(int, x.split('x')))
             for x in (sys.argv[2] if len(sys.argv) > 2 else SIZES).split(',')]
    rng = random.Random(1)
    bad = 0
    for nm in names:
        for sz in sizes:
            bad += not one(nm, CFG[nm], sz, rng)
    if len(sys.argv) == 1:
        for nm, cfg in MUTANTS.items():
            # A mutant fails at one of the sizes, or the checks are blind.
            if all(one('mutant: ' + nm, cfg, sz, rng)
                   for sz in [(31, 40, 24), (129, 72, 136), (33, 520, 40)]):
                print('mutant not caught:', nm)
                bad += 1
    print('emulate-hgemm: %s' % ('all as expected' if not bad else '%d FAILED' % bad))
    sys.exit(1 if bad else 0)
