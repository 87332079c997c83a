// SIFT keypoints with RootSIFT descriptors, from encoded image bytes.
#include <algorithm>
#include <cmath>
#include <opencv2/features2d.hpp>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>
#include <vector>

#include "guarded.hpp"
#include "image_io.hpp"

struct rc_features {
    int32_t width = 0;
    int32_t height = 0;
    std::vector<float> keypoints;      // x, y, scale, orientation
    std::vector<uint8_t> descriptors;  // 128 per keypoint
    std::vector<uint8_t> colors;       // RGB per keypoint
};

namespace {

// OpenCV 4.6 doubles the input with a centre-aligned resize but maps keypoints back by halving,
// which shifts every keypoint by +0.25 input pixels; measured on a synthetic blob.
constexpr float kUpsamplingShift = 0.25f;

void root_sift(const cv::Mat& sift, std::vector<uint8_t>& out) {
    out.resize(static_cast<size_t>(sift.rows) * 128);
    for (int i = 0; i < sift.rows; ++i) {
        const float* d = sift.ptr<float>(i);
        float l1 = 0;
        for (int k = 0; k < 128; ++k) l1 += std::abs(d[k]);
        l1 = std::max(l1, 1e-12f);
        // sqrt of L1-normalised values has unit L2 norm; scale to bytes (max component ≤ 1).
        for (int k = 0; k < 128; ++k) {
            float v = std::sqrt(std::abs(d[k]) / l1) * 512.0f;
            out[static_cast<size_t>(i) * 128 + k] = static_cast<uint8_t>(std::min(255.0f, std::round(v)));
        }
    }
}

}  // namespace

extern "C" int32_t rc_extract_features(const uint8_t* encoded, size_t length, const rc_feature_options* options,
                                       rc_features** out, rc_error* error) {
    return rc::guarded(error, [&] {
        rc::require(encoded != nullptr && length > 0, "empty image buffer");
        rc::require(options != nullptr && out != nullptr, "null argument");
        rc::require(options->detection_scale > 0 && options->detection_scale <= 1, "detection_scale must be in (0, 1]");
        *out = nullptr;
        cv::Mat color = rc::decode_image(encoded, length, cv::IMREAD_COLOR | cv::IMREAD_IGNORE_ORIENTATION);

        auto result = std::make_unique<rc_features>();
        // Keypoints are reported in the decoded image's own pixels, whatever the working resolution.
        result->width = color.cols;
        result->height = color.rows;
        double resize = 1.0;
        int longest = std::max(color.cols, color.rows);
        if (options->max_image_dimension > 0 && longest > options->max_image_dimension) {
            resize = static_cast<double>(options->max_image_dimension) / longest;
            cv::resize(color, color, cv::Size(), resize, resize, cv::INTER_AREA);
        }

        cv::Mat gray;
        cv::cvtColor(color, gray, cv::COLOR_BGR2GRAY);
        const double scale = (options->full_scale_below_dimension > 0 &&
                              std::max(color.cols, color.rows) <= options->full_scale_below_dimension)
                                 ? 1.0
                                 : options->detection_scale;
        cv::Mat detect = gray;
        if (scale < 1.0) cv::resize(gray, detect, cv::Size(), scale, scale, cv::INTER_AREA);

        auto sift = cv::SIFT::create(std::max(0, options->max_features), 3, options->contrast_threshold,
                                     options->edge_threshold, 1.6);
        std::vector<cv::KeyPoint> keypoints;
        cv::Mat descriptors;
        sift->detectAndCompute(detect, cv::noArray(), keypoints, descriptors);

        // OpenCV may return a few more than asked (ties in response); keep the cap exact.
        size_t count = keypoints.size();
        if (options->max_features > 0) count = std::min(count, static_cast<size_t>(options->max_features));
        result->keypoints.resize(count * 4);
        result->colors.resize(count * 3);
        for (size_t i = 0; i < count; ++i) {
            const cv::KeyPoint& k = keypoints[i];
            // OpenCV pixel centres are integers; ours (COLMAP) are at +0.5.
            const float xs = static_cast<float>((k.pt.x - kUpsamplingShift + 0.5f) / scale);  // working image
            const float ys = static_cast<float>((k.pt.y - kUpsamplingShift + 0.5f) / scale);
            const float x = static_cast<float>(xs / resize), y = static_cast<float>(ys / resize);
            result->keypoints[i * 4 + 0] = x;
            result->keypoints[i * 4 + 1] = y;
            result->keypoints[i * 4 + 2] = static_cast<float>(k.size / scale / resize);
            result->keypoints[i * 4 + 3] = static_cast<float>(k.angle * CV_PI / 180.0);
            int px = std::clamp(static_cast<int>(xs), 0, color.cols - 1);
            int py = std::clamp(static_cast<int>(ys), 0, color.rows - 1);
            cv::Vec3b bgr = color.at<cv::Vec3b>(py, px);
            result->colors[i * 3 + 0] = bgr[2];
            result->colors[i * 3 + 1] = bgr[1];
            result->colors[i * 3 + 2] = bgr[0];
        }
        root_sift(descriptors.rowRange(0, static_cast<int>(count)), result->descriptors);
        *out = result.release();
    });
}

extern "C" void rc_features_get_info(const rc_features* features, rc_features_info* info) {
    if (features == nullptr || info == nullptr) return;
    info->image_width = features->width;
    info->image_height = features->height;
    info->count = static_cast<int32_t>(features->keypoints.size() / 4);
}

extern "C" void rc_features_copy(const rc_features* features, float* keypoints, uint8_t* descriptors, uint8_t* colors) {
    if (features == nullptr) return;
    if (keypoints) std::copy(features->keypoints.begin(), features->keypoints.end(), keypoints);
    if (descriptors) std::copy(features->descriptors.begin(), features->descriptors.end(), descriptors);
    if (colors) std::copy(features->colors.begin(), features->colors.end(), colors);
}

extern "C" void rc_features_free(rc_features* features) { delete features; }
