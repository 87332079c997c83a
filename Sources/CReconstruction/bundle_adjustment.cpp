// Bundle adjustment with Ceres: poses, points and (optionally) intrinsics, robust loss, gauge fixing.
#include <ceres/ceres.h>
#include <ceres/rotation.h>
#include <memory>
#include <vector>

#include "guarded.hpp"

namespace {

// Variable poses up to which the reduced camera system is solved densely.
constexpr int32_t kDenseSchurMaxImages = 600;

// Residual of one observation: projected point minus measured pixel.
// Camera block: fx, fy, cx, cy, k1, k2. Pose: quaternion (w, x, y, z) and translation, camera from world.
struct ReprojectionError {
    double observed_x, observed_y, weight;

    template <typename T>
    bool operator()(const T* camera, const T* quaternion, const T* translation, const T* point, T* residual) const {
        T p[3];
        ceres::UnitQuaternionRotatePoint(quaternion, point, p);
        p[0] += translation[0];
        p[1] += translation[1];
        p[2] += translation[2];
        const T u = p[0] / p[2];
        const T v = p[1] / p[2];
        const T r2 = u * u + v * v;
        const T distortion = T(1) + camera[4] * r2 + camera[5] * r2 * r2;
        residual[0] = T(weight) * (camera[0] * u * distortion + camera[2] - T(observed_x));
        residual[1] = T(weight) * (camera[1] * v * distortion + camera[3] - T(observed_y));
        return true;
    }
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
        ceres::Problem::Options problem_options;
        problem_options.manifold_ownership = ceres::TAKE_OWNERSHIP;
        problem_options.loss_function_ownership = ceres::TAKE_OWNERSHIP;
        ceres::Problem problem(problem_options);

        for (int32_t o = 0; o < p->observation_count; ++o) {
            const int32_t image = p->observation_image[o];
            const int32_t point = p->observation_point[o];
            double* camera = p->cameras + 6 * p->image_camera[image];
            double* pose = p->poses + 7 * image;
            ceres::LossFunction* loss = nullptr;
            if (options->loss == RC_LOSS_HUBER) loss = new ceres::HuberLoss(options->loss_scale_pixels);
            if (options->loss == RC_LOSS_CAUCHY) loss = new ceres::CauchyLoss(options->loss_scale_pixels);
            auto* cost = new ceres::AutoDiffCostFunction<ReprojectionError, 2, 6, 4, 3, 3>(
                new ReprojectionError{p->observation_xy[2 * o], p->observation_xy[2 * o + 1],
                                      p->observation_weight ? p->observation_weight[o] : 1.0});
            problem.AddResidualBlock(cost, loss, camera, pose, pose + 4, p->points + 3 * point);
        }

        for (int32_t c = 0; c < p->camera_count; ++c) {
            double* camera = p->cameras + 6 * c;
            if (!problem.HasParameterBlock(camera)) continue;
            const auto fixed = fixed_camera_parameters(p->camera_refine[c]);
            if (fixed.size() == 6) {
                problem.SetParameterBlockConstant(camera);
            } else {
                if (!fixed.empty()) problem.SetManifold(camera, new ceres::SubsetManifold(6, fixed));
                if (p->camera_refine[c] & RC_REFINE_FOCAL) {
                    problem.AddResidualBlock(new ceres::AutoDiffCostFunction<FocalRatioConstraint, 1, 6>(
                                                 new FocalRatioConstraint{camera[1] / camera[0], 1e3}),
                                             nullptr, camera);
                }
            }
        }
        int32_t variable_images = 0;
        for (int32_t i = 0; i < p->image_count; ++i) {
            double* pose = p->poses + 7 * i;
            if (!problem.HasParameterBlock(pose)) continue;
            if (p->pose_fixed[i]) {
                problem.SetParameterBlockConstant(pose);
                problem.SetParameterBlockConstant(pose + 4);
                continue;
            }
            ++variable_images;
            problem.SetManifold(pose, new ceres::QuaternionManifold());
            if (i == p->scale_anchor_image)
                problem.SetManifold(pose + 4, new ceres::SubsetManifold(3, {p->scale_anchor_axis}));
        }

        ceres::Solver::Options solver;
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
