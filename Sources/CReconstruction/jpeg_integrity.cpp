// A JPEG whose entropy-coded data is damaged in the middle (bytes scrambled by a failing card or
// a bad transfer, header and end marker intact) decodes without error in libjpeg: the damaged
// blocks come out grey or garbled, and only a warning says so, which cv::imdecode drops. This
// reads the data once more through libjpeg at 1/8 scale (every code is still decoded, few pixels
// are made) and keeps the warnings that can only mean lost image data.
#include <csetjmp>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>

#include <jpeglib.h>
#include <jerror.h>

#include "image_io.hpp"

namespace {

struct Checker {
    jpeg_error_mgr manager;
    std::jmp_buf jump;
    int damaged = 0;
    char message[JMSG_LENGTH_MAX] = {};  // the first damage, else a fatal error
};

// Warnings that mean image data was lost. Others (bytes between segments, an unknown JFIF
// version, a bad ICC profile) leave every pixel as the encoder made it.
bool loses_data(int code) {
    switch (code) {
    case JWRN_HIT_MARKER:
    case JWRN_HUFF_BAD_CODE:
    case JWRN_ARITH_BAD_CODE:
    case JWRN_MUST_RESYNC:
    case JWRN_JPEG_EOF:
        return true;
    default:
        return false;
    }
}

[[noreturn]] void on_error(j_common_ptr info) {
    auto* checker = static_cast<Checker*>(info->client_data);
    if (checker->damaged == 0) info->err->format_message(info, checker->message);
    std::longjmp(checker->jump, 1);
}

void on_message(j_common_ptr info, int level) {
    if (level >= 0) return;  // trace messages
    auto* checker = static_cast<Checker*>(info->client_data);
    // Bytes left over before a restart marker within the image: the codes of that interval were
    // misread. Bytes before the end marker, or before restart markers after the last row (some
    // scanners), are allowed: some cameras, DJI's drones among them, leave data there. So damage
    // in a JPEG without restart markers shows only when it breaks a code or makes a marker.
    const auto* decoder = reinterpret_cast<const jpeg_decompress_struct*>(info);
    const bool misread = info->err->msg_code == JWRN_EXTRANEOUS_DATA && info->err->msg_parm.i[1] >= JPEG_RST0 &&
                         info->err->msg_parm.i[1] <= JPEG_RST0 + 7 && decoder->output_scanline < decoder->output_height;
    if (!misread && !loses_data(info->err->msg_code)) return;
    if (checker->damaged++ == 0) info->err->format_message(info, checker->message);
}

}  // namespace

namespace rc {

std::string jpeg_damage(const uint8_t* data, size_t length) {
    // Between setjmp and longjmp only plain C objects, and the checker on the heap, which the
    // callbacks change (a local changed there would be indeterminate after the jump).
    auto checker = std::make_unique<Checker>();
    jpeg_decompress_struct info{};
    info.err = jpeg_std_error(&checker->manager);
    checker->manager.error_exit = on_error;
    checker->manager.emit_message = on_message;
    info.client_data = checker.get();  // kept by jpeg_create_decompress, whose errors come here too
    if (setjmp(checker->jump) == 0) {
        jpeg_create_decompress(&info);
        jpeg_mem_src(&info, data, static_cast<unsigned long>(length));
        jpeg_read_header(&info, TRUE);
        // A header claiming more than OpenCV decodes is refused by the decoder proper, with its own message.
        if (static_cast<uint64_t>(info.image_width) * info.image_height <= (uint64_t{1} << 30) &&
            info.image_width <= (1u << 20) && info.image_height <= (1u << 20)) {
            info.scale_num = 1;
            info.scale_denom = 8;
            info.do_fancy_upsampling = FALSE;
            jpeg_start_decompress(&info);
            JSAMPARRAY row = (*info.mem->alloc_sarray)(reinterpret_cast<j_common_ptr>(&info), JPOOL_IMAGE,
                                                       info.output_width * info.output_components, 1);
            while (info.output_scanline < info.output_height) jpeg_read_scanlines(&info, row, 1);
            jpeg_finish_decompress(&info);
        }
    }
    // After a fatal error: damage seen before it stands (the decoder proper may still make an image
    // of the data, as after a damaged scan a misread marker stops libjpeg); otherwise the decoder
    // refuses the file and says why.
    jpeg_destroy_decompress(&info);
    if (checker->damaged == 0) return {};
    return std::string(checker->message) + (checker->damaged > 1 ? " (and " + std::to_string(checker->damaged - 1) + " more)" : "");
}

}  // namespace rc
