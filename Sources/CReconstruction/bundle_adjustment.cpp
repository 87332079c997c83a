// Bundle adjustment with Ceres: poses, points and (optionally) intrinsics, robust loss, gauge fixing.
#include <ceres/ceres.h>
#include <algorithm>
#include <deque>
#include <memory>
#include <vector>

#include "guarded.hpp"

namespace {

// Variable poses up to which the reduced camera system is solved densely.
constexpr int32_t kDenseSchurMaxImages = 600;

// Projection of a world point by a pose block (quaternion w, x, y, z, then translation; camera
// from world) and a camera block (fx, fy, cx, cy, k1, k2), minus the measured pixel, weighted.
// Writes the residual and each Jacobian asked for (row-major; null: not wanted): by the camera
// (2×6), the pose (2×7, in the quaternion's four ambient coordinates) and the point (2×3).
// Derivatives written out take a third of the time automatic differentiation did, and Jacobians
// were the largest part of an adjustment after the linear solver. BundleAdjusterTests compare
// them with numeric differences: in solves with `check_gradients`, and through
// `rc_reprojection_jacobians` with steps that suit small parameters such as k2.
void project_observation(const double* k, const double* q, const double* X, double observed_x, double observed_y,
                         double weight, double* residuals, double* by_camera, double* by_pose, double* by_point) {
    const double a = q[0], b = q[1], c = q[2], d = q[3];
    // The rotation matrix of ceres::UnitQuaternionRotatePoint's formula (unit norm assumed).
    const double R[9] = {1 - 2 * (c * c + d * d), 2 * (b * c - a * d),     2 * (a * c + b * d),
                         2 * (a * d + b * c),     1 - 2 * (b * b + d * d), 2 * (c * d - a * b),
                         2 * (b * d - a * c),     2 * (a * b + c * d),     1 - 2 * (b * b + c * c)};
    double p[3];
    for (int i = 0; i < 3; ++i) p[i] = R[3 * i] * X[0] + R[3 * i + 1] * X[1] + R[3 * i + 2] * X[2] + q[4 + i];
    const double iz = 1 / p[2], u = p[0] * iz, v = p[1] * iz;
    const double r2 = u * u + v * v;
    const double distortion = 1 + k[4] * r2 + k[5] * r2 * r2;
    residuals[0] = weight * (k[0] * u * distortion + k[2] - observed_x);
    residuals[1] = weight * (k[1] * v * distortion + k[3] - observed_y);
    if (by_camera != nullptr) {
        const double row0[6] = {weight * u * distortion, 0, weight, 0, weight * k[0] * u * r2, weight * k[0] * u * r2 * r2};
        const double row1[6] = {0, weight * v * distortion, 0, weight, weight * k[1] * v * r2, weight * k[1] * v * r2 * r2};
        std::copy(row0, row0 + 6, by_camera);
        std::copy(row1, row1 + 6, by_camera + 6);
    }
    if (by_pose == nullptr && by_point == nullptr) return;

    // Residual by (u, v), then by p = R·X + t: A = ∂r/∂p (2×3).
    const double dd = 2 * (k[4] + 2 * k[5] * r2);  // ∂distortion/∂(r²) · 2
    const double du[2] = {weight * k[0] * (distortion + u * u * dd), weight * k[0] * u * v * dd};
    const double dv[2] = {weight * k[1] * u * v * dd, weight * k[1] * (distortion + v * v * dd)};
    double A[2][3];
    for (int r = 0; r < 2; ++r) {
        const double gu = r == 0 ? du[0] : dv[0], gv = r == 0 ? du[1] : dv[1];
        A[r][0] = gu * iz;
        A[r][1] = gv * iz;
        A[r][2] = -(gu * u + gv * v) * iz;
    }
    if (by_pose != nullptr) {
        // ∂p/∂(w, x, y, z) of the formula above, then ∂p/∂t = I.
        const double x = X[0], y = X[1], z = X[2];
        const double P[3][4] = {
            {2 * (-d * y + c * z), 2 * (c * y + d * z), 2 * (-2 * c * x + b * y + a * z), 2 * (-2 * d * x - a * y + b * z)},
            {2 * (d * x - b * z), 2 * (c * x - 2 * b * y - a * z), 2 * (b * x + d * z), 2 * (a * x - 2 * d * y + c * z)},
            {2 * (-c * x + b * y), 2 * (d * x + a * y - 2 * b * z), 2 * (-a * x + d * y - 2 * c * z), 2 * (b * x + c * y)}};
        for (int r = 0; r < 2; ++r) {
            double* row = by_pose + 7 * r;
            for (int j = 0; j < 4; ++j) row[j] = A[r][0] * P[0][j] + A[r][1] * P[1][j] + A[r][2] * P[2][j];
            for (int j = 0; j < 3; ++j) row[4 + j] = A[r][j];
        }
    }
    if (by_point != nullptr) {
        for (int r = 0; r < 2; ++r)
            for (int j = 0; j < 3; ++j) by_point[3 * r + j] = A[r][0] * R[j] + A[r][1] * R[3 + j] + A[r][2] * R[6 + j];
    }
}

// The Jacobian pointer Ceres asks for, or null when it asks for none.
inline double* wanted(double** jacobians, int block) { return jacobians == nullptr ? nullptr : jacobians[block]; }

// Residual of one observation whose camera is refined: blocks camera (6), pose (7), point (3).
class CameraReprojectionCost final : public ceres::SizedCostFunction<2, 6, 7, 3> {
public:
    CameraReprojectionCost(double observed_x, double observed_y, double weight)
        : observed_x_(observed_x), observed_y_(observed_y), weight_(weight) {}

