// Mesh decimation through meshoptimizer: topology-preserving quadric collapses, then clustering
// when those cannot reach the cap.
#include <meshoptimizer.h>

#include <algorithm>
#include <vector>

#include "guarded.hpp"

extern "C" int32_t rc_simplify_mesh(const float* positions, int32_t vertex_count, const uint32_t* triangles,
                                    int32_t triangle_count, int32_t target_triangles, float target_error,
                                    int32_t lock_border, uint32_t* triangles_out, int32_t* out_triangle_count,
                                    float* out_error, rc_error* error) {
    return rc::guarded(error, [&] {
        rc::require(positions != nullptr && triangles != nullptr && triangles_out != nullptr,
                    "rc_simplify_mesh: null buffer");
        rc::require(vertex_count > 0 && triangle_count > 0, "rc_simplify_mesh: empty mesh");
        rc::require(target_triangles > 0, "rc_simplify_mesh: target_triangles must be positive");
        rc::require(target_error >= 0, "rc_simplify_mesh: target_error must not be negative");
        const size_t index_count = size_t(triangle_count) * 3;
        for (size_t i = 0; i < index_count; ++i) {
            rc::require(triangles[i] < uint32_t(vertex_count), "rc_simplify_mesh: index out of range");
        }
        const size_t target_indices = size_t(target_triangles) * 3;
        float reached = 0;
        if (target_indices >= index_count) {
            std::copy(triangles, triangles + index_count, triangles_out);
            if (out_triangle_count) *out_triangle_count = triangle_count;
            if (out_error) *out_error = 0;
            return;
        }
        std::vector<uint32_t> scratch(index_count);
        const unsigned options = lock_border ? meshopt_SimplifyLockBorder : 0;
        size_t kept = meshopt_simplify(scratch.data(), triangles, index_count, positions, size_t(vertex_count),
                                       sizeof(float) * 3, target_indices, target_error, options, &reached);
        if (kept > target_indices) {
            // Topology kept the collapses from reaching the cap: cluster the result further.
            std::vector<uint32_t> sloppy(kept);
            float sloppy_error = 0;
            size_t reduced = meshopt_simplifySloppy(sloppy.data(), scratch.data(), kept, positions,
                                                    size_t(vertex_count), sizeof(float) * 3, target_indices,
                                                    1.0f, &sloppy_error);
            // Clustering aims at the target but may land a little above it: tighten until it holds.
            size_t aim = target_indices;
            while (reduced > target_indices && aim > 3) {
                aim = std::max<size_t>(3, aim * 9 / 10 / 3 * 3);
                reduced = meshopt_simplifySloppy(sloppy.data(), scratch.data(), kept, positions,
                                                 size_t(vertex_count), sizeof(float) * 3, aim, 1.0f, &sloppy_error);
            }
            std::copy(sloppy.begin(), sloppy.begin() + reduced, scratch.begin());
            kept = reduced;
            reached = std::max(reached, sloppy_error);
        }
        std::copy(scratch.begin(), scratch.begin() + kept, triangles_out);
        if (out_triangle_count) *out_triangle_count = int32_t(kept / 3);
        if (out_error) *out_error = reached;
    });
}
