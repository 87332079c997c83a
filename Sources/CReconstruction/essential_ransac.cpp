// RANSAC for the essential matrix around OpenGV's five-point solver (Nistér's, roots by Sturm
// sequences). OpenCV's findEssentialMat finds the same models but its solver spends ~120 µs per
// sample against ~25 µs here, and pairs that do not overlap run every iteration. Each new best
// model is followed by samples from its own inliers (LO-RANSAC).
// Inliers are scored as OpenCV scores them: squared Sampson distance ≤ threshold².
#include "essential_ransac.hpp"

#include <opengv/relative_pose/CentralRelativeAdapter.hpp>
#include <opengv/relative_pose/methods.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>

namespace rc {
namespace {

// Squared Sampson distance of x2ᵀ E x1 = 0 for normalised points (x, y, 1).
inline double sampson2(const Eigen::Matrix3d& e, const double* p1, const double* p2) {
    const Eigen::Vector3d x1(p1[0], p1[1], 1), x2(p2[0], p2[1], 1);
    const Eigen::Vector3d ex1 = e * x1, etx2 = e.transpose() * x2;
    const double c = x2.dot(ex1);
    const double denominator = ex1[0] * ex1[0] + ex1[1] * ex1[1] + etx2[0] * etx2[0] + etx2[1] * etx2[1];
    return denominator > 0 ? c * c / denominator : std::numeric_limits<double>::infinity();
}

// Samples drawn from a new best model's inliers (LO-RANSAC's inner RANSAC, 10–20 in Chum et al.).
constexpr int kInnerSamples = 20;

// Draws needed to sample an all-inlier set of five with the given confidence.
int64_t draws_needed(double inlier_ratio, double confidence, int64_t cap) {
    const double all_inliers = std::pow(inlier_ratio, 5);
    if (all_inliers >= 1) return 1;
    if (all_inliers <= 0) return cap;
    const double n = std::log(1 - confidence) / std::log(1 - all_inliers);
    return std::min<int64_t>(cap, static_cast<int64_t>(std::ceil(n)));
}

}  // namespace

bool estimate_essential(const double* points1, const double* points2, int32_t count, double threshold,
                        double confidence, int32_t max_iterations, EssentialEstimate& out) {
    opengv::bearingVectors_t bearings1(count), bearings2(count);
    for (int32_t i = 0; i < count; ++i) {
        bearings1[i] = Eigen::Vector3d(points1[2 * i], points1[2 * i + 1], 1).normalized();
        bearings2[i] = Eigen::Vector3d(points2[2 * i], points2[2 * i + 1], 1).normalized();
    }
    const opengv::relative_pose::CentralRelativeAdapter adapter(bearings1, bearings2);
    const double threshold2 = threshold * threshold;
    std::mt19937_64 random(0x5eedu + static_cast<uint64_t>(count));  // reproducible runs
    std::vector<int> sample(5);
    std::vector<uint8_t> mask(count);
    // A model's support, compared as COLMAP compares it: more inliers, then a smaller sum of
    // their squared Sampson distances. The second key matters when every correspondence is an
    // inlier (a loose threshold): the first model found is then not simply kept.
    struct Support {
        int32_t inliers = 0;
        double residual = std::numeric_limits<double>::infinity();
        bool beats(const Support& other) const {
            return inliers > other.inliers || (inliers == other.inliers && residual < other.residual);
        }
    };
    Support best;
    // The support of `e`, its inliers into `mask`; stops early (with a partial mask) once the
    // model can no longer beat the best one.
    const auto score = [&](const Eigen::Matrix3d& e) {
        Support support{0, 0};
        for (int32_t i = 0; i < count; ++i) {
            if (support.inliers + (count - i) < best.inliers) return Support{};
            const double error = sampson2(e, points1 + 2 * i, points2 + 2 * i);
            mask[i] = error <= threshold2;
            if (mask[i]) {
                ++support.inliers;
                support.residual += error;
            }
        }
        return support;
    };
    // Keeps `e` if its support beats the best; says whether it did.
    const auto consider = [&](const Eigen::Matrix3d& e) {
        const Support support = score(e);
        if (!support.beats(best)) return false;
        best = support;
        out.essential = e;
        out.inliers = mask;
        return true;
    };
    // Five distinct correspondences from `from` into `sample`.
    const auto draw_sample = [&](const std::vector<int>& from) {
        for (int k = 0; k < 5; ++k) {
            int candidate;
            do candidate = from[std::uniform_int_distribution<size_t>(0, from.size() - 1)(random)];
            while (std::find(sample.begin(), sample.begin() + k, candidate) != sample.begin() + k);
            sample[k] = candidate;
        }
    };
    std::vector<int> all(count), support;
    for (int32_t i = 0; i < count; ++i) all[i] = i;
    int64_t needed = max_iterations;
    for (int64_t draw = 0; draw < needed; ++draw) {
        draw_sample(all);
        bool improved = false;
        for (const Eigen::Matrix3d& model : opengv::relative_pose::fivept_nister(adapter, sample))
            improved |= consider(model.transpose());  // OpenGV's satisfies f1ᵀ E f2 = 0
        if (!improved) continue;
        // Local optimisation (LO-RANSAC's inner RANSAC): more samples drawn from the new best
        // model's inliers only, kept when they gain support, so that the inlier set does not
        // hinge on one noisy sample. Minimal samples, not a least-squares refit: the eight-point
        // fit is degenerate on planar scenes (façades), the five-point solver is not.
        bool best_changed = true;
        for (int inner = 0; inner < kInnerSamples && best.inliers > 5; ++inner) {
            if (best_changed) {  // the inliers to sample from
                support.clear();
                for (int32_t i = 0; i < count; ++i)
                    if (out.inliers[i]) support.push_back(i);
                best_changed = false;
            }
            draw_sample(support);
            for (const Eigen::Matrix3d& model : opengv::relative_pose::fivept_nister(adapter, sample))
                best_changed |= consider(model.transpose());
        }
        needed = draws_needed(double(best.inliers) / count, confidence, max_iterations);
    }
    return best.inliers > 0;
}

}  // namespace rc
