#define _GNU_SOURCE
#include "CFileLease.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static volatile int wake_descriptor_for_handler = -1;

static void on_lease_break(int signal_number, siginfo_t *info, void *context) {
    (void)signal_number;
    (void)info;
    (void)context;
    int saved = errno;
    char byte = 1;
    if (wake_descriptor_for_handler >= 0) {
        ssize_t ignored = write(wake_descriptor_for_handler, &byte, 1);
        (void)ignored;  // a full pipe already holds a wake-up
    }
    errno = saved;
}

int cfilelease_signal(void) { return SIGRTMIN + 5; }

int cfilelease_open_wake_pipe(int *read_end, int *write_end) {
    int ends[2];
    if (pipe2(ends, O_CLOEXEC) != 0) return -1;
    if (fcntl(ends[0], F_SETFL, O_NONBLOCK) != 0 || fcntl(ends[1], F_SETFL, O_NONBLOCK) != 0) {
        int saved = errno;
        close(ends[0]);
        close(ends[1]);
        errno = saved;
        return -1;
    }
    *read_end = ends[0];
    *write_end = ends[1];
    return 0;
}

int cfilelease_install_handler(int wake_descriptor) {
    wake_descriptor_for_handler = wake_descriptor;
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_sigaction = on_lease_break;
    action.sa_flags = SA_SIGINFO | SA_RESTART;
    sigemptyset(&action.sa_mask);
    return sigaction(cfilelease_signal(), &action, NULL);
}

int cfilelease_unblock_in_this_thread(void) {
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, cfilelease_signal());
    return pthread_sigmask(SIG_UNBLOCK, &set, NULL) == 0 ? 0 : -1;
}

int cfilelease_take_read_lease(int descriptor) {
    if (fcntl(descriptor, F_SETSIG, cfilelease_signal()) != 0) return -1;
    return fcntl(descriptor, F_SETLEASE, F_RDLCK);
}

int cfilelease_is_held(int descriptor) { return fcntl(descriptor, F_GETLEASE) == F_RDLCK ? 1 : 0; }

int cfilelease_release(int descriptor) { return fcntl(descriptor, F_SETLEASE, F_UNLCK); }

int cfilelease_replace_with_private_copy(void *base, size_t size) {
    void *copy = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (copy == MAP_FAILED) return -1;
    memcpy(copy, base, size);
    if (mprotect(copy, size, PROT_READ) != 0 ||
        mremap(copy, size, size, MREMAP_MAYMOVE | MREMAP_FIXED, base) == MAP_FAILED) {
        int saved = errno;
        munmap(copy, size);
        errno = saved;
        return -1;
    }
    return 0;
}
