// HEIF/HEIC decoding through libheif: the primary image (OpenCV 4.6 cannot read HEIC) and its
// auxiliary depth image.
#include <libheif/heif.h>

#include <algorithm>
#include <cstring>
#include <memory>
#include <opencv2/imgproc.hpp>
#include <string>

#include "guarded.hpp"
#include "image_io.hpp"

namespace {

struct ContextDeleter {
    void operator()(heif_context* context) const { heif_context_free(context); }
};
struct HandleDeleter {
    void operator()(heif_image_handle* handle) const { heif_image_handle_release(handle); }
};
struct ImageDeleter {
    void operator()(heif_image* image) const { heif_image_release(image); }
};
struct OptionsDeleter {
    void operator()(heif_decoding_options* options) const { heif_decoding_options_free(options); }
};
using Context = std::unique_ptr<heif_context, ContextDeleter>;
using Handle = std::unique_ptr<heif_image_handle, HandleDeleter>;
using Image = std::unique_ptr<heif_image, ImageDeleter>;

void check(const heif_error& error, const char* what) {
    if (error.code != heif_error_Ok) {
        throw rc::Failure{RC_DECODE_FAILED, std::string("HEIF: ") + what + ": " + (error.message ? error.message : "unknown error")};
    }
}

// Reads the file structure; the bytes must outlive the context.
Context open(const uint8_t* encoded, size_t length) {
    Context context(heif_context_alloc());
    if (!context) throw rc::Failure{RC_INTERNAL, "HEIF: cannot allocate a libheif context"};
    check(heif_context_read_from_memory_without_copy(context.get(), encoded, length, nullptr), "cannot read the file");
    return context;
}

Handle primary(heif_context* context) {
    heif_image_handle* handle = nullptr;
    check(heif_context_get_primary_image_handle(context, &handle), "no primary image");
    return Handle(handle);
}

// Decodes `handle` as stored: rotation and mirroring properties are not applied, as EXIF
// orientation is not for other formats, so pixels match the coded raster and its depth map.
Image decode(heif_image_handle* handle, heif_colorspace colorspace, heif_chroma chroma, const char* what) {
    std::unique_ptr<heif_decoding_options, OptionsDeleter> options(heif_decoding_options_alloc());
    options->ignore_transformations = 1;
    heif_image* image = nullptr;
    check(heif_decode_image(handle, &image, colorspace, chroma, options.get()), what);
    return Image(image);
}

}  // namespace

namespace rc {

bool is_heif(const uint8_t* encoded, size_t length) {
    if (length < 12 || std::memcmp(encoded + 4, "ftyp", 4) != 0) return false;
    const int probe = static_cast<int>(std::min<size_t>(length, 1 << 16));
    const heif_filetype_result kind = heif_check_filetype(encoded, probe);
    return kind == heif_filetype_yes_supported || kind == heif_filetype_yes_unsupported;
}

cv::Mat decode_heif(const uint8_t* encoded, size_t length) {
    if (heif_check_filetype(encoded, static_cast<int>(std::min<size_t>(length, 1 << 16))) == heif_filetype_yes_unsupported) {
        throw Failure{RC_DECODE_FAILED, "HEIF: a HEIF variant libheif cannot decode"};
    }
    Context context = open(encoded, length);
    Handle handle = primary(context.get());
    Image image = decode(handle.get(), heif_colorspace_RGB, heif_chroma_interleaved_RGB, "cannot decode the primary image");
    const int width = heif_image_get_width(image.get(), heif_channel_interleaved);
    const int height = heif_image_get_height(image.get(), heif_channel_interleaved);
    int stride = 0;
    const uint8_t* plane = heif_image_get_plane_readonly(image.get(), heif_channel_interleaved, &stride);
    if (plane == nullptr || width <= 0 || height <= 0) throw Failure{RC_DECODE_FAILED, "HEIF: the decoded image has no pixels"};
    cv::Mat rgb(height, width, CV_8UC3, const_cast<uint8_t*>(plane), static_cast<size_t>(stride));
    cv::Mat bgr;
    cv::cvtColor(rgb, bgr, cv::COLOR_RGB2BGR);  // a copy: the plane goes with the image
    return bgr;
}

}  // namespace rc

extern "C" int32_t rc_heif_decode_depth(const uint8_t* encoded, size_t length, rc_image** out, rc_heif_depth_info* info,
                                        int32_t* found, rc_error* error) {
    return rc::guarded(error, [&] {
        rc::require(encoded != nullptr && length > 0 && out != nullptr && info != nullptr && found != nullptr, "null argument");
        *out = nullptr;
        *found = 0;
        std::memset(info, 0, sizeof(*info));
        if (!rc::is_heif(encoded, length)) throw rc::Failure{RC_DECODE_FAILED, "not a HEIF file (no HEIF ftyp brand)"};
        Context context = open(encoded, length);
        Handle main = primary(context.get());
        if (!heif_image_handle_has_depth_image(main.get())) return;
        heif_item_id id = 0;
        if (heif_image_handle_get_list_of_depth_image_IDs(main.get(), &id, 1) < 1) return;
        heif_image_handle* depth_handle = nullptr;
        check(heif_image_handle_get_depth_image_handle(main.get(), id, &depth_handle), "cannot open the depth image");
        Handle depth(depth_handle);

        const heif_depth_representation_info* representation = nullptr;
        if (heif_image_handle_get_depth_image_representation_info(depth.get(), id, &representation) && representation) {
            info->representation_known = 1;
            info->representation_type = static_cast<int32_t>(representation->depth_representation_type);
            info->has_z_near = representation->has_z_near;
            info->has_z_far = representation->has_z_far;
            info->has_d_min = representation->has_d_min;
            info->has_d_max = representation->has_d_max;
            info->z_near = representation->z_near;
            info->z_far = representation->z_far;
            info->d_min = representation->d_min;
            info->d_max = representation->d_max;
            heif_depth_representation_info_free(representation);
        }

        Image image = decode(depth.get(), heif_colorspace_monochrome, heif_chroma_monochrome, "cannot decode the depth image");
        const int width = heif_image_get_width(image.get(), heif_channel_Y);
        const int height = heif_image_get_height(image.get(), heif_channel_Y);
        const int bits = heif_image_get_bits_per_pixel_range(image.get(), heif_channel_Y);
        int stride = 0;
        const uint8_t* plane = heif_image_get_plane_readonly(image.get(), heif_channel_Y, &stride);
        if (plane == nullptr || width <= 0 || height <= 0 || bits < 1 || bits > 16) {
            throw rc::Failure{RC_DECODE_FAILED, "HEIF: the depth image has no usable samples"};
        }
        info->bit_depth = bits;
        const float scale = 1.0f / static_cast<float>((1 << bits) - 1);
        auto result = std::make_unique<rc_image>();
        result->pixels.create(height, width, CV_32FC1);
        for (int y = 0; y < height; ++y) {
            const uint8_t* row = plane + static_cast<size_t>(y) * stride;
            float* target = result->pixels.ptr<float>(y);
            for (int x = 0; x < width; ++x) {
                const int value = bits <= 8 ? row[x] : (row[2 * x] | (row[2 * x + 1] << 8));  // HDR planes hold 16-bit samples
                target[x] = static_cast<float>(value) * scale;
            }
        }
        *out = result.release();
        *found = 1;
    });
}
