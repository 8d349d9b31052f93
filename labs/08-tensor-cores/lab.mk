# Lab 08: tensor cores. Read by the top-level Makefile (see
# labs/05-reduction/lab.mk for what each variable means).
# LAB_MIN_SM: bf16 mma.sync, ldmatrix and cp.async need sm_80; where SM is
#             older (CI's sm_75), this lab is built for sm_80 all the same,
#             and the grader never runs it on such a GPU (it says why).
# LAB_SRCS:   lab.c is the table; each exercise's hooks are in ex_*.c, and
#             what several share in lab_shared.c, declared in lab_hooks.h
#             (lab code: not in HEADERS). ref.cu is hgemm's double-
#             precision reference on the GPU, for the products too large
#             to check on the host (see its header);
#             naive_attention.cu is attention's naive (the eager path on
#             the CUDA cores) and the scratch both eager paths use.
# PEER_SRCS:  cuBLAS's bf16 GEMM on tensor cores (cublasGemmEx), hgemm's
#             ideal, and the eager attention on it, attention's: the
#             grader times them in its reference run.
# LAB_LIBS:   the peers link cuBLAS.
EXERCISES  := fragments hgemm attention
HEADERS   := tensor_cores.h
LAB_SRCS   := lab.c lab_shared.c ex_fragments.c ex_hgemm.c ex_attention.c \
              naive.cu naive_attention.cu ref.cu
PEER_SRCS  := peers.cu
LAB_LIBS   := -lcublas
LAB_MIN_SM := 80
