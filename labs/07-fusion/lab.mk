# Lab 07: kernel fusion. Read by the top-level Makefile (see
# labs/05-reduction/lab.mk for what each variable means).
# No peers: the point is the naive's eager sequence versus one kernel;
# passes is host code that counts the bytes of both.
EXERCISES := gelu bias_gelu add_rmsnorm softmax passes
HEADERS   := fusion.h
LAB_SRCS  := lab.c naive.cu
PEER_SRCS :=
LAB_LIBS  :=
