// fakev4l2: a fake V4L2 webcam for tests, loaded with LD_PRELOAD.
//
// There is no /dev/video* on CI machines and v4l2loopback cannot be loaded in a container, so this small
// shared library pretends that one device node exists and answers for it at the libc boundary. Everything that
// is not about the fake device is forwarded to the real libc functions (found with dlsym(RTLD_NEXT, ...)).
//
// libv4l2 makes its device calls through syscall(SYS_openat / SYS_close / SYS_ioctl / SYS_mmap / SYS_munmap ...),
// not through open()/ioctl()/mmap(), so the libc syscall() function is intercepted too (six long arguments
// read with va_arg and passed on unchanged for anything that is not ours).
//
// The fake file descriptor is the read end of a real pipe: the producer thread writes one byte per filled
// buffer and DQBUF reads one back, so poll()/select()/epoll on the descriptor work natively (POLLIN when a
// buffer is done). When the device "vanishes" the write end is closed, which makes poll() report POLLHUP, the
// way the kernel reports EPOLLERR|EPOLLHUP for an unregistered video device.
//
// Build:  cc -shared -fPIC -O2 -o libfakev4l2.so fakev4l2.c -ldl -lpthread
//
// Environment:
//   FAKEV4L2_DEVICE=/dev/video42   the fake device node (also matched through symlinks pointing at it)
//   FAKEV4L2_FRAMES=file           frames to serve: a YUV4MPEG2 file (.y4m, 8-bit 420/422/444/mono) or raw 8-bit
//                                  luma frames (FAKEV4L2_WIDTH x FAKEV4L2_HEIGHT each). Unset: a 320x240 pattern.
//   FAKEV4L2_FORMAT=YUYV|GREY|NV12|YU12   the only pixel format the device offers (default YUYV)
//   FAKEV4L2_PAD=N                 extra bytes at the end of every line (bytesperline = width*bpp + N)
//   FAKEV4L2_FPS=F                 frame rate, overriding what S_PARM asked for (default: S_PARM's, else 30)
//   FAKEV4L2_VANISH_AFTER=N        once the application has dequeued N frames, the device is unplugged at the
//                                  next frame time: ioctls fail with ENODEV, poll gives POLLHUP, open fails with
//                                  ENOENT for FAKEV4L2_VANISH_MS (default 500) ms, then the device is back.
//                                  Once, or after every N frames with FAKEV4L2_VANISH_REPEAT=1.
//   FAKEV4L2_BUSY=1|stream|open    stream (or 1): S_FMT and REQBUFS fail with EBUSY (another process streams);
//                                  open: open() itself fails with EBUSY
//   FAKEV4L2_STALL=1               streaming starts but no frame is ever delivered
//   FAKEV4L2_DENY=1                open fails with EACCES (permission denied)
//   FAKEV4L2_NOTCAP=1              the device is a video output, not a capture device
//   FAKEV4L2_LOG=1                 trace the fake device's calls on stderr
//   FAKEV4L2_STATS=1               when streaming stops, print the producer thread's CPU time on stderr (so that
//                                  benchmarks can subtract the fake "driver's" own work from the reader's)
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>
#include <linux/videodev2.h>

#define MAX_FDS 4096
#define MAX_BUFFERS 16
#define MAX_OPEN 32

// ---------------------------------------------------------------------------------------------------------------
// Real functions

typedef long (*syscall_fn)(long, ...);
typedef int (*open_fn)(const char *, int, ...);
typedef int (*openat_fn)(int, const char *, int, ...);
typedef int (*close_fn)(int);
typedef int (*ioctl_fn)(int, unsigned long, ...);
typedef void *(*mmap_fn)(void *, size_t, int, int, int, off_t);
typedef int (*munmap_fn)(void *, size_t);
typedef ssize_t (*read_fn)(int, void *, size_t);

static syscall_fn real_syscall;
static open_fn real_open, real_open64;
static openat_fn real_openat, real_openat64;
static close_fn real_close;
static ioctl_fn real_ioctl;
static mmap_fn real_mmap, real_mmap64;
static munmap_fn real_munmap;
static read_fn real_read;

// ---------------------------------------------------------------------------------------------------------------
// Configuration and device state

enum buf_state { BUF_DEQUEUED = 0, BUF_QUEUED = 1, BUF_DONE = 2 };

struct open_file {
    int used;
    int fd;           // read end of the pipe, the descriptor the application sees
    int wfd;          // write end, one byte per done buffer; -1 once the device vanished
    int generation;   // device generation when opened; a vanish makes older descriptors stale
    int nonblock;
};

static struct {
    pthread_once_t once;
    pthread_mutex_t lock;
    pthread_cond_t cond;   // signalled when a buffer is done or streaming stops (blocking DQBUF, producer stop)

    // configuration
    char device[PATH_MAX];
    const char *frames_path;
    uint32_t pixfmt;
    int pad;
    double fps_override;
    long vanish_after;
    long vanish_ms;
    int vanish_repeat;
    int busy_stream, busy_open;
    int stall, deny, notcap, log, stats;

    // the source frames, luma only
    int loaded;
    int width, height;      // served size (width rounded down to even for YUYV)
    int src_width;          // stride of the luma frames in memory
    int nframes;
    uint8_t *luma;          // nframes * src_width * height

    // format
    uint32_t bytesperline, sizeimage;
    uint32_t tpf_num, tpf_den;   // time per frame (S_PARM)

    // open descriptors
    struct open_file files[MAX_OPEN];
    volatile unsigned char is_fake[MAX_FDS];

