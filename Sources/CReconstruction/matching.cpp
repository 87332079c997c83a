// Brute-force nearest-neighbour descriptor matching as blocked matrix products (OpenBLAS sgemm,
// which picks its kernel for the CPU at run time).
#include <cblas.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <mutex>
#include <vector>

#include "guarded.hpp"

namespace {

std::vector<float> to_unit_floats(const uint8_t* bytes, int32_t count) {
    std::vector<float> m(static_cast<size_t>(count) * 128);
    for (int32_t i = 0; i < count; ++i) {
        float* row = m.data() + static_cast<size_t>(i) * 128;
        float norm2 = 0;
        for (int k = 0; k < 128; ++k) {
            row[k] = bytes[static_cast<size_t>(i) * 128 + k];
            norm2 += row[k] * row[k];
        }
        const float inv = norm2 > 0 ? 1.0f / std::sqrt(norm2) : 0.0f;
        for (int k = 0; k < 128; ++k) row[k] *= inv;
    }
    return m;
}

// Callers run several matchings in parallel; BLAS threads would only oversubscribe the cores.
void single_threaded_blas() {
    static std::once_flag once;
    std::call_once(once, [] { openblas_set_num_threads(1); });
}

}  // namespace

extern "C" int32_t rc_match_descriptors(const uint8_t* descriptors1, int32_t count1, const uint8_t* descriptors2,
                                        int32_t count2, const rc_match_options* options, int32_t* matches,
                                        int32_t* match_count, rc_error* error) {
    return rc::guarded(error, [&] {
        rc::require(options != nullptr && matches != nullptr && match_count != nullptr, "null argument");
        rc::require(count1 >= 0 && count2 >= 0, "negative descriptor count");
        *match_count = 0;
        if (count1 < 2 || count2 < 2) return;
        rc::require(descriptors1 != nullptr && descriptors2 != nullptr, "null descriptors");
        single_threaded_blas();
        const std::vector<float> a = to_unit_floats(descriptors1, count1);
        const std::vector<float> b = to_unit_floats(descriptors2, count2);

        // For unit vectors, squared distance = 2 − 2·dot, so the nearest neighbour has the largest dot.
        std::vector<int32_t> best_of_row(count1, -1);
        std::vector<float> best_dot(count1), second_dot(count1);
        std::vector<int32_t> best_of_column(count2, -1);
        std::vector<float> column_dot(count2, -std::numeric_limits<float>::infinity());
        constexpr int32_t kBlock = 256;  // rows per product: the block stays in cache while scanned
        std::vector<float> dots(static_cast<size_t>(kBlock) * count2);
        for (int32_t start = 0; start < count1; start += kBlock) {
            const int32_t rows = std::min(kBlock, count1 - start);
            cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, rows, count2, 128, 1.0f,
                        a.data() + static_cast<size_t>(start) * 128, 128, b.data(), 128, 0.0f, dots.data(), count2);
            for (int32_t r = 0; r < rows; ++r) {
                const float* row = dots.data() + static_cast<size_t>(r) * count2;
                float d1 = -2, d2 = -2;
                int32_t j1 = -1;
                for (int32_t j = 0; j < count2; ++j) {
                    const float d = row[j];
                    if (d > d2) {
                        if (d > d1) {
                            d2 = d1;
                            d1 = d;
                            j1 = j;
                        } else {
                            d2 = d;
                        }
                    }
                    if (d > column_dot[j]) {
                        column_dot[j] = d;
                        best_of_column[j] = start + r;
                    }
                }
                best_of_row[start + r] = j1;
                best_dot[start + r] = d1;
                second_dot[start + r] = d2;
            }
        }

        const float max_ratio2 = options->max_ratio * options->max_ratio;
        const float max_distance2 = options->max_distance * options->max_distance;
        int32_t n = 0;
        for (int32_t i = 0; i < count1; ++i) {
            const int32_t j = best_of_row[i];
            if (j < 0) continue;
            const float dist1 = std::max(0.0f, 2 - 2 * best_dot[i]);
            const float dist2 = std::max(1e-12f, 2 - 2 * second_dot[i]);
            if (dist1 > max_distance2 || dist1 > max_ratio2 * dist2) continue;
            if (options->cross_check && best_of_column[j] != i) continue;
            matches[2 * n] = i;
            matches[2 * n + 1] = j;
            ++n;
        }
        *match_count = n;
    });
}
