# Lab 05: reduction. Read by the top-level Makefile.
# EXERCISES: the files students edit (<name>.cu), one runner each.
# HEADERS:   the lab's public headers: the only ones a submission may
#            include, beside the toolkit's and the system's (grader/build.sh)
# LAB_SRCS:  the lab's own code: its table and CPU references (lab.c), the
#            naive references the grader times against (naive.cu).
# PEER_SRCS: library peers shown by make bench (CUB here).
# LAB_LIBS:  extra libraries to link (none: CUB is header-only).
EXERCISES := sum argmax
HEADERS   := reduction.h
LAB_SRCS  := lab.c naive.cu
PEER_SRCS := peers.cu
LAB_LIBS  :=