    // buffers
    int owner_fd;           // descriptor that allocated the buffers, -1 when none
    int nbufs;
    size_t buflen;          // page-aligned stride between buffers in the memfd
    int memfd;
    uint8_t *mem;           // our own mapping of the memfd
    int state[MAX_BUFFERS];
    uint32_t seq[MAX_BUFFERS];
    struct timeval stamp[MAX_BUFFERS];
    int queued[MAX_BUFFERS], nqueued;   // FIFO of queued buffer indexes
    int done[MAX_BUFFERS], ndone;       // FIFO of done buffer indexes

    // streaming
    int streaming;
    int stop;
    int thread_started;
    pthread_t thread;
    uint32_t sequence;      // frames produced (delivered or dropped) since STREAMON
    long frame_index;       // next source frame to serve
    long delivered;         // frames the application dequeued since the device last (re)appeared

    // unplugging
    int generation;
    int vanished;
    int vanish_count;
    struct timespec vanish_time;
} dev = {
    .once = PTHREAD_ONCE_INIT,
    .lock = PTHREAD_MUTEX_INITIALIZER,
    .owner_fd = -1,
    .memfd = -1,
};

#define LOG(...) do { if (dev.log) { fprintf(stderr, "fakev4l2: " __VA_ARGS__); fputc('\n', stderr); } } while (0)

static long env_long(const char *name, long fallback) {
    const char *v = getenv(name);
    if (!v || !*v) return fallback;
    return strtol(v, NULL, 10);
}

static void resolve_real(void) {
    real_syscall = (syscall_fn)dlsym(RTLD_NEXT, "syscall");
    real_open = (open_fn)dlsym(RTLD_NEXT, "open");
    real_open64 = (open_fn)dlsym(RTLD_NEXT, "open64");
    real_openat = (openat_fn)dlsym(RTLD_NEXT, "openat");
    real_openat64 = (openat_fn)dlsym(RTLD_NEXT, "openat64");
    real_close = (close_fn)dlsym(RTLD_NEXT, "close");
    real_ioctl = (ioctl_fn)dlsym(RTLD_NEXT, "ioctl");
    real_mmap = (mmap_fn)dlsym(RTLD_NEXT, "mmap");
    real_mmap64 = (mmap_fn)dlsym(RTLD_NEXT, "mmap64");
    real_munmap = (munmap_fn)dlsym(RTLD_NEXT, "munmap");
    real_read = (read_fn)dlsym(RTLD_NEXT, "read");
}

static void init_once(void) {
    resolve_real();
    pthread_condattr_t attr;
    pthread_condattr_init(&attr);
    pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
    pthread_cond_init(&dev.cond, &attr);
    pthread_condattr_destroy(&attr);

    const char *d = getenv("FAKEV4L2_DEVICE");
    snprintf(dev.device, sizeof dev.device, "%s", (d && *d) ? d : "/dev/video42");
    dev.frames_path = getenv("FAKEV4L2_FRAMES");
    const char *f = getenv("FAKEV4L2_FORMAT");
    if (!f || !*f || !strcasecmp(f, "YUYV")) dev.pixfmt = V4L2_PIX_FMT_YUYV;
    else if (!strcasecmp(f, "GREY") || !strcasecmp(f, "GRAY")) dev.pixfmt = V4L2_PIX_FMT_GREY;
    else if (!strcasecmp(f, "NV12")) dev.pixfmt = V4L2_PIX_FMT_NV12;
    else if (!strcasecmp(f, "YU12") || !strcasecmp(f, "YUV420")) dev.pixfmt = V4L2_PIX_FMT_YUV420;
    else {
        fprintf(stderr, "fakev4l2: unknown FAKEV4L2_FORMAT %s, using YUYV\n", f);
        dev.pixfmt = V4L2_PIX_FMT_YUYV;
    }
    dev.pad = (int)env_long("FAKEV4L2_PAD", 0);
    if (dev.pad < 0) dev.pad = 0;
    const char *fps = getenv("FAKEV4L2_FPS");
    dev.fps_override = (fps && *fps) ? strtod(fps, NULL) : 0;
    dev.vanish_after = env_long("FAKEV4L2_VANISH_AFTER", 0);
    dev.vanish_ms = env_long("FAKEV4L2_VANISH_MS", 500);
    dev.vanish_repeat = (int)env_long("FAKEV4L2_VANISH_REPEAT", 0);
    const char *busy = getenv("FAKEV4L2_BUSY");
    if (busy && *busy) {
        if (!strcmp(busy, "open")) dev.busy_open = 1;
        else if (strcmp(busy, "0")) dev.busy_stream = 1;
    }
    dev.stall = (int)env_long("FAKEV4L2_STALL", 0);
    dev.deny = (int)env_long("FAKEV4L2_DENY", 0);
    dev.notcap = (int)env_long("FAKEV4L2_NOTCAP", 0);
    dev.log = (int)env_long("FAKEV4L2_LOG", 0);
    dev.stats = (int)env_long("FAKEV4L2_STATS", 0);
    dev.tpf_num = 1;
    dev.tpf_den = 30;
}

static void init(void) { pthread_once(&dev.once, init_once); }

static int is_fake_fd(int fd) { return fd >= 0 && fd < MAX_FDS && dev.is_fake[fd]; }

static struct open_file *file_for(int fd) {
    for (int i = 0; i < MAX_OPEN; i++)
        if (dev.files[i].used && dev.files[i].fd == fd) return &dev.files[i];
    return NULL;
}

// ---------------------------------------------------------------------------------------------------------------
// Source frames

