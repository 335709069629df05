/* The system library LibZ (Debian: zlib1g-dev), found through pkg-config (zlib). */
#include <zlib.h>
