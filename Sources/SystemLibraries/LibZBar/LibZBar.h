/* The system library LibZBar (Debian: libzbar-dev), found through pkg-config (zbar). */
#include <zbar.h>
