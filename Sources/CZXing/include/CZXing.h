#ifndef STOPKIOSK_CZXING_H
#define STOPKIOSK_CZXING_H

/* A thin C surface over zxing-cpp 1.4's ReadBarcodes (C++), for Swift. The image is read in place (a luma
 * buffer with a row stride, never copied); what comes back is only what the caller uses: each symbol's format,
 * stored bytes, zxing's text, and the four corners of its position. */
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* zxing-cpp's BarcodeFormat bits (ZXing/BarcodeFormat.h), the subset the kiosk can be configured to read. */
enum {
    CZXING_FORMAT_CODABAR = 1 << 1,
    CZXING_FORMAT_CODE39 = 1 << 2,
    CZXING_FORMAT_CODE93 = 1 << 3,
    CZXING_FORMAT_CODE128 = 1 << 4,
    CZXING_FORMAT_DATABAR = 1 << 5,
    CZXING_FORMAT_DATABAR_EXPANDED = 1 << 6,
    CZXING_FORMAT_EAN8 = 1 << 8,
    CZXING_FORMAT_EAN13 = 1 << 9,
    CZXING_FORMAT_ITF = 1 << 10,
    CZXING_FORMAT_PDF417 = 1 << 12,
    CZXING_FORMAT_QR_CODE = 1 << 13,
    CZXING_FORMAT_UPCA = 1 << 14,
    CZXING_FORMAT_UPCE = 1 << 15,
};

/* How hard zxing looks (DecodeHints). Zero-initialised means: every format, fast mode. */
typedef struct CZXingOptions {
    /* CZXING_FORMAT_* bits; 0 = every format zxing knows. */
    int32_t formats;
    /* DecodeHints::tryHarder: more scan lines and finder-pattern candidates (slower, reads more). */
    int32_t try_harder;
    /* DecodeHints::tryRotate: also 90° rotations (for 1D codes). */
    int32_t try_rotate;
    /* DecodeHints::tryDownscale: also downscaled copies of large images (zxing's own pyramid). */
    int32_t try_downscale;
    /* Most symbols to return (0 = no limit). */
    int32_t max_symbols;
} CZXingOptions;

/* One symbol. Pointers point into the results object and live until czxing_results_free. */
typedef struct CZXingSymbol {
    int32_t format;            /* one CZXING_FORMAT_* bit */
    const uint8_t *bytes;      /* the payload bytes as stored in the code (ECI designators removed) */
    int32_t byte_count;
    const char *text;          /* zxing's UTF-8 text: the bytes in their ECI charset, or its guess */
    int32_t text_length;
    int32_t has_eci;           /* the code declared its charset (then `text` is authoritative) */
    int32_t x[4], y[4];        /* corners in image pixels: top-left, top-right, bottom-right, bottom-left */
    int32_t mirrored;          /* the code was read mirrored */
} CZXingSymbol;

typedef struct CZXingResults CZXingResults;

/* Status codes of czxing_read. */
enum {
    CZXING_OK = 0,
    CZXING_BAD_ARGUMENT = -1,  /* null buffer, non-positive size, stride below width */
    CZXING_FAILED = -2,        /* zxing threw (out of memory); `*results` is NULL */
};

/* Reads every symbol in a width × height 8-bit luma image whose rows start `row_stride` bytes apart. The
 * buffer is only read, and only during the call. On CZXING_OK, `*results` holds the symbols (possibly none)
 * and must be freed with czxing_results_free. */
int32_t czxing_read(const uint8_t *luma, int32_t width, int32_t height, int32_t row_stride,
                    const CZXingOptions *options, CZXingResults **results);

int32_t czxing_results_count(const CZXingResults *results);
/* Symbol `index` (0 ≤ index < count). */
CZXingSymbol czxing_results_symbol(const CZXingResults *results, int32_t index);
void czxing_results_free(CZXingResults *results);

/* The zxing-cpp version the shim was built against, e.g. "1.4.0". */
const char *czxing_version(void);

#ifdef __cplusplus
}
#endif

#endif
