# Lab 02: warp shuffle. Read by the top-level Makefile (see
# labs/05-reduction/lab.mk for what each variable means).
# PEER_SRCS: CUB's warp primitives and DeviceSelect, shown by make bench.
EXERCISES := neighbors segment_sum segment_scan filter lockstep
LAB_SRCS  := lab.c naive.cu
PEER_SRCS := peers.cu
LAB_LIBS  :=
