#include "image_io.hpp"

#include <cstring>
#include <mutex>
#include <opencv2/core/utils/logger.hpp>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include "guarded.hpp"

namespace {

// Decode failures come back as statuses with messages; OpenCV's log lines would only repeat them
// (imdecode in 4.6 still writes its own line to stderr for truncated files).
void silence_opencv_log() {
    static std::once_flag once;
    std::call_once(once, [] { cv::utils::logging::setLogLevel(cv::utils::logging::LOG_LEVEL_SILENT); });
}

// libjpeg decodes a truncated JPEG without error (the missing rows come out grey), so check that the
// image data is complete: walk the marker segments to the first scan, then look for the end-of-image
// marker in the entropy-coded data (where 0xFF bytes are always stuffed or restart markers). Bytes after
// the end-of-image marker (motion-photo video, vendor trailers) are allowed.
bool is_truncated_jpeg(const uint8_t* data, size_t length) {
    if (length < 4 || data[0] != 0xFF || data[1] != 0xD8) return false;  // not a JPEG
    size_t i = 2;
    while (true) {
        while (i < length && data[i] == 0xFF) ++i;  // fill bytes before a marker
        if (i + 2 >= length) return true;
        const uint8_t marker = data[i];
        if (marker == 0xD9) return false;
        const size_t segment = (static_cast<size_t>(data[i + 1]) << 8) | data[i + 2];
        if (segment < 2) return true;
        i += 1 + segment;
        if (marker == 0xDA) break;  // start of scan: entropy-coded data follows
    }
    for (; i + 1 < length; ++i) {
        if (data[i] != 0xFF) continue;
        const uint8_t next = data[i + 1];
        if (next == 0xD9) return false;
        // 0xFF00 (stuffing), restart markers and later scans' headers are part of complete data.
    }
    return true;
}

// libpng reports a truncated PNG on stderr itself before OpenCV gives up, so find truncation first:
// walk the chunks (length, type, data, CRC) to IEND. Bytes after IEND are allowed.
bool is_truncated_png(const uint8_t* data, size_t length) {
    static const uint8_t signature[8] = {0x89, 'P', 'N', 'G', 0x0D, 0x0A, 0x1A, 0x0A};
    if (length < 8 || std::memcmp(data, signature, 8) != 0) return false;  // not a PNG
    size_t i = 8;
    while (true) {
        if (length - i < 12) return true;
        const size_t chunk = (static_cast<size_t>(data[i]) << 24) | (static_cast<size_t>(data[i + 1]) << 16) |
                             (static_cast<size_t>(data[i + 2]) << 8) | data[i + 3];
        if (std::memcmp(data + i + 4, "IEND", 4) == 0) return false;
        if (chunk > length - i - 12) return true;
        i += 12 + chunk;
    }
}

// A decoded HEIF image (8-bit BGR) converted as cv::imdecode would for `flags`: grey for the
// grayscale modes, reduced by 2, 4 or 8 (area averaging) for the reduced modes.
cv::Mat converted_heif(cv::Mat bgr, int flags) {
    if (flags < 0) return bgr;  // IMREAD_UNCHANGED: the 3 colour channels as decoded
    const int mode = flags & ~cv::IMREAD_IGNORE_ORIENTATION;
    const int reduction = (mode & 16) ? 2 : (mode & 32) ? 4 : (mode & 64) ? 8 : 1;
    cv::Mat result = bgr;
    if ((mode & cv::IMREAD_COLOR) == 0) cv::cvtColor(bgr, result, cv::COLOR_BGR2GRAY);
    if (reduction > 1) {
        cv::Mat reduced;
        cv::resize(result, reduced, cv::Size((result.cols + reduction - 1) / reduction, (result.rows + reduction - 1) / reduction),
                   0, 0, cv::INTER_AREA);
        result = reduced;
    }
    return result;
}

}  // namespace

namespace rc {

cv::Mat decode_image(const uint8_t* encoded, size_t length, int flags) {
    require(encoded != nullptr && length > 0, "empty image buffer");
    if (is_heif(encoded, length)) return converted_heif(decode_heif(encoded, length), flags);
    silence_opencv_log();
    if (is_truncated_jpeg(encoded, length))
        throw Failure{RC_DECODE_FAILED, "truncated JPEG: the image data ends before the end-of-image marker"};
    if (length >= 3 && encoded[0] == 0xFF && encoded[1] == 0xD8 && encoded[2] == 0xFF) {
        const std::string damage = jpeg_damage(encoded, length);
        if (!damage.empty())
            throw Failure{RC_DECODE_FAILED, "corrupt JPEG: its image data is damaged (libjpeg: " + damage +
                                                "), so parts of the photo would decode grey or garbled"};
    }
    if (is_truncated_png(encoded, length))
        throw Failure{RC_DECODE_FAILED, "truncated PNG: the file ends before its last chunk (IEND)"};
    cv::Mat buffer(1, static_cast<int>(length), CV_8U, const_cast<uint8_t*>(encoded));
    cv::Mat image;
    try {
        image = cv::imdecode(buffer, flags);
    } catch (const cv::Exception& e) {
        // OpenCV refuses headers that claim more than 2^30 pixels or a side over 2^20 before
        // allocating anything; say so instead of passing on its assertion text.
        if (e.func == "validateInputImageSize")
            throw Failure{RC_DECODE_FAILED, "image too large: its header claims more pixels than OpenCV decodes "
                                            "(at most 2^30 pixels and 2^20 per side)"};
        throw;
    }
    if (image.empty()) throw Failure{RC_DECODE_FAILED, "not a decodable image (corrupt, truncated or unknown format)"};
    return image;
}

}  // namespace rc
