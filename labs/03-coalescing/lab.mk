# Lab 03: memory coalescing. Read by the top-level Makefile (see
# labs/05-reduction/lab.mk for what each variable means).
# The peer is cuBLAS's matrix-vector product (cublasSgemv), for make bench;
# mean_dim0, grayscale and particles have no library peer; sectors is host
# code.
EXERCISES := matvec mean_dim0 grayscale sectors particles inflight
HEADERS   := coalescing.h
# ANSWERS:   the answer key of sectors (the rule it is graded against),
#            linked where it is: the instructor's copy. The student
#            handout leaves it out (tools/handout.sh), and there
#            ex_sectors.c grades sectors by worked cases and properties
#            instead.
ANSWERS   := answers.c
# HOST_EXERCISES: plain host C, no kernel: make check grades sectors on the
#            CPU, with no GPU (common/hostcheck.c).
HOST_EXERCISES := sectors inflight
# LAB_SRCS:  lab.c is the table; each exercise's hooks are in ex_*.c, and
#            what several share in lab_shared.c, declared in lab_hooks.h
#            (lab code: not in HEADERS).
LAB_SRCS  := lab.c lab_shared.c ex_matvec.c ex_mean_dim0.c ex_grayscale.c \
             ex_particles.c ex_sectors.c ex_inflight.c naive.cu \
             $(notdir $(wildcard labs/03-coalescing/$(ANSWERS)))
PEER_SRCS := peers.cu
LAB_LIBS  := -lcublas
