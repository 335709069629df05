/* The system library LibV4L2 (Debian: libv4l-dev), found through pkg-config (libv4l2). */
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <linux/videodev2.h>
#include <libv4l2.h>