static int load_y4m(FILE *fp) {
    char header[1024];
    if (!fgets(header, sizeof header, fp) || strncmp(header, "YUV4MPEG2 ", 10)) return -1;
    int w = 0, h = 0;
    char cs[32] = "420jpeg";
    for (char *tok = strtok(header + 10, " \n"); tok; tok = strtok(NULL, " \n")) {
        if (tok[0] == 'W') w = atoi(tok + 1);
        else if (tok[0] == 'H') h = atoi(tok + 1);
        else if (tok[0] == 'C') snprintf(cs, sizeof cs, "%s", tok + 1);
    }
    if (w <= 0 || h <= 0) return -1;
    size_t cw = (size_t)(w + 1) / 2, ch = (size_t)(h + 1) / 2;
    size_t chroma;
    if (!strncmp(cs, "420", 3) && (!cs[3] || !strcmp(cs + 3, "jpeg") || !strcmp(cs + 3, "paldv") || !strcmp(cs + 3, "mpeg2"))) chroma = 2 * cw * ch;
    else if (!strcmp(cs, "422")) chroma = 2 * cw * (size_t)h;
    else if (!strcmp(cs, "444")) chroma = 2 * (size_t)w * (size_t)h;
    else if (!strcmp(cs, "mono")) chroma = 0;
    else { fprintf(stderr, "fakev4l2: unsupported Y4M colourspace C%s\n", cs); return -1; }
    size_t lsize = (size_t)w * (size_t)h;
    int cap = 64, n = 0;
    uint8_t *luma = malloc(lsize * (size_t)cap);
    char line[256];
    while (fgets(line, sizeof line, fp)) {
        if (strncmp(line, "FRAME", 5)) break;
        if (n == cap) { cap *= 2; luma = realloc(luma, lsize * (size_t)cap); }
        if (fread(luma + lsize * (size_t)n, 1, lsize, fp) != lsize) break;
        if (chroma && fseek(fp, (long)chroma, SEEK_CUR)) break;
        n++;
    }
    if (n == 0) { free(luma); return -1; }
    dev.src_width = w;
    dev.width = w;
    dev.height = h;
    dev.nframes = n;
    dev.luma = luma;
    return 0;
}

static int load_raw(FILE *fp) {
    int w = (int)env_long("FAKEV4L2_WIDTH", 0), h = (int)env_long("FAKEV4L2_HEIGHT", 0);
    if (w <= 0 || h <= 0) { fprintf(stderr, "fakev4l2: raw frames need FAKEV4L2_WIDTH and FAKEV4L2_HEIGHT\n"); return -1; }
    size_t lsize = (size_t)w * (size_t)h;
    fseek(fp, 0, SEEK_END);
    long size = ftell(fp);
    fseek(fp, 0, SEEK_SET);
    int n = (int)((size_t)size / lsize);
    if (n <= 0) return -1;
    dev.luma = malloc(lsize * (size_t)n);
    if (fread(dev.luma, 1, lsize * (size_t)n, fp) != lsize * (size_t)n) return -1;
    dev.src_width = w;
    dev.width = w;
    dev.height = h;
    dev.nframes = n;
    return 0;
}

static void compute_format(void) {
    if (dev.pixfmt == V4L2_PIX_FMT_YUYV) dev.width &= ~1;
    if (dev.pixfmt == V4L2_PIX_FMT_NV12 || dev.pixfmt == V4L2_PIX_FMT_YUV420) { dev.width &= ~1; dev.height &= ~1; }
    int w = dev.width, h = dev.height;
    switch (dev.pixfmt) {
    case V4L2_PIX_FMT_YUYV: dev.bytesperline = (uint32_t)(w * 2 + dev.pad); dev.sizeimage = dev.bytesperline * (uint32_t)h; break;
    case V4L2_PIX_FMT_GREY: dev.bytesperline = (uint32_t)(w + dev.pad); dev.sizeimage = dev.bytesperline * (uint32_t)h; break;
    case V4L2_PIX_FMT_NV12: dev.bytesperline = (uint32_t)(w + dev.pad); dev.sizeimage = dev.bytesperline * (uint32_t)h * 3 / 2; break;
    default: // YU12: chroma planes have half the stride
        dev.bytesperline = (uint32_t)(w + (dev.pad & ~1)); dev.sizeimage = dev.bytesperline * (uint32_t)h * 3 / 2; break;
    }
}

static int load_frames(void) {
    if (dev.loaded) return 0;
    if (dev.frames_path && *dev.frames_path) {
        FILE *fp = fopen(dev.frames_path, "rb");
        if (!fp) { fprintf(stderr, "fakev4l2: cannot open FAKEV4L2_FRAMES %s: %s\n", dev.frames_path, strerror(errno)); return -1; }
        char magic[10] = {0};
        size_t got = fread(magic, 1, sizeof magic, fp);
        rewind(fp);
        int r = (got == sizeof magic && !memcmp(magic, "YUV4MPEG2 ", 10)) ? load_y4m(fp) : load_raw(fp);
        fclose(fp);
        if (r) { fprintf(stderr, "fakev4l2: cannot read frames from %s\n", dev.frames_path); return -1; }
    } else {
        // A moving diagonal gradient, 16 frames of 320x240.
        dev.width = dev.src_width = 320;
        dev.height = 240;
        dev.nframes = 16;
        dev.luma = malloc((size_t)320 * 240 * 16);
        for (int k = 0; k < 16; k++)
            for (int y = 0; y < 240; y++)
                for (int x = 0; x < 320; x++) dev.luma[((size_t)k * 240 + (size_t)y) * 320 + (size_t)x] = (uint8_t)(x + y + k * 8);
    }
    compute_format();
    dev.loaded = 1;
    return 0;
}

