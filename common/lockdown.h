/* SPDX-License-Identifier: MIT */
/*
 * lockdown.h - what code in an exercise runner may still do once the CUDA
 * runtime is up: a seccomp filter, installed once and never lifted.
 *
 * A submission runs inside the runner (it is timed in the same process as
 * the naive reference), so whatever the static checks on its object miss
 * (a pointer to libc's write found by arithmetic, a raw system call) must
 * meet the kernel's refusal instead. After wb_lockdown(), every thread of
 * the process gets EPERM (ENOSYS for clone3, openat2 and the system calls
 * of another ABI, so that glibc falls back or gives up) for:
 *
 *   - starting processes or programs, leaving the process group or session,
 *     and acting on another process (signals, ptrace, its memory, limits);
 *   - the network;
 *   - creating, removing, renaming or changing files (opens that write,
 *     create, truncate or append; chmod, chown, xattrs, ...);
 *   - writing to, or mapping shared, a descriptor opened after the lock,
 *     and closing or replacing one that was open at the lock;
 *   - mounting, modules, kexec, reboot, swap, bpf, io_uring, aio and the
 *     like.
 *
 * Everything else stays allowed: threads, memory, ioctl, futexes, reading
 * files, writing to the descriptors open at the lock (stdout, stderr, the
 * result channel, the runtime's device files and eventfds). Nothing is
 * killed: the CUDA runtime gets an error it can survive. The policy, with
 * the reason for each group, is the table in lockdown.c.
 *
 * Do not lock down under compute-sanitizer or Nsight Compute: the
 * libraries they inject need sockets and files. That is the caller's
 * choice; this code does not guess.
 */
#ifndef WB_LOCKDOWN_H
#define WB_LOCKDOWN_H

#include <stddef.h>

/*
 * Lock this process down, all its threads included. keep_fd (-1: none) is
 * a descriptor that must stay writable, the result channel: it must be
 * open for writing. Every unused descriptor number below the highest open
 * one is first filled with /dev/null, read-only, so that a descriptor
 * opened later gets a higher number, which the filter refuses to write.
 *
 * Returns 0, or -1 with the reason in why (for "not locked down: <why>"):
 * an architecture other than x86-64 or aarch64, a kernel without seccomp
 * filters, keep_fd not open for writing. On failure no filter is
 * installed; the runner goes on without one.
 */
int wb_lockdown(int keep_fd, char *why, size_t n);

#endif /* WB_LOCKDOWN_H */
