# Lab 02: warp shuffle. Read by the top-level Makefile (see
# labs/05-reduction/lab.mk for what each variable means).
# PEER_SRCS: CUB's warp primitives and DeviceSelect, shown by make bench.
EXERCISES := neighbors segment_sum segment_scan filter lockstep
HEADERS   := shfl.h
# LAB_SRCS:  lab.c is the table; each exercise's hooks are in ex_*.c,
#            declared in lab_hooks.h (lab code: not in HEADERS).
LAB_SRCS  := lab.c ex_neighbors.c ex_segments.c ex_filter.c ex_lockstep.c \
             naive.cu
PEER_SRCS := peers.cu
LAB_LIBS  :=
# Skeletons that ship the code their solution fixes (lockstep: the
# pre-Volta kernel), so that they share most lines with it by design;
# tools/handout-check.sh exempts that one pair.
SHIPS_CODE := lockstep
