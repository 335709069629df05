// CFileLease: the thin C layer under SystemSupport's StableFileMapping.
//
// Linux file leases (fcntl F_SETLEASE) tell a process, by a signal, that another process is opening a file it holds
// for writing or truncating it; the other process's open(2) or truncate(2) waits until the lease is released (at
// most /proc/sys/fs/lease-break-time seconds). That is the window in which a mapped file can be copied to private
// memory before it changes. What Swift cannot do itself is here: fcntl and mremap are variadic, SIGRTMIN is a
// function-like macro, and a signal handler must be async-signal-safe (it only writes a byte to a pipe).
#ifndef CFILELEASE_H
#define CFILELEASE_H

#include <stddef.h>

/// The real-time signal lease breaks are delivered with (SIGRTMIN + 5: glibc keeps the first ones for itself).
int cfilelease_signal(void);

/// A pipe for the handler to wake a thread with: both ends close on exec and never block (a full pipe already holds
/// a wake-up; the reader polls). Returns 0, or -1 with errno set.
int cfilelease_open_wake_pipe(int *read_end, int *write_end);

/// Installs the handler of `cfilelease_signal()`: each delivery writes one byte to `wake_descriptor` (a pipe's
/// non-blocking write end). Returns 0, or -1 with errno set.
int cfilelease_install_handler(int wake_descriptor);

/// Unblocks `cfilelease_signal()` in the calling thread, so the process always has a thread that takes it.
int cfilelease_unblock_in_this_thread(void);

/// Takes a read lease on `descriptor` (opened read-only), its breaks signalled with `cfilelease_signal()`.
/// Returns 0, or -1 with errno set (EAGAIN: the file is open for writing somewhere; EACCES: not the owner and no
/// CAP_LEASE; EINVAL: the file system has no leases).
int cfilelease_take_read_lease(int descriptor);

/// 1 while `descriptor`'s read lease is held and not being broken; 0 otherwise (a break is under way, or no lease).
int cfilelease_is_held(int descriptor);

/// Releases `descriptor`'s lease: the waiting writer goes on.
int cfilelease_release(int descriptor);

/// Puts a private, read-only copy of the `size` bytes mapped at `base` in place of that mapping, at the same
/// address, in one step (mremap): readers on other threads see the same bytes throughout. Returns 0, or -1 with
/// errno set (the mapping is then unchanged).
int cfilelease_replace_with_private_copy(void *base, size_t size);

#endif
