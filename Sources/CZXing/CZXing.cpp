// The extern "C" surface of CZXing.h over zxing-cpp's C++ API. No exception crosses into Swift.
#include "CZXing.h"

// Result::text() as UTF-8 (std::string) rather than std::wstring.
#define ZX_USE_UTF8 1

#include <ReadBarcode.h>
#include <ZXVersion.h>

#include <new>
#include <string>
#include <vector>

struct CZXingResults {
    ZXing::Results results;
    // text() builds a string on each call; kept here so the pointers handed out stay valid.
    std::vector<std::string> texts;
};

#define CZXING_STRINGIFY2(x) #x
#define CZXING_STRINGIFY(x) CZXING_STRINGIFY2(x)

extern "C" {

int32_t czxing_read(const uint8_t *luma, int32_t width, int32_t height, int32_t row_stride,
                    const CZXingOptions *options, CZXingResults **results) {
    if (!results) return CZXING_BAD_ARGUMENT;
    *results = nullptr;
    if (!luma || width <= 0 || height <= 0 || row_stride < width) return CZXING_BAD_ARGUMENT;
    try {
        ZXing::ImageView image(luma, width, height, ZXing::ImageFormat::Lum, row_stride);
        ZXing::DecodeHints hints;
        CZXingOptions defaults = {};
        const CZXingOptions &o = options ? *options : defaults;
        if (o.formats != 0) hints.setFormats(ZXing::BarcodeFormats(static_cast<ZXing::BarcodeFormat>(o.formats)));
        hints.setTryHarder(o.try_harder != 0);
        hints.setTryRotate(o.try_rotate != 0);
        hints.setTryDownscale(o.try_downscale != 0);
        if (o.max_symbols > 0) hints.setMaxNumberOfSymbols(static_cast<uint8_t>(o.max_symbols > 255 ? 255 : o.max_symbols));
        auto *out = new CZXingResults;
        out->results = ZXing::ReadBarcodes(image, hints);
        out->texts.reserve(out->results.size());
        for (const auto &result : out->results) out->texts.push_back(result.text());
        *results = out;
        return CZXING_OK;
    } catch (...) {
        return CZXING_FAILED;
    }
}

int32_t czxing_results_count(const CZXingResults *results) {
    return results ? static_cast<int32_t>(results->results.size()) : 0;
}

CZXingSymbol czxing_results_symbol(const CZXingResults *results, int32_t index) {
    CZXingSymbol symbol = {};
    if (!results || index < 0 || static_cast<size_t>(index) >= results->results.size()) return symbol;
    const ZXing::Result &result = results->results[index];
    symbol.format = static_cast<int32_t>(result.format());
    const ZXing::ByteArray &bytes = result.bytes();
    symbol.bytes = bytes.data();
    symbol.byte_count = static_cast<int32_t>(bytes.size());
    const std::string &text = results->texts[index];
    symbol.text = text.data();
    symbol.text_length = static_cast<int32_t>(text.size());
    symbol.has_eci = result.hasECI() ? 1 : 0;
    const ZXing::Position &position = result.position();
    for (int corner = 0; corner < 4; ++corner) {
        symbol.x[corner] = position[corner].x;
        symbol.y[corner] = position[corner].y;
    }
    symbol.mirrored = result.isMirrored() ? 1 : 0;
    return symbol;
}

void czxing_results_free(CZXingResults *results) {
    delete results;
}

const char *czxing_version(void) {
    return CZXING_STRINGIFY(ZXING_VERSION_MAJOR) "." CZXING_STRINGIFY(ZXING_VERSION_MINOR) "." CZXING_STRINGIFY(ZXING_VERSION_PATCH);
}

}
