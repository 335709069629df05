/* The system library LibQREncode (Debian: libqrencode-dev), found through pkg-config (libqrencode). */
#include <qrencode.h>
