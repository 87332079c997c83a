// RANSAC for the essential matrix around OpenGV's five-point solver (Nistér's, roots by Sturm
// sequences). OpenCV's findEssentialMat finds the same models but its solver spends ~120 µs per
// sample against ~25 µs here, and pairs that do not overlap run every iteration. Each new best
// model is refined on its inliers (LO-RANSAC).
// Inliers are scored as OpenCV scores them: squared Sampson distance ≤ threshold².
#include "essential_ransac.hpp"

#include <opengv/relative_pose/CentralRelativeAdapter.hpp>
#include <opengv/relative_pose/methods.hpp>

#include <Eigen/Eigenvalues>
#include <Eigen/SVD>

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

// Least-squares essential matrix of the given correspondences (the eight-point algorithm on the
// 9 × 9 normal equations), projected onto the essential manifold: singular values (1, 1, 0).
// Each equation is weighted by the Sampson denominator of `previous`, so that the algebraic
// residual it minimises approximates the Sampson distance that classifies the inliers.
Eigen::Matrix3d fit_essential(const double* points1, const double* points2, const std::vector<int>& support,
                              const Eigen::Matrix3d& previous) {
    Eigen::Matrix<double, 9, 9> normal = Eigen::Matrix<double, 9, 9>::Zero();
    for (int i : support) {
        const Eigen::Vector3d x1(points1[2 * i], points1[2 * i + 1], 1), x2(points2[2 * i], points2[2 * i + 1], 1);
        const Eigen::Vector3d ex1 = previous * x1, etx2 = previous.transpose() * x2;
        const double denominator = ex1[0] * ex1[0] + ex1[1] * ex1[1] + etx2[0] * etx2[0] + etx2[1] * etx2[1];
        if (!(denominator > 0)) continue;
        Eigen::Matrix<double, 9, 1> row;  // x2ᵀ E x1 = row · vec(E), E row-major
        for (int r = 0; r < 3; ++r)
            for (int c = 0; c < 3; ++c) row[3 * r + c] = x2[r] * x1[c];
        normal.selfadjointView<Eigen::Lower>().rankUpdate(row, 1 / denominator);
    }
    const Eigen::SelfAdjointEigenSolver<Eigen::Matrix<double, 9, 9>> solver(
        normal.selfadjointView<Eigen::Lower>().toDenseMatrix());
    const Eigen::Matrix<double, 9, 1> v = solver.eigenvectors().col(0);  // smallest eigenvalue
    Eigen::Matrix3d e;
    e << v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8];
    const Eigen::JacobiSVD<Eigen::Matrix3d> svd(e, Eigen::ComputeFullU | Eigen::ComputeFullV);
    return svd.matrixU() * Eigen::Vector3d(1, 1, 0).asDiagonal() * svd.matrixV().transpose();
}

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
    int32_t best_count = 0;
    // Inliers of `e` into `mask`, and their number; stops early (with a partial mask) once the
    // model can no longer beat the best one.
    const auto score = [&](const Eigen::Matrix3d& e) {
        int32_t inliers = 0;
        for (int32_t i = 0; i < count; ++i) {
            if (inliers + (count - i) <= best_count) return inliers;
            mask[i] = sampson2(e, points1 + 2 * i, points2 + 2 * i) <= threshold2;
            inliers += mask[i];
        }
        return inliers;
    };
    const auto keep = [&](const Eigen::Matrix3d& e, int32_t inliers) {
        best_count = inliers;
        out.essential = e;
        out.inliers = mask;
    };
    int64_t needed = max_iterations;
    for (int64_t draw = 0; draw < needed; ++draw) {
        for (int k = 0; k < 5; ++k) {
            int candidate;
            do candidate = std::uniform_int_distribution<int>(0, count - 1)(random);
            while (std::find(sample.begin(), sample.begin() + k, candidate) != sample.begin() + k);
            sample[k] = candidate;
        }
        bool improved = false;
        for (const Eigen::Matrix3d& model : opengv::relative_pose::fivept_nister(adapter, sample)) {
            const Eigen::Matrix3d e = model.transpose();  // OpenGV's satisfies f1ᵀ E f2 = 0
            const int32_t inliers = score(e);
            if (inliers > best_count) {
                keep(e, inliers);
                improved = true;
            }
        }
        if (!improved) continue;
        // Local optimisation (LO-RANSAC): refit on all the inliers by least squares while that
        // gains support, so that the inlier set does not hinge on one noisy sample.
        for (int round = 0; round < 4 && best_count >= 8; ++round) {
            std::vector<int> support;
            support.reserve(best_count);
            for (int32_t i = 0; i < count; ++i)
                if (out.inliers[i]) support.push_back(i);
            const Eigen::Matrix3d e = fit_essential(points1, points2, support, out.essential);
            const int32_t inliers = score(e);
            if (inliers <= best_count) break;
            keep(e, inliers);
        }
        needed = draws_needed(double(best_count) / count, confidence, max_iterations);
    }
    out.inlier_count = best_count;
    return best_count > 0;
}

}  // namespace rc
