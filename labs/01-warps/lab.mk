# Lab 01: warps and divergence. Read by the top-level Makefile (see
# labs/05-reduction/lab.mk for what each variable means).
# occ_kernels.cu holds the real kernels the occupancy exercise is graded
# on. No peers: no library does what these exercises teach.
EXERCISES := thread_map branch trip_count occupancy
HEADERS   := warps.h
LAB_SRCS  := lab.c naive.cu occ_kernels.cu
PEER_SRCS :=
LAB_LIBS  :=