// Writes source frame `index` into buffer memory `out` in the device's pixel format.
static void render_frame(long index, uint8_t *out) {
    const uint8_t *src = dev.luma + (size_t)(index % dev.nframes) * (size_t)dev.src_width * (size_t)dev.height;
    int w = dev.width, h = dev.height;
    size_t bpl = dev.bytesperline;
    switch (dev.pixfmt) {
    case V4L2_PIX_FMT_YUYV:
        for (int y = 0; y < h; y++) {
            const uint8_t *s = src + (size_t)y * (size_t)dev.src_width;
            uint8_t *d = out + (size_t)y * bpl;
            for (int x = 0; x < w; x += 2) {
                d[0] = s[x]; d[1] = 128; d[2] = s[x + 1]; d[3] = 128;
                d += 4;
            }
            memset(d, 0, (size_t)dev.pad);
        }
        break;
    case V4L2_PIX_FMT_GREY:
    case V4L2_PIX_FMT_NV12:
    case V4L2_PIX_FMT_YUV420:
        for (int y = 0; y < h; y++) {
            memcpy(out + (size_t)y * bpl, src + (size_t)y * (size_t)dev.src_width, (size_t)w);
            memset(out + (size_t)y * bpl + (size_t)w, 0, bpl - (size_t)w);
        }
        if (dev.pixfmt != V4L2_PIX_FMT_GREY) memset(out + bpl * (size_t)h, 128, (size_t)dev.sizeimage - bpl * (size_t)h);
        break;
    }
}

// ---------------------------------------------------------------------------------------------------------------
// Buffers and streaming (all called with dev.lock held)

static void free_buffers(void) {
    if (dev.mem) real_munmap(dev.mem, dev.buflen * (size_t)dev.nbufs);
    if (dev.memfd >= 0) real_close(dev.memfd);
    dev.mem = NULL;
    dev.memfd = -1;
    dev.nbufs = 0;
    dev.owner_fd = -1;
    dev.nqueued = dev.ndone = 0;
}

static void drain_pipe(int fd) {
    char scratch[64];
    while (real_read(fd, scratch, sizeof scratch) > 0) {}
}

static struct timespec add_ns(struct timespec t, long long ns) {
    long long total = (long long)t.tv_nsec + ns;
    t.tv_sec += (time_t)(total / 1000000000LL);
    t.tv_nsec = (long)(total % 1000000000LL);
    return t;
}

static void vanish_locked(void) {
    LOG("device vanishes after %ld frames", dev.delivered);
    dev.vanished = 1;
    dev.vanish_count++;
    dev.generation++;
    clock_gettime(CLOCK_MONOTONIC, &dev.vanish_time);
    dev.streaming = 0;
    for (int i = 0; i < MAX_OPEN; i++) {
        if (dev.files[i].used && dev.files[i].wfd >= 0) {
            real_close(dev.files[i].wfd);   // the application's poll() now reports POLLHUP
            dev.files[i].wfd = -1;
        }
    }
    free_buffers();
    pthread_cond_broadcast(&dev.cond);
}

static void *producer(void *unused) {
    (void)unused;
    pthread_mutex_lock(&dev.lock);
    double fps = dev.fps_override > 0 ? dev.fps_override : (double)dev.tpf_den / (double)(dev.tpf_num ? dev.tpf_num : 1);
    if (fps < 0.1) fps = 0.1;
    if (fps > 5000) fps = 5000;
    long long period = (long long)(1e9 / fps);
    struct timespec next;
    clock_gettime(CLOCK_MONOTONIC, &next);
    next = add_ns(next, period);
    while (!dev.stop && dev.streaming) {
        int r = pthread_cond_timedwait(&dev.cond, &dev.lock, &next);
        if (dev.stop || !dev.streaming) break;
        if (r != ETIMEDOUT) continue;
        next = add_ns(next, period);
        if (dev.stall) continue;
        if (dev.vanish_after > 0 && dev.delivered >= dev.vanish_after && (dev.vanish_repeat || dev.vanish_count == 0)) {
            vanish_locked();
            dev.thread_started = 0;            // nobody will join us: the owner's descriptor is stale now
            pthread_detach(pthread_self());
            break;
        }
        uint32_t seq = dev.sequence++;
        if (dev.nqueued == 0) { LOG("frame %u dropped: no buffer queued", seq); dev.frame_index++; continue; }
        int index = dev.queued[0];
        memmove(dev.queued, dev.queued + 1, sizeof(int) * (size_t)(--dev.nqueued));
        render_frame(dev.frame_index++, dev.mem + (size_t)index * dev.buflen);
        struct timespec now;
        clock_gettime(CLOCK_MONOTONIC, &now);
        dev.stamp[index].tv_sec = now.tv_sec;
        dev.stamp[index].tv_usec = now.tv_nsec / 1000;
        dev.seq[index] = seq;
        dev.state[index] = BUF_DONE;
        dev.done[dev.ndone++] = index;
        struct open_file *of = file_for(dev.owner_fd);
        if (of && of->wfd >= 0) { char one = 1; ssize_t w = write(of->wfd, &one, 1); (void)w; }
        pthread_cond_broadcast(&dev.cond);
    }
    if (dev.stats) {
        struct timespec cpu;
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &cpu);
        fprintf(stderr, "{\"fakev4l2\":\"stats\",\"producedFrames\":%u,\"producerCpuSeconds\":%.6f}\n",
                dev.sequence, (double)cpu.tv_sec + (double)cpu.tv_nsec / 1e9);
    }
    pthread_mutex_unlock(&dev.lock);
    return NULL;
}

