#include "CV4L2.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/ioctl.h>
#include <unistd.h>

const unsigned long CV4L2_VIDIOC_QUERYCAP = VIDIOC_QUERYCAP;
const unsigned long CV4L2_VIDIOC_ENUM_FMT = VIDIOC_ENUM_FMT;
const unsigned long CV4L2_VIDIOC_G_FMT = VIDIOC_G_FMT;
const unsigned long CV4L2_VIDIOC_S_FMT = VIDIOC_S_FMT;
const unsigned long CV4L2_VIDIOC_TRY_FMT = VIDIOC_TRY_FMT;
const unsigned long CV4L2_VIDIOC_REQBUFS = VIDIOC_REQBUFS;
const unsigned long CV4L2_VIDIOC_QUERYBUF = VIDIOC_QUERYBUF;
const unsigned long CV4L2_VIDIOC_QBUF = VIDIOC_QBUF;
const unsigned long CV4L2_VIDIOC_DQBUF = VIDIOC_DQBUF;
const unsigned long CV4L2_VIDIOC_STREAMON = VIDIOC_STREAMON;
const unsigned long CV4L2_VIDIOC_STREAMOFF = VIDIOC_STREAMOFF;
const unsigned long CV4L2_VIDIOC_G_PARM = VIDIOC_G_PARM;
const unsigned long CV4L2_VIDIOC_S_PARM = VIDIOC_S_PARM;
const unsigned long CV4L2_VIDIOC_ENUM_FRAMESIZES = VIDIOC_ENUM_FRAMESIZES;
const unsigned long CV4L2_VIDIOC_ENUM_FRAMEINTERVALS = VIDIOC_ENUM_FRAMEINTERVALS;

const uint32_t CV4L2_PIX_FMT_YUV420 = V4L2_PIX_FMT_YUV420;
const uint32_t CV4L2_PIX_FMT_YVU420 = V4L2_PIX_FMT_YVU420;
const uint32_t CV4L2_PIX_FMT_GREY = V4L2_PIX_FMT_GREY;
const uint32_t CV4L2_PIX_FMT_YUYV = V4L2_PIX_FMT_YUYV;
const uint32_t CV4L2_PIX_FMT_UYVY = V4L2_PIX_FMT_UYVY;
const uint32_t CV4L2_PIX_FMT_NV12 = V4L2_PIX_FMT_NV12;
const uint32_t CV4L2_PIX_FMT_NV21 = V4L2_PIX_FMT_NV21;
const uint32_t CV4L2_PIX_FMT_MJPEG = V4L2_PIX_FMT_MJPEG;
const uint32_t CV4L2_PIX_FMT_JPEG = V4L2_PIX_FMT_JPEG;
const uint32_t CV4L2_PIX_FMT_RGB24 = V4L2_PIX_FMT_RGB24;
const uint32_t CV4L2_PIX_FMT_BGR24 = V4L2_PIX_FMT_BGR24;

int cv4l2_open(const char *path, int flags) {
    return v4l2_open(path, flags, 0);
}

int cv4l2_open_raw(const char *path, int flags) {
    return open(path, flags);
}

int cv4l2_close_raw(int fd) {
    return close(fd);
}

int cv4l2_ioctl(int fd, unsigned long request, void *arg) {
    int r;
    do {
        r = v4l2_ioctl(fd, request, arg);
    } while (r == -1 && errno == EINTR);
    return r;
}

int cv4l2_ioctl_int(int fd, unsigned long request, int value) {
    return cv4l2_ioctl(fd, request, &value);
}

int cv4l2_driver_ioctl(int fd, unsigned long request, void *arg) {
    int r;
    do {
        r = ioctl(fd, request, arg);
    } while (r == -1 && errno == EINTR);
    return r;
}
