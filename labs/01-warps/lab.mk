# Lab 01: warps and divergence. Read by the top-level Makefile (see
# labs/05-reduction/lab.mk for what each variable means).
# occ_kernels.cu holds the real kernels the occupancy exercise is graded
# on. No peers: no library does what these exercises teach.
EXERCISES := thread_map branch trip_count occupancy branch_eff spills
HEADERS   := warps.h
# ANSWERS:   the answer key of branch_eff and spills (their rules),
#            linked where it is: the instructor's copy. The student
#            handout leaves it out (tools/handout.sh), and there
#            ex_branch_eff.c and ex_spills.c grade them by worked cases
#            and properties instead.
ANSWERS   := answers.c
# HOST_EXERCISES: plain host C, no kernel: make check grades them on
#            the CPU, with no GPU (common/hostcheck.c).
HOST_EXERCISES := branch_eff spills
# LAB_SRCS:  lab.c is the table; each exercise's hooks are in ex_*.c, and
#            what several share in lab_shared.c, declared in lab_hooks.h
#            (lab code: not in HEADERS).
LAB_SRCS  := lab.c lab_shared.c ex_thread_map.c ex_branch.c ex_trip_count.c \
             ex_occupancy.c ex_branch_eff.c ex_spills.c naive.cu limit.cu \
             occ_kernels.cu $(notdir $(wildcard labs/01-warps/$(ANSWERS)))
PEER_SRCS :=
LAB_LIBS  :=