    bool Evaluate(double const* const* parameters, double* residuals, double** jacobians) const override {
        project_observation(parameters[0], parameters[1], parameters[2], observed_x_, observed_y_, weight_, residuals,
                            wanted(jacobians, 0), wanted(jacobians, 1), wanted(jacobians, 2));
        return true;
    }

private:
    double observed_x_, observed_y_, weight_;
};

// The same with the camera held fixed (read as constants, not a parameter block), the common
// case of known intrinsics: blocks pose (7), point (3).
class FixedCameraReprojectionCost final : public ceres::SizedCostFunction<2, 7, 3> {
public:
    FixedCameraReprojectionCost(const double* camera, double observed_x, double observed_y, double weight)
        : camera_(camera), observed_x_(observed_x), observed_y_(observed_y), weight_(weight) {}

    bool Evaluate(double const* const* parameters, double* residuals, double** jacobians) const override {
        project_observation(camera_, parameters[0], parameters[1], observed_x_, observed_y_, weight_, residuals, nullptr,
                            wanted(jacobians, 0), wanted(jacobians, 1));
        return true;
    }

private:
    const double* camera_;
    double observed_x_, observed_y_, weight_;
};

std::vector<int> fixed_camera_parameters(int32_t refine) {
    std::vector<int> fixed;
    if (!(refine & RC_REFINE_FOCAL)) fixed.insert(fixed.end(), {0, 1});
    if (!(refine & RC_REFINE_PRINCIPAL_POINT)) fixed.insert(fixed.end(), {2, 3});
    if (!(refine & RC_REFINE_K1)) fixed.push_back(4);
    if (!(refine & RC_REFINE_K2)) fixed.push_back(5);
    return fixed;
}

// Keeps fx/fy in a fixed ratio while the focal length is refined (square pixels assumed).
struct FocalRatioConstraint {
    double ratio;  // fy / fx
    double weight;
    template <typename T>
    bool operator()(const T* camera, T* residual) const {
        residual[0] = T(weight) * (camera[1] - T(ratio) * camera[0]);
        return true;
    }
};

void check_problem(const rc_bundle_problem* p) {
    rc::require(p->camera_count > 0 && p->image_count > 0 && p->point_count >= 0 && p->observation_count >= 0,
                "empty bundle problem");
    rc::require(p->cameras && p->camera_refine && p->poses && p->image_camera && p->pose_fixed, "null camera/pose buffer");
    rc::require(p->point_count == 0 || p->points, "null point buffer");
    rc::require(p->observation_count == 0 || (p->observation_image && p->observation_point && p->observation_xy),
                "null observation buffer");
    for (int32_t i = 0; i < p->image_count; ++i)
        rc::require(p->image_camera[i] >= 0 && p->image_camera[i] < p->camera_count, "image camera index out of range");
    for (int32_t o = 0; o < p->observation_count; ++o) {
        rc::require(p->observation_image[o] >= 0 && p->observation_image[o] < p->image_count,
                    "observation image index out of range");
        rc::require(p->observation_point[o] >= 0 && p->observation_point[o] < p->point_count,
                    "observation point index out of range");
    }
    rc::require(p->scale_anchor_image < p->image_count && p->scale_anchor_axis >= 0 && p->scale_anchor_axis < 3,
                "scale anchor out of range");
}

}  // namespace