// Stops the producer thread; called with the lock held, returns with it held.
static void stop_streaming_locked(void) {
    dev.streaming = 0;
    if (dev.thread_started) {
        dev.stop = 1;
        pthread_cond_broadcast(&dev.cond);
        pthread_t t = dev.thread;
        dev.thread_started = 0;
        pthread_mutex_unlock(&dev.lock);
        pthread_join(t, NULL);
        pthread_mutex_lock(&dev.lock);
        dev.stop = 0;
    }
    for (int i = 0; i < dev.nbufs; i++) dev.state[i] = BUF_DEQUEUED;
    dev.nqueued = dev.ndone = 0;
    struct open_file *of = file_for(dev.owner_fd);
    if (of) drain_pipe(of->fd);
}

// ---------------------------------------------------------------------------------------------------------------
// The fake device's system calls

static int fail(int e) { errno = e; return -1; }

static int links_to_device(const char *path) {
    char current[PATH_MAX], target[PATH_MAX];
    snprintf(current, sizeof current, "%s", path);
    for (int hops = 0; hops < 8; hops++) {
        if (!strcmp(current, dev.device)) return 1;
        ssize_t n = readlink(current, target, sizeof target - 1);
        if (n <= 0) return 0;
        target[n] = 0;
        if (target[0] == '/') snprintf(current, sizeof current, "%s", target);
        else {
            char *slash = strrchr(current, '/');
            if (slash) { slash[1] = 0; }
            else current[0] = 0;
            char joined[PATH_MAX];
            snprintf(joined, sizeof joined, "%s%s", current, target);
            snprintf(current, sizeof current, "%s", joined);
        }
    }
    return 0;
}

static int is_device_path(const char *path) {
    init();
    return path && (!strcmp(path, dev.device) || links_to_device(path));
}

static int fake_open(const char *path, int flags) {
    pthread_mutex_lock(&dev.lock);
    int result;
    if (dev.vanished) {
        struct timespec now;
        clock_gettime(CLOCK_MONOTONIC, &now);
        long long elapsed_ms = (long long)(now.tv_sec - dev.vanish_time.tv_sec) * 1000 + (now.tv_nsec - dev.vanish_time.tv_nsec) / 1000000;
        if (elapsed_ms < dev.vanish_ms) { LOG("open %s: gone (ENOENT)", path); result = fail(ENOENT); goto out; }
        LOG("device is back after %lld ms", elapsed_ms);
        dev.vanished = 0;
        dev.delivered = 0;
    }
    if (dev.deny) { result = fail(EACCES); goto out; }
    if (dev.busy_open) { result = fail(EBUSY); goto out; }
    if (load_frames()) { result = fail(EIO); goto out; }
    struct open_file *slot = NULL;
    for (int i = 0; i < MAX_OPEN; i++) if (!dev.files[i].used) { slot = &dev.files[i]; break; }
    if (!slot) { result = fail(EMFILE); goto out; }
    int p[2];
    if (pipe2(p, O_NONBLOCK | O_CLOEXEC)) { result = -1; goto out; }
    if (p[0] >= MAX_FDS) { real_close(p[0]); real_close(p[1]); result = fail(EMFILE); goto out; }
    slot->used = 1;
    slot->fd = p[0];
    slot->wfd = p[1];
    slot->generation = dev.generation;
    slot->nonblock = (flags & O_NONBLOCK) != 0;
    dev.is_fake[p[0]] = 1;
    LOG("open %s -> fd %d%s", path, p[0], slot->nonblock ? " (non-blocking)" : "");
    result = p[0];
out:
    pthread_mutex_unlock(&dev.lock);
    return result;
}

static int fake_close(int fd) {
    pthread_mutex_lock(&dev.lock);
    struct open_file *of = file_for(fd);
    if (dev.owner_fd == fd) {
        stop_streaming_locked();
        free_buffers();
    }
    if (of) {
        if (of->wfd >= 0) real_close(of->wfd);
        of->used = 0;
    }
    dev.is_fake[fd] = 0;
    LOG("close fd %d", fd);
    int r = real_close(fd);
    pthread_mutex_unlock(&dev.lock);
    return r;
}

static void fill_format(struct v4l2_pix_format *pix) {
    memset(pix, 0, sizeof *pix);
    pix->width = (uint32_t)dev.width;
    pix->height = (uint32_t)dev.height;
    pix->pixelformat = dev.pixfmt;
    pix->field = V4L2_FIELD_NONE;
    pix->bytesperline = dev.bytesperline;
    pix->sizeimage = dev.sizeimage;
    pix->colorspace = V4L2_COLORSPACE_SRGB;
}

static void fill_buffer(struct v4l2_buffer *b, int index) {
    uint32_t type = b->type;
    memset(b, 0, sizeof *b);
    b->type = type;
    b->index = (uint32_t)index;
    b->memory = V4L2_MEMORY_MMAP;
    b->m.offset = (uint32_t)((size_t)index * dev.buflen);
    b->length = dev.sizeimage;
    b->field = V4L2_FIELD_NONE;
    b->flags = V4L2_BUF_FLAG_MAPPED | V4L2_BUF_FLAG_TIMESTAMP_MONOTONIC;
    if (dev.state[index] == BUF_QUEUED) b->flags |= V4L2_BUF_FLAG_QUEUED;
    if (dev.state[index] == BUF_DONE) {
        b->flags |= V4L2_BUF_FLAG_DONE;
        b->bytesused = dev.sizeimage;
        b->sequence = dev.seq[index];
        b->timestamp = dev.stamp[index];
    }
}

