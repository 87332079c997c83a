// Internal: robust essential matrix for the relative-pose kernel.
#pragma once
#include <Eigen/Core>
#include <cstdint>
#include <vector>

namespace rc {

struct EssentialEstimate {
    Eigen::Matrix3d essential;     // x2ᵀ E x1 = 0 for normalised points
    std::vector<uint8_t> inliers;  // 1 per correspondence within the threshold
};

// RANSAC over five-point samples of normalised correspondences (flat x, y pairs). Stops when
// `confidence` says an all-inlier sample has been drawn, or after `max_iterations` samples.
// Returns false when no model has any inlier.
bool estimate_essential(const double* points1, const double* points2, int32_t count, double threshold,
                        double confidence, int32_t max_iterations, EssentialEstimate& out);

}  // namespace rc
