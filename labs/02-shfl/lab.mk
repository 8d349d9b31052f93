# Lab 02: warp shuffle. Read by the top-level Makefile (see
# labs/05-reduction/lab.mk for what each variable means).
# PEER_SRCS: CUB's warp primitives and DeviceSelect, shown by make bench.
EXERCISES := neighbors segment_sum segment_scan filter lockstep
HEADERS   := shfl.h
LAB_SRCS  := lab.c naive.cu
PEER_SRCS := peers.cu
LAB_LIBS  :=
# Skeletons that ship the code their solution fixes (lockstep: the
# pre-Volta kernel), so that they share most lines with it by design;
# tools/handout-check.sh exempts that one pair.
SHIPS_CODE := lockstep
