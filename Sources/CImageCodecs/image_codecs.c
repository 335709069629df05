#include "CImageCodecs.h"

#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <png.h>
#include <jpeglib.h>
#include <jerror.h>

static void set_error(cic_grey_image *out, const char *message) {
    snprintf(out->error, sizeof out->error, "%s", message);
}

static int dimensions_ok(cic_grey_image *out, unsigned long width, unsigned long height) {
    if (width == 0 || height == 0) {
        set_error(out, "image has zero width or height");
        return 0;
    }
    if (width > CIC_MAX_DIMENSION || height > CIC_MAX_DIMENSION ||
        (unsigned long long)width * height > CIC_MAX_PIXELS) {
        snprintf(out->error, sizeof out->error, "image is too large (%lux%lu)", width, height);
        return 0;
    }
    return 1;
}

void cic_grey_image_free(cic_grey_image *image) {
    if (image == NULL) return;
    free(image->pixels);
    image->pixels = NULL;
}

/* ---------------------------------------------------------------- PNG */

typedef struct png_context {
    jmp_buf jump;
    cic_grey_image *out;
    const unsigned char *data;
    size_t length;
    size_t offset;
    /* Heap blocks owned while decoding, freed on both paths (kept here, not in locals, so that they survive
     * a longjmp without needing volatile). */
    unsigned char *rgba;
    png_bytep *rows;
} png_context;

static void png_error_handler(png_structp png, png_const_charp message) {
    png_context *context = (png_context *)png_get_error_ptr(png);
    set_error(context->out, message != NULL ? message : "libpng error");
    longjmp(context->jump, 1);
}

static void png_warning_handler(png_structp png, png_const_charp message) {
    (void)png;
    (void)message; /* Ancillary-chunk problems: the image is still usable. */
}

static void png_read_memory(png_structp png, png_bytep destination, png_size_t count) {
    png_context *context = (png_context *)png_get_io_ptr(png);
    if (count > context->length - context->offset) {
        context->out->truncated = 1;
        png_error(png, "file ends before the image data does (truncated)");
    }
    memcpy(destination, context->data + context->offset, count);
    context->offset += count;
}

int cic_decode_png(const unsigned char *data, size_t length, cic_grey_image *out) {
    memset(out, 0, sizeof *out);
    if (length < 8 || png_sig_cmp((png_const_bytep)data, 0, 8) != 0) {
        set_error(out, "not a PNG file (bad signature)");
        return -1;
    }
    png_context context;
    memset(&context, 0, sizeof context);
    context.out = out;
    context.data = data;
    context.length = length;

    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &context, png_error_handler,
                                             png_warning_handler);
    if (png == NULL) {
        set_error(out, "out of memory");
        return -1;
    }
    png_infop info = png_create_info_struct(png);
    if (info == NULL) {
        png_destroy_read_struct(&png, NULL, NULL);
        set_error(out, "out of memory");
        return -1;
    }
    if (setjmp(context.jump)) {
        png_destroy_read_struct(&png, &info, NULL);
        free(context.rows);
        free(context.rgba);
        free(out->pixels);
        out->pixels = NULL;
        out->width = 0;
        out->height = 0;
        return -1;
    }
    png_set_read_fn(png, &context, png_read_memory);
    png_set_user_limits(png, CIC_MAX_DIMENSION, CIC_MAX_DIMENSION);
    png_read_info(png, info);

    png_uint_32 width = png_get_image_width(png, info);
    png_uint_32 height = png_get_image_height(png, info);
    if (!dimensions_ok(out, width, height)) {
        char message[sizeof out->error];
        memcpy(message, out->error, sizeof message);
        png_error(png, message);
    }

    /* Normalise every colour type and depth to 8-bit grey + alpha:
     * palette -> RGB, grey < 8 bits -> 8 bits, tRNS -> alpha, 16 -> 8 bits, RGB -> grey, add opaque alpha. */
    int color_type = png_get_color_type(png, info);
    png_set_expand(png);
    if (png_get_valid(png, info, PNG_INFO_tRNS)) png_set_tRNS_to_alpha(png);
    png_set_scale_16(png);
    if (color_type == PNG_COLOR_TYPE_RGB || color_type == PNG_COLOR_TYPE_RGB_ALPHA ||
        color_type == PNG_COLOR_TYPE_PALETTE) {
        /* Rec. 709 weights, the libpng default when passing negative values. */
        png_set_rgb_to_gray_fixed(png, 1, -1, -1);
    }
    png_set_add_alpha(png, 0xff, PNG_FILLER_AFTER);
    png_set_interlace_handling(png);
    png_read_update_info(png, info);

    size_t row_bytes = png_get_rowbytes(png, info);
    if (row_bytes != (size_t)width * 2) {
        png_error(png, "unexpected pixel layout after conversion to grey");
    }
    context.rgba = malloc(row_bytes * height);
    context.rows = malloc(sizeof(png_bytep) * height);
    if (context.rgba == NULL || context.rows == NULL) png_error(png, "out of memory");
    for (png_uint_32 y = 0; y < height; y++) context.rows[y] = context.rgba + (size_t)y * row_bytes;
    png_read_image(png, context.rows);
    png_read_end(png, NULL);

    out->pixels = malloc((size_t)width * height);
    if (out->pixels == NULL) png_error(png, "out of memory");
    size_t count = (size_t)width * height;
    const unsigned char *source = context.rgba;
    for (size_t i = 0; i < count; i++) {
        unsigned grey = source[2 * i];
        unsigned alpha = source[2 * i + 1];
        /* Composite onto white: transparent backgrounds of rendered codes become paper. */
        out->pixels[i] = (unsigned char)((grey * alpha + 255u * (255u - alpha) + 127u) / 255u);
    }
    out->width = (int)width;
    out->height = (int)height;

    png_destroy_read_struct(&png, &info, NULL);
    free(context.rows);
    free(context.rgba);
    return 0;
}

