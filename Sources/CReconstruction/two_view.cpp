// Robust two-view geometry: essential matrix with relative pose, fundamental matrix, homography.
#include <opencv2/calib3d.hpp>
#include <algorithm>
#include <vector>

#include "essential_ransac.hpp"
#include "guarded.hpp"

namespace {

std::vector<cv::Point2d> to_points(const double* xy, int32_t count) {
    std::vector<cv::Point2d> points(count);
    for (int32_t i = 0; i < count; ++i) points[i] = {xy[2 * i], xy[2 * i + 1]};
    return points;
}

void check_ransac(const double* p1, const double* p2, int32_t count, const rc_ransac_options* options,
                  int32_t minimum) {
    rc::require(p1 != nullptr && p2 != nullptr && options != nullptr, "null argument");
    rc::require(options->max_error > 0 && options->confidence > 0 && options->confidence < 1,
                "RANSAC threshold must be positive and confidence in (0, 1)");
    if (count < minimum) throw rc::Failure{RC_ESTIMATION_FAILED, "too few correspondences"};
}

int32_t copy_mask(const cv::Mat& mask, uint8_t* out, int32_t count) {
    int32_t inliers = 0;
    for (int32_t i = 0; i < count; ++i) {
        const uint8_t v = mask.empty() ? 0 : (mask.at<uint8_t>(i) != 0);
        if (out) out[i] = v;
        inliers += v;
    }
    return inliers;
}

void copy_matrix(const cv::Mat& m, double* out) {
    for (int r = 0; r < m.rows; ++r)
        for (int c = 0; c < m.cols; ++c) out[r * m.cols + c] = m.at<double>(r, c);
}

}  // namespace

extern "C" int32_t rc_estimate_relative_pose(const double* points1, const double* points2, int32_t count,
                                             const rc_ransac_options* options, double* rotation,
                                             double* translation, uint8_t* inlier_mask, int32_t* inlier_count,
                                             rc_error* error) {
    return rc::guarded(error, [&] {
        check_ransac(points1, points2, count, options, 5);
        rc::require(rotation && translation && inlier_count, "null output");
        const auto p1 = to_points(points1, count), p2 = to_points(points2, count);
        rc::EssentialEstimate estimate;
        if (!rc::estimate_essential(points1, points2, count, options->max_error, options->confidence,
                                    std::max(1, options->max_iterations), estimate))
            throw rc::Failure{RC_ESTIMATION_FAILED, "no essential matrix found"};
        cv::Mat E(3, 3, CV_64F);
        for (int r = 0; r < 3; ++r)
            for (int c = 0; c < 3; ++c) E.at<double>(r, c) = estimate.essential(r, c);
        cv::Mat mask(count, 1, CV_8U, estimate.inliers.data());
        cv::Mat R, t;
        cv::recoverPose(E, p1, p2, cv::Mat::eye(3, 3, CV_64F), R, t, mask);
        copy_matrix(R, rotation);
        copy_matrix(t, translation);
        *inlier_count = copy_mask(mask, inlier_mask, count);
        if (*inlier_count == 0) throw rc::Failure{RC_ESTIMATION_FAILED, "no inliers in front of both cameras"};
    });
}

extern "C" int32_t rc_estimate_fundamental(const double* points1, const double* points2, int32_t count,
                                           const rc_ransac_options* options, double* fundamental,
                                           uint8_t* inlier_mask, int32_t* inlier_count, rc_error* error) {
    return rc::guarded(error, [&] {
        check_ransac(points1, points2, count, options, 8);
        rc::require(fundamental && inlier_count, "null output");
        cv::Mat mask;
        cv::Mat F = cv::findFundamentalMat(to_points(points1, count), to_points(points2, count), cv::FM_RANSAC,
                                           options->max_error, options->confidence, options->max_iterations, mask);
        if (F.empty() || F.rows != 3) throw rc::Failure{RC_ESTIMATION_FAILED, "no fundamental matrix found"};
        copy_matrix(F, fundamental);
        *inlier_count = copy_mask(mask, inlier_mask, count);
    });
}

extern "C" int32_t rc_estimate_homography(const double* points1, const double* points2, int32_t count,
                                          const rc_ransac_options* options, double* homography,
                                          uint8_t* inlier_mask, int32_t* inlier_count, rc_error* error) {
    return rc::guarded(error, [&] {
        check_ransac(points1, points2, count, options, 4);
        rc::require(homography && inlier_count, "null output");
        cv::Mat mask;
        cv::Mat H = cv::findHomography(to_points(points1, count), to_points(points2, count), cv::RANSAC,
                                       options->max_error, mask, options->max_iterations, options->confidence);
        if (H.empty()) throw rc::Failure{RC_ESTIMATION_FAILED, "no homography found"};
        copy_matrix(H, homography);
        *inlier_count = copy_mask(mask, inlier_mask, count);
    });
}
