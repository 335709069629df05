#ifndef STOPKIOSK_CZBAR_H
#define STOPKIOSK_CZBAR_H

/* Thin shim over zbar: the library header plus the values that are macros in zbar.h and so do not import
 * into Swift. Everything else (zbar_image_scanner_*, zbar_image_*, zbar_symbol_*, the zbar_symbol_type_e and
 * zbar_config_e enums) is used from Swift directly. */
#include <zbar.h>

/* zbar_fourcc('Y','8','0','0'): 8-bit luma, no padding, the format LumaFrame holds. */
extern const unsigned long CZBAR_FOURCC_Y800;
/* zbar_fourcc('G','R','E','Y'): zbar's alias for Y800. */
extern const unsigned long CZBAR_FOURCC_GREY;

#endif
