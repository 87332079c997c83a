// Image decoding to plain pixel buffers and encoding of pixel buffers (PNG, JPEG, TIFF).
#include <cstring>
#include <memory>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>
#include <string>
#include <vector>

#include "guarded.hpp"
#include "image_io.hpp"

struct rc_bytes {
    std::vector<uint8_t> data;
};

namespace {

int imread_flags(int32_t mode, int32_t reduction) {
    switch (mode) {
    case RC_DECODE_COLOR:
        switch (reduction) {
        case 1: return cv::IMREAD_COLOR | cv::IMREAD_IGNORE_ORIENTATION;
        case 2: return cv::IMREAD_REDUCED_COLOR_2 | cv::IMREAD_IGNORE_ORIENTATION;
        case 4: return cv::IMREAD_REDUCED_COLOR_4 | cv::IMREAD_IGNORE_ORIENTATION;
        case 8: return cv::IMREAD_REDUCED_COLOR_8 | cv::IMREAD_IGNORE_ORIENTATION;
        }
        break;
    case RC_DECODE_GRAY:
        switch (reduction) {
        case 1: return cv::IMREAD_GRAYSCALE | cv::IMREAD_IGNORE_ORIENTATION;
        case 2: return cv::IMREAD_REDUCED_GRAYSCALE_2 | cv::IMREAD_IGNORE_ORIENTATION;
        case 4: return cv::IMREAD_REDUCED_GRAYSCALE_4 | cv::IMREAD_IGNORE_ORIENTATION;
        case 8: return cv::IMREAD_REDUCED_GRAYSCALE_8 | cv::IMREAD_IGNORE_ORIENTATION;
        }
        break;
    case RC_DECODE_UNCHANGED:
        if (reduction == 1) return cv::IMREAD_UNCHANGED;
        break;
    }
    throw rc::Failure{RC_INVALID_ARGUMENT, "reduction must be 1, 2, 4 or 8 (1 for unchanged decoding)"};
}

int32_t sample_type_of(int depth) {
    switch (depth) {
    case CV_8U: return RC_SAMPLE_U8;
    case CV_16U: return RC_SAMPLE_U16;
    case CV_32F: return RC_SAMPLE_F32;
    }
    return -1;
}

}  // namespace

extern "C" int32_t rc_image_decode(const uint8_t* encoded, size_t length, int32_t mode, int32_t reduction,
                                   rc_image** out, rc_error* error) {
    return rc::guarded(error, [&] {
        rc::require(out != nullptr, "null argument");
        *out = nullptr;
        cv::Mat image = rc::decode_image(encoded, length, imread_flags(mode, reduction));
        if (sample_type_of(image.depth()) < 0) {
            throw rc::Failure{RC_DECODE_FAILED, "unsupported sample type (expected 8- or 16-bit integers or 32-bit floats)"};
        }
        const int channels = image.channels();
        if (channels == 3) cv::cvtColor(image, image, cv::COLOR_BGR2RGB);
        else if (channels == 4) cv::cvtColor(image, image, cv::COLOR_BGRA2RGBA);
        auto result = std::make_unique<rc_image>();
        result->pixels = image.isContinuous() ? image : image.clone();
        *out = result.release();
    });
}

extern "C" void rc_image_get_info(const rc_image* image, rc_image_info* info) {
    info->width = image->pixels.cols;
    info->height = image->pixels.rows;
    info->channels = image->pixels.channels();
    info->sample_type = sample_type_of(image->pixels.depth());
}

extern "C" void rc_image_copy(const rc_image* image, void* pixels) {
    std::memcpy(pixels, image->pixels.data, image->pixels.total() * image->pixels.elemSize());
}

extern "C" void rc_image_free(rc_image* image) { delete image; }

extern "C" int32_t rc_image_encode(const void* pixels, int32_t width, int32_t height, int32_t channels,
                                   int32_t sample_type, int32_t format, int32_t jpeg_quality, rc_bytes** out,
                                   rc_error* error) {
    return rc::guarded(error, [&] {
        rc::require(pixels != nullptr && out != nullptr, "null argument");
        rc::require(width > 0 && height > 0, "image size must be positive");
        rc::require(channels == 1 || channels == 3, "channels must be 1 or 3");
        *out = nullptr;
        int depth = 0;
        switch (sample_type) {
        case RC_SAMPLE_U8: depth = CV_8U; break;
        case RC_SAMPLE_U16: depth = CV_16U; break;
        case RC_SAMPLE_F32: depth = CV_32F; break;
        default: throw rc::Failure{RC_INVALID_ARGUMENT, "unknown sample type"};
        }
        std::string extension;
        std::vector<int> parameters;
        switch (format) {
        case RC_FORMAT_PNG:
            rc::require(depth != CV_32F, "PNG holds 8- or 16-bit samples, not floats");
            extension = ".png";
            parameters = {cv::IMWRITE_PNG_COMPRESSION, 6};
            break;
        case RC_FORMAT_JPEG:
            rc::require(depth == CV_8U, "JPEG holds 8-bit samples only");
            rc::require(jpeg_quality >= 1 && jpeg_quality <= 100, "JPEG quality must be in 1…100");
            extension = ".jpg";
            parameters = {cv::IMWRITE_JPEG_QUALITY, jpeg_quality};
            break;
        case RC_FORMAT_TIFF:
            extension = ".tiff";
            break;
        default: throw rc::Failure{RC_INVALID_ARGUMENT, "unknown image format"};
        }
        cv::Mat view(height, width, CV_MAKETYPE(depth, channels), const_cast<void*>(pixels));
        cv::Mat ordered;  // never write into the caller's buffer
        if (channels == 3) cv::cvtColor(view, ordered, cv::COLOR_RGB2BGR);
        else ordered = view;
        auto result = std::make_unique<rc_bytes>();
        if (!cv::imencode(extension, ordered, result->data, parameters)) {
            throw rc::Failure{RC_INTERNAL, "the " + extension + " encoder failed"};
        }
        *out = result.release();
    });
}

extern "C" size_t rc_bytes_size(const rc_bytes* bytes) { return bytes->data.size(); }
extern "C" const uint8_t* rc_bytes_data(const rc_bytes* bytes) { return bytes->data.data(); }
extern "C" void rc_bytes_free(rc_bytes* bytes) { delete bytes; }
