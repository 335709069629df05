// CV4L2: the thin C layer between the Scanning library and libv4l2.
//
// libv4l2 and <linux/videodev2.h> import into Swift almost entirely, except for two kinds of things:
//  - function-like macros (VIDIOC_* built with _IOR/_IOWR, V4L2_PIX_FMT_* built with v4l2_fourcc), which Swift
//    cannot evaluate; they are exposed here as `extern const` values defined in CV4L2.c (the pattern swift-nio's
//    CNIOLinux uses for socket and ioctl constants);
//  - variadic functions (v4l2_open, v4l2_ioctl), which Swift cannot call; they get fixed-arity wrappers.
#ifndef CV4L2_H
#define CV4L2_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <linux/videodev2.h>
#include <libv4l2.h>

// ioctl requests
extern const unsigned long CV4L2_VIDIOC_QUERYCAP;
extern const unsigned long CV4L2_VIDIOC_ENUM_FMT;
extern const unsigned long CV4L2_VIDIOC_G_FMT;
extern const unsigned long CV4L2_VIDIOC_S_FMT;
extern const unsigned long CV4L2_VIDIOC_TRY_FMT;
extern const unsigned long CV4L2_VIDIOC_REQBUFS;
extern const unsigned long CV4L2_VIDIOC_QUERYBUF;
extern const unsigned long CV4L2_VIDIOC_QBUF;
extern const unsigned long CV4L2_VIDIOC_DQBUF;
extern const unsigned long CV4L2_VIDIOC_STREAMON;
extern const unsigned long CV4L2_VIDIOC_STREAMOFF;
extern const unsigned long CV4L2_VIDIOC_G_PARM;
extern const unsigned long CV4L2_VIDIOC_S_PARM;
extern const unsigned long CV4L2_VIDIOC_ENUM_FRAMESIZES;
extern const unsigned long CV4L2_VIDIOC_ENUM_FRAMEINTERVALS;

// pixel formats (fourcc codes)
extern const uint32_t CV4L2_PIX_FMT_YUV420;
extern const uint32_t CV4L2_PIX_FMT_YVU420;
extern const uint32_t CV4L2_PIX_FMT_GREY;
extern const uint32_t CV4L2_PIX_FMT_YUYV;
extern const uint32_t CV4L2_PIX_FMT_UYVY;
extern const uint32_t CV4L2_PIX_FMT_NV12;
extern const uint32_t CV4L2_PIX_FMT_NV21;
extern const uint32_t CV4L2_PIX_FMT_MJPEG;
extern const uint32_t CV4L2_PIX_FMT_JPEG;
extern const uint32_t CV4L2_PIX_FMT_RGB24;
extern const uint32_t CV4L2_PIX_FMT_BGR24;

/// v4l2_open(path, flags) without the variadic mode argument.
int cv4l2_open(const char *path, int flags);

/// Plain open(2) of a device node, for handing to v4l2_fd_open after asking the driver directly what it offers.
int cv4l2_open_raw(const char *path, int flags);

/// Plain close(2), for a descriptor that v4l2_fd_open refused.
int cv4l2_close_raw(int fd);

/// v4l2_ioctl with a pointer argument, retried on EINTR. Returns -1 and sets errno on failure.
int cv4l2_ioctl(int fd, unsigned long request, void *arg);

/// v4l2_ioctl for requests whose argument is a buffer type (STREAMON/STREAMOFF), retried on EINTR.
int cv4l2_ioctl_int(int fd, unsigned long request, int value);

/// The driver's own answer, bypassing libv4l2 (plain ioctl(2), retried on EINTR). Only for queries such as
/// VIDIOC_ENUM_FMT, where libv4l2 mixes its emulated formats into the list.
int cv4l2_driver_ioctl(int fd, unsigned long request, void *arg);

#endif