static const char *ioctl_name(unsigned long request) {
    switch (request) {
    case VIDIOC_QUERYCAP: return "QUERYCAP";
    case VIDIOC_ENUM_FMT: return "ENUM_FMT";
    case VIDIOC_G_FMT: return "G_FMT";
    case VIDIOC_S_FMT: return "S_FMT";
    case VIDIOC_TRY_FMT: return "TRY_FMT";
    case VIDIOC_REQBUFS: return "REQBUFS";
    case VIDIOC_QUERYBUF: return "QUERYBUF";
    case VIDIOC_QBUF: return "QBUF";
    case VIDIOC_DQBUF: return "DQBUF";
    case VIDIOC_STREAMON: return "STREAMON";
    case VIDIOC_STREAMOFF: return "STREAMOFF";
    case VIDIOC_G_PARM: return "G_PARM";
    case VIDIOC_S_PARM: return "S_PARM";
    case VIDIOC_ENUM_FRAMESIZES: return "ENUM_FRAMESIZES";
    case VIDIOC_ENUM_FRAMEINTERVALS: return "ENUM_FRAMEINTERVALS";
    default: return "other";
    }
}

static int fake_ioctl_locked(struct open_file *of, unsigned long request, void *arg) {
    if (!of) return fail(EBADF);
    if (of->generation != dev.generation || dev.vanished) return fail(ENODEV);
    int fd = of->fd;
    switch (request) {
    case VIDIOC_QUERYCAP: {
        struct v4l2_capability *cap = arg;
        memset(cap, 0, sizeof *cap);
        snprintf((char *)cap->driver, sizeof cap->driver, "fakev4l2");
        snprintf((char *)cap->card, sizeof cap->card, "Fake V4L2 camera");
        snprintf((char *)cap->bus_info, sizeof cap->bus_info, "platform:fakev4l2");
        cap->version = (6u << 16) | (1u << 8);
        cap->device_caps = dev.notcap ? (V4L2_CAP_VIDEO_OUTPUT | V4L2_CAP_STREAMING) : (V4L2_CAP_VIDEO_CAPTURE | V4L2_CAP_STREAMING);
        cap->capabilities = cap->device_caps | V4L2_CAP_DEVICE_CAPS;
        return 0;
    }
    case VIDIOC_ENUM_FMT: {
        struct v4l2_fmtdesc *d = arg;
        if (d->type != V4L2_BUF_TYPE_VIDEO_CAPTURE || d->index != 0) return fail(EINVAL);
        uint32_t index = d->index, type = d->type;
        memset(d, 0, sizeof *d);
        d->index = index;
        d->type = type;
        d->pixelformat = dev.pixfmt;
        snprintf((char *)d->description, sizeof d->description, "%.4s", (const char *)&dev.pixfmt);
        return 0;
    }
    case VIDIOC_ENUM_FRAMESIZES: {
        struct v4l2_frmsizeenum *s = arg;
        if (s->index != 0 || s->pixel_format != dev.pixfmt) return fail(EINVAL);
        s->type = V4L2_FRMSIZE_TYPE_DISCRETE;
        s->discrete.width = (uint32_t)dev.width;
        s->discrete.height = (uint32_t)dev.height;
        return 0;
    }
    case VIDIOC_ENUM_FRAMEINTERVALS: {
        struct v4l2_frmivalenum *iv = arg;
        if (iv->index != 0 || iv->pixel_format != dev.pixfmt || iv->width != (uint32_t)dev.width || iv->height != (uint32_t)dev.height) return fail(EINVAL);
        iv->type = V4L2_FRMIVAL_TYPE_DISCRETE;
        iv->discrete.numerator = 1;
        iv->discrete.denominator = 30;
        return 0;
    }
    case VIDIOC_G_FMT:
    case VIDIOC_S_FMT:
    case VIDIOC_TRY_FMT: {
        struct v4l2_format *fmt = arg;
        if (fmt->type != V4L2_BUF_TYPE_VIDEO_CAPTURE) return fail(EINVAL);
        if (request == VIDIOC_S_FMT && (dev.busy_stream || (dev.nbufs > 0 && dev.owner_fd != fd) || dev.streaming)) return fail(EBUSY);
        fill_format(&fmt->fmt.pix);
        return 0;
    }
    case VIDIOC_G_PARM:
    case VIDIOC_S_PARM: {
        struct v4l2_streamparm *p = arg;
        if (p->type != V4L2_BUF_TYPE_VIDEO_CAPTURE) return fail(EINVAL);
        if (request == VIDIOC_S_PARM && p->parm.capture.timeperframe.numerator && p->parm.capture.timeperframe.denominator) {
            dev.tpf_num = p->parm.capture.timeperframe.numerator;
            dev.tpf_den = p->parm.capture.timeperframe.denominator;
        }
        memset(&p->parm, 0, sizeof p->parm);
        p->parm.capture.capability = V4L2_CAP_TIMEPERFRAME;
        p->parm.capture.timeperframe.numerator = dev.tpf_num;
        p->parm.capture.timeperframe.denominator = dev.tpf_den;
        p->parm.capture.readbuffers = 0;
        return 0;
    }
    case VIDIOC_G_INPUT: *(int *)arg = 0; return 0;
    case VIDIOC_S_INPUT: return *(int *)arg == 0 ? 0 : fail(EINVAL);
    case VIDIOC_ENUMINPUT: {
        struct v4l2_input *in = arg;
        if (in->index != 0) return fail(EINVAL);
        memset(in, 0, sizeof *in);
        snprintf((char *)in->name, sizeof in->name, "Camera 1");
        in->type = V4L2_INPUT_TYPE_CAMERA;
        return 0;
    }
    case VIDIOC_REQBUFS: {
        struct v4l2_requestbuffers *req = arg;
        if (req->type != V4L2_BUF_TYPE_VIDEO_CAPTURE || req->memory != V4L2_MEMORY_MMAP) return fail(EINVAL);
        if (dev.busy_stream) return fail(EBUSY);
        if (dev.nbufs > 0 && dev.owner_fd != fd) return fail(EBUSY);
        if (dev.streaming) return fail(EBUSY);
        free_buffers();
        if (req->count == 0) return 0;
        uint32_t count = req->count < 2 ? 2 : (req->count > MAX_BUFFERS ? MAX_BUFFERS : req->count);
        long page = sysconf(_SC_PAGESIZE);
        dev.buflen = ((size_t)dev.sizeimage + (size_t)page - 1) / (size_t)page * (size_t)page;
        dev.memfd = memfd_create("fakev4l2", MFD_CLOEXEC);
        if (dev.memfd < 0) return -1;
        if (ftruncate(dev.memfd, (off_t)(dev.buflen * count))) { free_buffers(); return -1; }
        dev.mem = real_mmap(NULL, dev.buflen * count, PROT_READ | PROT_WRITE, MAP_SHARED, dev.memfd, 0);
        if (dev.mem == MAP_FAILED) { dev.mem = NULL; free_buffers(); return fail(ENOMEM); }
        dev.nbufs = (int)count;
        dev.owner_fd = fd;
        for (int i = 0; i < dev.nbufs; i++) dev.state[i] = BUF_DEQUEUED;
        req->count = count;
        req->capabilities = V4L2_BUF_CAP_SUPPORTS_MMAP;
        return 0;
    }
    case VIDIOC_QUERYBUF: {
        struct v4l2_buffer *b = arg;
        if (dev.owner_fd != fd || b->type != V4L2_BUF_TYPE_VIDEO_CAPTURE || b->index >= (uint32_t)dev.nbufs) return fail(EINVAL);
        fill_buffer(b, (int)b->index);
        return 0;
    }
    case VIDIOC_QBUF: {
        struct v4l2_buffer *b = arg;
        if (dev.owner_fd != fd || b->type != V4L2_BUF_TYPE_VIDEO_CAPTURE || b->memory != V4L2_MEMORY_MMAP || b->index >= (uint32_t)dev.nbufs) return fail(EINVAL);
        int index = (int)b->index;
        if (dev.state[index] != BUF_DEQUEUED) return fail(EINVAL);
        dev.state[index] = BUF_QUEUED;
        dev.queued[dev.nqueued++] = index;
        fill_buffer(b, index);
        return 0;
    }
    case VIDIOC_DQBUF: {
        struct v4l2_buffer *b = arg;
        if (dev.owner_fd != fd || b->type != V4L2_BUF_TYPE_VIDEO_CAPTURE || b->memory != V4L2_MEMORY_MMAP) return fail(EINVAL);
        if (!dev.streaming) return fail(EINVAL);
        while (dev.ndone == 0) {
            if (of->nonblock) return fail(EAGAIN);
            pthread_cond_wait(&dev.cond, &dev.lock);
            if (of->generation != dev.generation || dev.vanished) return fail(ENODEV);
            if (!dev.streaming) return fail(EINVAL);
        }
        int index = dev.done[0];
        memmove(dev.done, dev.done + 1, sizeof(int) * (size_t)(--dev.ndone));
        char one;
        ssize_t r = real_read(fd, &one, 1);
        (void)r;
        fill_buffer(b, index);
        dev.state[index] = BUF_DEQUEUED;
        b->flags &= ~(uint32_t)V4L2_BUF_FLAG_DONE;
        dev.delivered++;
        return 0;
    }
    case VIDIOC_STREAMON: {
        int type = *(int *)arg;
        if (type != V4L2_BUF_TYPE_VIDEO_CAPTURE || dev.owner_fd != fd || dev.nbufs == 0) return fail(EINVAL);
        if (dev.streaming) return 0;
        dev.streaming = 1;
        dev.stop = 0;
        dev.sequence = 0;
        if (pthread_create(&dev.thread, NULL, producer, NULL)) { dev.streaming = 0; return fail(ENOMEM); }
        dev.thread_started = 1;
        return 0;
    }
    case VIDIOC_STREAMOFF: {
        int type = *(int *)arg;
        if (type != V4L2_BUF_TYPE_VIDEO_CAPTURE) return fail(EINVAL);
        if (dev.owner_fd != fd) return dev.nbufs == 0 ? 0 : fail(EBUSY);
        stop_streaming_locked();
        return 0;
    }
    case VIDIOC_QUERYCTRL:
    case VIDIOC_QUERY_EXT_CTRL:
    case VIDIOC_G_CTRL:
    case VIDIOC_S_CTRL:
    case VIDIOC_G_EXT_CTRLS:
    case VIDIOC_S_EXT_CTRLS:
    case VIDIOC_TRY_EXT_CTRLS:
    case VIDIOC_QUERYMENU:
        return fail(EINVAL);
    default:
        return fail(ENOTTY);
    }
}

