// RANSAC for the essential matrix around our five-point solver (five_point.cpp). Pairs that do not
// overlap run every iteration, so the cost per sample is most of what matching costs. Each new
// best model is followed by samples from its own inliers (LO-RANSAC).
// Inliers are scored as OpenCV scores them: squared Sampson distance ≤ threshold².
#include "essential_ransac.hpp"

#include "five_point.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>

namespace rc {
namespace {

// The squared Sampson distance of x2ᵀ E x1 = 0 for normalised points (x, y, 1) when it is at most
// `threshold2`, else −1: decided without a division, as most correspondences of most models are
// outliers. `e` is row-major.
inline double sampson2_within(const double* e, const double* p1, const double* p2, double threshold2) {
    const double x = p1[0], y = p1[1], u = p2[0], v = p2[1];
    const double ex0 = e[0] * x + e[1] * y + e[2], ex1 = e[3] * x + e[4] * y + e[5], ex2 = e[6] * x + e[7] * y + e[8];
    const double etx0 = e[0] * u + e[3] * v + e[6], etx1 = e[1] * u + e[4] * v + e[7];
    const double c = u * ex0 + v * ex1 + ex2;
    const double denominator = ex0 * ex0 + ex1 * ex1 + etx0 * etx0 + etx1 * etx1;
    if (!(denominator > 0) || !(c * c <= threshold2 * denominator)) return -1;
    return c * c / denominator;
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
    const double threshold2 = threshold * threshold;
    std::mt19937_64 random(0x5eedu + static_cast<uint64_t>(count));  // reproducible runs
    std::vector<int> sample(5);
    Eigen::Matrix3d models[10];
    // The models of the five-point solver for the current sample.
    const auto solve_sample = [&] {
        Eigen::Vector2d x1[5], x2[5];
        for (int k = 0; k < 5; ++k) {
            x1[k] = {points1[2 * sample[k]], points1[2 * sample[k] + 1]};
            x2[k] = {points2[2 * sample[k]], points2[2 * sample[k] + 1]};
        }
        return five_point_essentials(x1, x2, models);
    };
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
        double rows[9];
        for (int k = 0; k < 9; ++k) rows[k] = e(k / 3, k % 3);
        for (int32_t i = 0; i < count; ++i) {
            if (support.inliers + (count - i) < best.inliers) return Support{};
            const double error = sampson2_within(rows, points1 + 2 * i, points2 + 2 * i, threshold2);
            mask[i] = error >= 0;
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
        for (int m = 0, n = solve_sample(); m < n; ++m) improved |= consider(models[m]);
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
            for (int m = 0, n = solve_sample(); m < n; ++m) best_changed |= consider(models[m]);
        }
        needed = draws_needed(double(best.inliers) / count, confidence, max_iterations);
    }
    return best.inliers > 0;
}

}  // namespace rc
