#ifndef STOPKIOSK_CIMAGECODECS_H
#define STOPKIOSK_CIMAGECODECS_H

#include <stddef.h>

/* Decoders for still images into 8-bit greyscale (luma), one byte per pixel, rows packed (no padding).
 *
 * Both functions decode from memory (the Swift side reads the file and sniffs its format), never abort the
 * process on bad input (libpng and libjpeg errors are caught with setjmp/longjmp), and refuse images larger
 * than CIC_MAX_DIMENSION on a side or CIC_MAX_PIXELS in all, so a hostile header cannot ask for gigabytes. */

#define CIC_MAX_DIMENSION 32768
/* 50 megapixels, as ImageFile.maximumPixels (which refuses larger headers first, with a typed error): this is the
 * backstop for a header the Swift side could not read. */
#define CIC_MAX_PIXELS 50000000u

typedef struct cic_grey_image {
    /* malloc'ed width*height bytes on success, NULL on failure; release with cic_grey_image_free. */
    unsigned char *pixels;
    int width;
    int height;
    /* On failure: a NUL-terminated message from the library or from this shim. */
    char error[200];
    /* On failure: 1 when the data ended early (truncated file), 0 otherwise. */
    int truncated;
} cic_grey_image;

/* Decodes a PNG of any colour type and bit depth (palette, grey, RGB, with or without alpha or tRNS, 1 to 16
 * bits, interlaced or not). Transparent pixels are composited onto white. Returns 0 on success, -1 on failure. */
int cic_decode_png(const unsigned char *data, size_t length, cic_grey_image *out);

/* Decodes a baseline or progressive JPEG (greyscale, YCbCr, CMYK/YCCK) to luma. A file that ends before the
 * image data does is reported as truncated (an error), not silently padded with grey. 0 on success, -1 on
 * failure. */
int cic_decode_jpeg(const unsigned char *data, size_t length, cic_grey_image *out);

/* Frees the pixels of a decoded image (safe on a failed or zeroed one). */
void cic_grey_image_free(cic_grey_image *image);

#endif
