/* The system library LibCairo (Debian: libcairo2-dev), found through pkg-config (cairo). */
#include <cairo.h>
#include <cairo-pdf.h>
#include <cairo-svg.h>
