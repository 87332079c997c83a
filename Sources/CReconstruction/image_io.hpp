// Internal: decoding with the checks every entry point needs (truncated JPEG, silent OpenCV log,
// HEIF through libheif).
#pragma once
#include <cstddef>
#include <cstdint>
#include <opencv2/core.hpp>
#include <string>

/// Decoded pixels behind the C header's opaque rc_image.
struct rc_image {
    cv::Mat pixels;  // continuous, RGB order for colour
};

namespace rc {

/// Decodes `encoded` with cv::imdecode `flags`; throws Failure{RC_DECODE_FAILED} with a message for
/// bytes that are not a complete, decodable image.
/// HEIF (HEIC, and AVIF when libheif has a decoder) is recognised by its `ftyp` brands, whatever
/// the file is called, and decoded by libheif; everything else by OpenCV.
cv::Mat decode_image(const uint8_t* encoded, size_t length, int flags);

/// For a JPEG whose image data is damaged (libjpeg decodes it with grey or garbled blocks and a
/// warning): libjpeg's first such warning; empty for intact data, other formats and files the
/// decoder refuses outright.
std::string jpeg_damage(const uint8_t* data, size_t length);

/// True when the bytes start with an ISO-BMFF `ftyp` box of a HEIF brand (heic, heix, mif1, …).
bool is_heif(const uint8_t* encoded, size_t length);

/// The primary image of a HEIF file as 8-bit BGR, as stored (rotation and mirroring properties are
/// ignored, as EXIF orientation is for other formats); throws Failure{RC_DECODE_FAILED}.
cv::Mat decode_heif(const uint8_t* encoded, size_t length);

}  // namespace rc