extern "C" int32_t rc_bundle_adjust(rc_bundle_problem* p, const rc_bundle_options* options,
                                    rc_bundle_summary* summary, rc_error* error) {
    return rc::guarded(error, [&] {
        rc::require(p != nullptr && options != nullptr && summary != nullptr, "null argument");
        check_problem(p);
        // The loss and the residuals' functors and cost functions live here, in blocks of many, and
        // outlive the problem, which refers to them without owning them (tens of thousands of
        // residuals per adjustment would otherwise be as many small allocations to make and free).
        std::unique_ptr<ceres::LossFunction> loss;
        if (options->loss == RC_LOSS_HUBER) loss = std::make_unique<ceres::HuberLoss>(options->loss_scale_pixels);
        if (options->loss == RC_LOSS_CAUCHY) loss = std::make_unique<ceres::CauchyLoss>(options->loss_scale_pixels);
        using FocalRatioCost = ceres::AutoDiffCostFunction<FocalRatioConstraint, 1, 6>;
        std::vector<char> camera_fixed(p->camera_count);
        for (int32_t c = 0; c < p->camera_count; ++c)
            camera_fixed[c] = fixed_camera_parameters(p->camera_refine[c]).size() == 6;
        // Deques: what the problem points to never moves as they grow.
        std::deque<FocalRatioConstraint> focal_functors;
        std::deque<FixedCameraReprojectionCost> fixed_camera_costs;
        std::deque<CameraReprojectionCost> camera_costs;
        std::deque<FocalRatioCost> focal_costs;

        ceres::Problem::Options problem_options;
        problem_options.manifold_ownership = ceres::TAKE_OWNERSHIP;
        problem_options.loss_function_ownership = ceres::DO_NOT_TAKE_OWNERSHIP;
        problem_options.cost_function_ownership = ceres::DO_NOT_TAKE_OWNERSHIP;
        ceres::Problem problem(problem_options);

        // A camera block is refined when any of its parameters is; otherwise its values are read
        // as constants by the residuals and it never becomes a parameter block.
        for (int32_t o = 0; o < p->observation_count; ++o) {
            const int32_t image = p->observation_image[o];
            const int32_t c = p->image_camera[image];
            double* camera = p->cameras + 6 * c;
            double* pose = p->poses + 7 * image;
            double* point = p->points + 3 * p->observation_point[o];
            const double x = p->observation_xy[2 * o], y = p->observation_xy[2 * o + 1];
            const double weight = p->observation_weight ? p->observation_weight[o] : 1.0;
            if (camera_fixed[c]) {
                auto& cost = fixed_camera_costs.emplace_back(camera, x, y, weight);
                problem.AddResidualBlock(&cost, loss.get(), pose, point);
            } else {
                auto& cost = camera_costs.emplace_back(x, y, weight);
                problem.AddResidualBlock(&cost, loss.get(), camera, pose, point);
            }
        }

        for (int32_t c = 0; c < p->camera_count; ++c) {
            double* camera = p->cameras + 6 * c;
            if (camera_fixed[c] || !problem.HasParameterBlock(camera)) continue;
            const auto fixed = fixed_camera_parameters(p->camera_refine[c]);
            if (!fixed.empty()) problem.SetManifold(camera, new ceres::SubsetManifold(6, fixed));
            if (p->camera_refine[c] & RC_REFINE_FOCAL) {
                focal_functors.push_back({camera[1] / camera[0], 1e3});
                problem.AddResidualBlock(&focal_costs.emplace_back(&focal_functors.back(), ceres::DO_NOT_TAKE_OWNERSHIP),
                                         nullptr, camera);
            }
        }
        // One block per pose (rotation and translation together, a 6-dimensional tangent space):
        // the Schur complement then has one row block per pose instead of two, and Ceres' kernels
        // specialised for 2-row residuals, 3-D points and 6-D poses apply.
        using PoseManifold = ceres::ProductManifold<ceres::QuaternionManifold, ceres::EuclideanManifold<3>>;
        using AnchorManifold = ceres::ProductManifold<ceres::QuaternionManifold, ceres::SubsetManifold>;
        int32_t variable_images = 0;
        for (int32_t i = 0; i < p->image_count; ++i) {
            double* pose = p->poses + 7 * i;
            if (!problem.HasParameterBlock(pose)) continue;
            if (p->pose_fixed[i]) {
                problem.SetParameterBlockConstant(pose);
                continue;
            }
            ++variable_images;
            if (i == p->scale_anchor_image)
                problem.SetManifold(pose, new AnchorManifold(ceres::QuaternionManifold(),
                                                             ceres::SubsetManifold(3, {p->scale_anchor_axis})));
            else
                problem.SetManifold(pose, new PoseManifold());
        }

        ceres::Solver::Options solver;
        // Points first, then cameras and poses: the elimination order of the Schur complement,
        // given so that Ceres does not search the problem's graph for one at every solve.
        auto ordering = std::make_shared<ceres::ParameterBlockOrdering>();
        for (int32_t point = 0; point < p->point_count; ++point)
            if (problem.HasParameterBlock(p->points + 3 * point)) ordering->AddElementToGroup(p->points + 3 * point, 0);
        for (int32_t i = 0; i < p->image_count; ++i)
            if (problem.HasParameterBlock(p->poses + 7 * i)) ordering->AddElementToGroup(p->poses + 7 * i, 1);
        for (int32_t c = 0; c < p->camera_count; ++c)
            if (!camera_fixed[c] && problem.HasParameterBlock(p->cameras + 6 * c))
                ordering->AddElementToGroup(p->cameras + 6 * c, 1);
        solver.linear_solver_ordering = ordering;
        // The reduced camera system has one row block per variable pose (fixed ones leave it).
        // Dense Schur assembles it faster than sparse Schur's block map: on 200- and 400-view
        // orbits the last global adjustment took 61 % and 65 % of the time (Benchmarks/
        // scaling.md); its O(n³) factorisation would catch up near a thousand poses (extrapolated).
        solver.linear_solver_type = variable_images <= kDenseSchurMaxImages ? ceres::DENSE_SCHUR : ceres::SPARSE_SCHUR;
        solver.max_num_iterations = options->max_iterations;
        solver.function_tolerance = options->function_tolerance;
        solver.gradient_tolerance = 1e-10;
        solver.parameter_tolerance = 1e-8;
        solver.num_threads = std::max(1, options->num_threads);
        // Numeric differences agree with exact Jacobians to about 1e-8 (Ceres' default precision
        // for the check, which they then fail now and then); a wrong derivative is off by far more.
        solver.check_gradients = options->check_gradients != 0;
        solver.gradient_check_relative_precision = 1e-6;
        solver.logging_type = ceres::SILENT;
        solver.minimizer_progress_to_stdout = false;
        ceres::Solver::Summary result;
        ceres::Solve(solver, &problem, &result);
        summary->initial_cost = result.initial_cost;
        summary->final_cost = result.final_cost;
        summary->iterations = static_cast<int32_t>(result.iterations.size());
        summary->usable = result.IsSolutionUsable() ? 1 : 0;
        if (!result.IsSolutionUsable())
            throw rc::Failure{RC_ESTIMATION_FAILED, "bundle adjustment failed: " + result.message};
    });
}

extern "C" void rc_reprojection_jacobians(const double* camera, const double* pose, const double* point,
                                          double observed_x, double observed_y, double weight, double* residual,
                                          double* by_camera, double* by_pose, double* by_point) {
    project_observation(camera, pose, point, observed_x, observed_y, weight, residual, by_camera, by_pose, by_point);
}