static int fake_ioctl(int fd, unsigned long request, void *arg) {
    pthread_mutex_lock(&dev.lock);
    int r = fake_ioctl_locked(file_for(fd), request, arg);
    int e = errno;
    if (dev.log && (r == 0 ? request != VIDIOC_DQBUF && request != VIDIOC_QBUF : e != EAGAIN))
        fprintf(stderr, "fakev4l2: ioctl fd %d %s (0x%lx) -> %d%s%s\n", fd, ioctl_name(request), request, r, r ? " " : "", r ? strerror(e) : "");
    pthread_mutex_unlock(&dev.lock);
    errno = e;
    return r;
}

static void *fake_mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off) {
    pthread_mutex_lock(&dev.lock);
    struct open_file *of = file_for(fd);
    void *r;
    if (!of || of->generation != dev.generation || dev.vanished) { errno = ENODEV; r = MAP_FAILED; }
    else if (dev.owner_fd != fd || off < 0 || (size_t)off % dev.buflen != 0 || (size_t)off / dev.buflen >= (size_t)dev.nbufs || len > dev.buflen) {
        errno = EINVAL;
        r = MAP_FAILED;
    } else {
        r = real_mmap(addr, len, prot, flags, dev.memfd, off);
    }
    LOG("mmap fd %d offset %ld length %zu -> %p", fd, (long)off, len, r);
    pthread_mutex_unlock(&dev.lock);
    return r;
}

