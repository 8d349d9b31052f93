# Lab 06: RMSNorm. Read by the top-level Makefile (see labs/05-reduction/lab.mk).
EXERCISES := rmsnorm rmsnorm_bf16
HEADERS   := rmsnorm.h
LAB_SRCS  := lab.c naive.cu
PEER_SRCS :=
LAB_LIBS  :=
