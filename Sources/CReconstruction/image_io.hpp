// Internal: decoding with the checks every entry point needs (truncated JPEG, silent OpenCV log).
#pragma once
#include <cstddef>
#include <cstdint>
#include <opencv2/core.hpp>

namespace rc {

/// Decodes `encoded` with cv::imdecode `flags`; throws Failure{RC_DECODE_FAILED} with a message for
/// bytes that are not a complete, decodable image.
cv::Mat decode_image(const uint8_t* encoded, size_t length, int flags);

}  // namespace rc
