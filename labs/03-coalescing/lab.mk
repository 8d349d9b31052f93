# Lab 03: memory coalescing. Read by the top-level Makefile (see
# labs/05-reduction/lab.mk for what each variable means).
# The peer is cuBLAS's matrix-vector product (cublasSgemv), for make bench;
# mean_dim0, grayscale and particles have no library peer; sectors is host
# code.
EXERCISES := matvec mean_dim0 grayscale sectors particles
HEADERS   := coalescing.h
LAB_SRCS  := lab.c naive.cu
PEER_SRCS := peers.cu
LAB_LIBS  := -lcublas