// ---------------------------------------------------------------------------------------------------------------
// Interposed libc functions

long syscall(long number, ...) {
    va_list ap;
    va_start(ap, number);
    long a0 = va_arg(ap, long), a1 = va_arg(ap, long), a2 = va_arg(ap, long);
    long a3 = va_arg(ap, long), a4 = va_arg(ap, long), a5 = va_arg(ap, long);
    va_end(ap);
    init();
    switch (number) {
#ifdef SYS_open
    case SYS_open:
        if (is_device_path((const char *)a0)) return fake_open((const char *)a0, (int)a1);
        break;
#endif
    case SYS_openat:
        if (is_device_path((const char *)a1)) return fake_open((const char *)a1, (int)a2);
        break;
    case SYS_close:
        if (is_fake_fd((int)a0)) return fake_close((int)a0);
        break;
    case SYS_ioctl:
        if (is_fake_fd((int)a0)) return fake_ioctl((int)a0, (unsigned long)a1, (void *)a2);
        break;
    case SYS_mmap:
        if (is_fake_fd((int)a4)) return (long)fake_mmap((void *)a0, (size_t)a1, (int)a2, (int)a3, (int)a4, (off_t)a5);
        break;
    case SYS_read:
    case SYS_write:
        if (is_fake_fd((int)a0)) return fail(EINVAL);   // no read()/write() I/O, streaming only
        break;
    default:
        break;
    }
    return real_syscall(number, a0, a1, a2, a3, a4, a5);
}

static mode_t mode_arg(int flags, va_list ap) {
    return (flags & O_CREAT) || (flags & O_TMPFILE) == O_TMPFILE ? (mode_t)va_arg(ap, int) : 0;
}

int open(const char *path, int flags, ...) {
    va_list ap;
    va_start(ap, flags);
    mode_t mode = mode_arg(flags, ap);
    va_end(ap);
    if (is_device_path(path)) return fake_open(path, flags);
    return real_open(path, flags, mode);
}

int open64(const char *path, int flags, ...) {
    va_list ap;
    va_start(ap, flags);
    mode_t mode = mode_arg(flags, ap);
    va_end(ap);
    if (is_device_path(path)) return fake_open(path, flags);
    return real_open64(path, flags, mode);
}

int openat(int dirfd, const char *path, int flags, ...) {
    va_list ap;
    va_start(ap, flags);
    mode_t mode = mode_arg(flags, ap);
    va_end(ap);
    if (is_device_path(path)) return fake_open(path, flags);
    return real_openat(dirfd, path, flags, mode);
}

int openat64(int dirfd, const char *path, int flags, ...) {
    va_list ap;
    va_start(ap, flags);
    mode_t mode = mode_arg(flags, ap);
    va_end(ap);
    if (is_device_path(path)) return fake_open(path, flags);
    return real_openat64(dirfd, path, flags, mode);
}

// The fortified variants that -D_FORTIFY_SOURCE builds call instead of open()/open64().
int __open_2(const char *path, int flags) {
    if (is_device_path(path)) return fake_open(path, flags);
    return real_open(path, flags, 0);
}

int __open64_2(const char *path, int flags) {
    if (is_device_path(path)) return fake_open(path, flags);
    return real_open64(path, flags, 0);
}

int close(int fd) {
    init();
    if (is_fake_fd(fd)) return fake_close(fd);
    return real_close(fd);
}

int ioctl(int fd, unsigned long request, ...) {
    va_list ap;
    va_start(ap, request);
    void *arg = va_arg(ap, void *);
    va_end(ap);
    init();
    if (is_fake_fd(fd)) return fake_ioctl(fd, request, arg);
    return real_ioctl(fd, request, arg);
}

void *mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off) {
    init();
    if (is_fake_fd(fd)) return fake_mmap(addr, len, prot, flags, fd, off);
    return real_mmap(addr, len, prot, flags, fd, off);
}

void *mmap64(void *addr, size_t len, int prot, int flags, int fd, off_t off) {
    init();
    if (is_fake_fd(fd)) return fake_mmap(addr, len, prot, flags, fd, off);
    return real_mmap64(addr, len, prot, flags, fd, off);
}

int munmap(void *addr, size_t len) {
    init();
    return real_munmap(addr, len);   // buffers are ordinary memfd mappings: nothing to track
}

ssize_t read(int fd, void *buf, size_t n) {
    init();
    if (is_fake_fd(fd)) { errno = EINVAL; return -1; }
    return real_read(fd, buf, n);
}
