/* zxing-cpp (Debian's libzxing-dev) as a system library. Its API is C++, so nothing is imported into Swift
 * from here: this module only carries the pkg-config flags (include path, -lZXing) to the CZXing shim, which
 * wraps the C++ API in a small extern "C" surface. */
#ifndef STOPKIOSK_CZXING_LIBRARY_H
#define STOPKIOSK_CZXING_LIBRARY_H
#endif
