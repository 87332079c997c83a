// PatchMatch multi-view stereo on the CPU: per-pixel plane hypotheses (depth + normal) in the
// reference camera, scored by bilateral-weighted NCC through plane-induced homographies,
// improved by checkerboard propagation (the best neighbour of eight areas, so red pixels read
// only black ones and a colour can be updated in parallel), per-pixel view selection from the
// candidates' costs, and random refinement with shrinking perturbations. With source depth maps
// a forward-backward reprojection term adds geometric consistency.
#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "guarded.hpp"

#if defined(__x86_64__) && defined(__clang__)
#include <immintrin.h>
#endif

// The kernel twice: for AVX2 + FMA (8-wide coordinate and sum loops, gathers) and for the
// baseline x86-64 / other architectures. Only the kernel's own functions get the target
// attribute; library code stays baseline, so nothing built for AVX2 can leak into other code.
#if defined(__x86_64__) && defined(__clang__)
#define RC_PATCH_MATCH_AVX2 1
namespace rc_patch_match_avx2 {
namespace {
#pragma clang attribute push(__attribute__((target("avx2,fma"))), apply_to = function)
#define RC_KERNEL_AVX2 1
#include "patch_match_kernel.hpp"
#undef RC_KERNEL_AVX2
#pragma clang attribute pop
}  // namespace
}  // namespace rc_patch_match_avx2
#endif

namespace rc_patch_match_baseline {
namespace {
#define RC_KERNEL_AVX2 0
#include "patch_match_kernel.hpp"
#undef RC_KERNEL_AVX2
}  // namespace
}  // namespace rc_patch_match_baseline

namespace {

constexpr int kMaxSources = rc_patch_match_baseline::kMaxSources;
constexpr int kMaxWindowSamples = rc_patch_match_baseline::kMaxWindowSamples;

void check_view(const rc_stereo_view& v, bool is_reference) {
    rc::require(v.width >= 2 && v.height >= 2, "a view's image must be at least 2 × 2 pixels");
    rc::require(v.pixel_count == static_cast<size_t>(v.width) * static_cast<size_t>(v.height),
                "a view's pixel_count does not match width × height");
    rc::require(v.gray != nullptr, "a view has no grey pixels (null buffer)");
    rc::require(std::isfinite(v.fx) && std::isfinite(v.fy) && v.fx > 0 && v.fy > 0,
                "a view's focal lengths must be positive and finite");
    rc::require(std::isfinite(v.cx) && std::isfinite(v.cy), "a view's principal point must be finite");
    if (is_reference) return;
    for (double r : v.rotation) rc::require(std::isfinite(r), "a source rotation is not finite");
    for (double t : v.translation) rc::require(std::isfinite(t), "a source translation is not finite");
}

}  // namespace

extern "C" int32_t rc_patch_match(const rc_stereo_view* reference, const rc_stereo_view* sources,
                                  int32_t source_count, const uint8_t* mask, const float* initial_depth,
                                  const float* initial_normal, const rc_patch_match_options* options, float* depth,
                                  float* normal, float* cost, rc_error* error) {
    return rc::guarded(error, [&] {
        rc::require(reference != nullptr && options != nullptr, "null argument");
        rc::require(depth != nullptr && normal != nullptr && cost != nullptr, "null output buffer");
        rc::require(source_count >= 1 && source_count <= kMaxSources, "source_count must be in 1…32");
        rc::require(sources != nullptr, "null source views");
        check_view(*reference, true);
        for (int32_t s = 0; s < source_count; ++s) check_view(sources[s], false);
        rc::require((initial_depth == nullptr) == (initial_normal == nullptr),
                    "initial_depth and initial_normal go together");
        const rc_patch_match_options& o = *options;
        rc::require(std::isfinite(o.depth_min) && std::isfinite(o.depth_max) && o.depth_min > 0 &&
                        o.depth_max > o.depth_min,
                    "the depth range is empty (need 0 < depth_min < depth_max)");
        rc::require(o.iterations >= 1 && o.iterations <= 1000, "iterations must be in 1…1000");
        rc::require(o.window_radius >= 1 && o.window_step >= 1 && o.window_step <= o.window_radius,
                    "window radius must be ≥ 1 and the step in 1…radius");
        const int per_row = 2 * o.window_radius / o.window_step + 1;
        rc::require(per_row * per_row <= kMaxWindowSamples, "matching window has too many samples (≤ 1024)");
        rc::require(o.sigma_spatial >= 0 && o.sigma_color >= 0 && o.min_texture >= 0,
                    "window weights and texture threshold must be ≥ 0");
        rc::require(o.bad_cost >= o.good_cost && o.good_cost > 0, "view selection needs 0 < good_cost ≤ bad_cost");
        rc::require(o.geometric_weight >= 0 && o.geometric_max_error > 0,
                    "geometric weight must be ≥ 0 and its maximum error > 0");
        rc::require(o.depth_perturbation >= 0 && o.normal_perturbation >= 0, "perturbations must be ≥ 0");
        rc::require(o.num_threads >= 1, "num_threads must be ≥ 1");
#if RC_PATCH_MATCH_AVX2
        if (!o.portable_kernel && __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) {
            rc_patch_match_avx2::PatchMatch solver(*reference, sources, source_count, mask, initial_depth, initial_normal, o);
            solver.run();
            solver.write(depth, normal, cost);
            return;
        }
#endif
        rc_patch_match_baseline::PatchMatch solver(*reference, sources, source_count, mask, initial_depth, initial_normal, o);
        solver.run();
        solver.write(depth, normal, cost);
    });
}