/* ---------------------------------------------------------------- JPEG */

typedef struct jpeg_context {
    struct jpeg_error_mgr manager; /* first member: libjpeg hands us a pointer to it */
    jmp_buf jump;
    cic_grey_image *out;
    int hit_eof;
    unsigned char *cmyk_row;
} jpeg_context;

static void jpeg_error_exit_handler(j_common_ptr info) {
    jpeg_context *context = (jpeg_context *)info->err;
    char message[JMSG_LENGTH_MAX];
    (*info->err->format_message)(info, message);
    set_error(context->out, message);
    longjmp(context->jump, 1);
}

static void jpeg_emit_message_handler(j_common_ptr info, int level) {
    jpeg_context *context = (jpeg_context *)info->err;
    if (level < 0) {
        /* Warnings. Premature end of data is what a truncated file gives: libjpeg pads with grey and goes on;
         * we report it instead. Other corrupt-data warnings leave a usable image. */
        if (info->err->msg_code == JWRN_JPEG_EOF) context->hit_eof = 1;
        info->err->num_warnings++;
    }
}

int cic_decode_jpeg(const unsigned char *data, size_t length, cic_grey_image *out) {
    memset(out, 0, sizeof *out);
    if (length < 3 || data[0] != 0xFF || data[1] != 0xD8) {
        set_error(out, "not a JPEG file (bad signature)");
        return -1;
    }
    struct jpeg_decompress_struct info;
    jpeg_context context;
    memset(&context, 0, sizeof context);
    context.out = out;
    info.err = jpeg_std_error(&context.manager);
    context.manager.error_exit = jpeg_error_exit_handler;
    context.manager.emit_message = jpeg_emit_message_handler;

    if (setjmp(context.jump)) {
        jpeg_destroy_decompress(&info);
        free(context.cmyk_row);
        free(out->pixels);
        out->pixels = NULL;
        out->width = 0;
        out->height = 0;
        if (context.hit_eof) out->truncated = 1;
        return -1;
    }
    jpeg_create_decompress(&info);
    jpeg_mem_src(&info, data, (unsigned long)length);
    jpeg_read_header(&info, TRUE);
    if (context.hit_eof) {
        out->truncated = 1;
        ERREXIT(&info, JERR_INPUT_EOF);
    }
    if (!dimensions_ok(out, info.image_width, info.image_height)) longjmp(context.jump, 1);
    int cmyk = info.jpeg_color_space == JCS_CMYK || info.jpeg_color_space == JCS_YCCK;
    info.out_color_space = cmyk ? JCS_CMYK : JCS_GRAYSCALE;
    jpeg_start_decompress(&info);

    unsigned long width = info.output_width;
    unsigned long height = info.output_height;
    out->pixels = malloc((size_t)width * height);
    if (out->pixels == NULL) ERREXIT(&info, JERR_OUT_OF_MEMORY);
    if (cmyk) {
        context.cmyk_row = malloc((size_t)width * 4);
        if (context.cmyk_row == NULL) ERREXIT(&info, JERR_OUT_OF_MEMORY);
    }
    while (info.output_scanline < info.output_height) {
        if (context.hit_eof) break;
        JDIMENSION y = info.output_scanline;
        unsigned char *destination = out->pixels + (size_t)y * width;
        JSAMPROW row = cmyk ? context.cmyk_row : destination;
        if (jpeg_read_scanlines(&info, &row, 1) != 1) break;
        if (cmyk) {
            /* Adobe CMYK JPEGs store inverted ink values, so C*K/255 is already the red channel, etc. */
            for (unsigned long x = 0; x < width; x++) {
                const unsigned char *p = context.cmyk_row + 4 * x;
                unsigned k = p[3];
                unsigned r = p[0] * k / 255u, g = p[1] * k / 255u, b = p[2] * k / 255u;
                destination[x] = (unsigned char)((54u * r + 183u * g + 19u * b + 128u) >> 8);
            }
        }
    }
    if (context.hit_eof || info.output_scanline < info.output_height) {
        out->truncated = 1;
        set_error(out, "file ends before the image data does (truncated)");
        longjmp(context.jump, 1);
    }
    jpeg_finish_decompress(&info);
    jpeg_destroy_decompress(&info);
    free(context.cmyk_row);
    out->width = (int)width;
    out->height = (int)height;
    return 0;
}
