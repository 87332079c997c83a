// Brute-force nearest-neighbour descriptor matching as blocked matrix products. The descriptors
// are bytes, so the products are integer ones: oneDNN's u8·s8 → s32 GEMM (JIT kernels for the CPU
// at run time: AVX-512 VNNI, AVX2, …) gives exact dot products about 4× faster than a float
// sgemm of the same size; the cosines follow from the exact dots and the descriptors' norms.
// Also a float product A·Bᵀ for image retrieval (visual words and global image descriptors).
#include <oneapi/dnnl/dnnl.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "guarded.hpp"

extern "C" void omp_set_num_threads(int);  // libgomp, oneDNN's threading runtime

namespace {

// 1 / Euclidean norm of each 128-byte descriptor (0 for an all-zero one).
std::vector<float> inverse_norms(const uint8_t* bytes, int32_t count) {
    std::vector<float> inv(count);
    for (int32_t i = 0; i < count; ++i) {
        const uint8_t* row = bytes + static_cast<size_t>(i) * 128;
        int32_t norm2 = 0;
        for (int k = 0; k < 128; ++k) norm2 += int32_t(row[k]) * row[k];
        inv[i] = norm2 > 0 ? 1.0f / std::sqrt(float(norm2)) : 0.0f;
    }
    return inv;
}

// The GEMM takes one side signed: the second set's bytes shifted by −128. Each row's products
// then miss 128 × the row's byte sum, which is added back.
std::vector<int8_t> shifted_to_signed(const uint8_t* bytes, int32_t count) {
    std::vector<int8_t> out(static_cast<size_t>(count) * 128);
    for (size_t i = 0; i < out.size(); ++i) out[i] = static_cast<int8_t>(int32_t(bytes[i]) - 128);
    return out;
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
        // Callers run several matchings in parallel; library threads would only oversubscribe the cores.
        omp_set_num_threads(1);
        const std::vector<float> inverse1 = inverse_norms(descriptors1, count1);
        const std::vector<float> inverse2 = inverse_norms(descriptors2, count2);
        const std::vector<int8_t> signed2 = shifted_to_signed(descriptors2, count2);

        // For unit vectors, squared distance = 2 − 2·cosine, so the nearest neighbour has the largest cosine.
        std::vector<int32_t> best_of_row(count1, -1);
        std::vector<float> best_dot(count1), second_dot(count1);
        std::vector<int32_t> best_of_column(count2, -1);
        std::vector<float> column_dot(count2, -std::numeric_limits<float>::infinity());
        constexpr int32_t kBlock = 256;  // rows per product: the block stays in cache while scanned
        std::vector<int32_t> products(static_cast<size_t>(kBlock) * count2);
        std::vector<float> cosines(count2);
        const int32_t no_offset = 0;
        for (int32_t start = 0; start < count1; start += kBlock) {
            const int32_t rows = std::min(kBlock, count1 - start);
            const dnnl_status_t status = dnnl_gemm_u8s8s32(
                'N', 'T', 'F', rows, count2, 128, 1.0f, descriptors1 + static_cast<size_t>(start) * 128, 128, 0,
                signed2.data(), 128, 0, 0.0f, products.data(), count2, &no_offset);
            rc::require(status == dnnl_success, "oneDNN integer GEMM failed");
            for (int32_t r = 0; r < rows; ++r) {
                const uint8_t* a = descriptors1 + static_cast<size_t>(start + r) * 128;
                int32_t byte_sum = 0;
                for (int k = 0; k < 128; ++k) byte_sum += a[k];
                const int32_t shift = 128 * byte_sum;
                const float scale = inverse1[start + r];
                const int32_t* row = products.data() + static_cast<size_t>(r) * count2;
                for (int32_t j = 0; j < count2; ++j) cosines[j] = float(row[j] + shift) * scale * inverse2[j];
                float d1 = -2, d2 = -2;
                int32_t j1 = -1;
                for (int32_t j = 0; j < count2; ++j) {
                    const float d = cosines[j];
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

extern "C" int32_t rc_multiply_transposed(const float* a, const float* b, int32_t m, int32_t n, int32_t k,
                                          int32_t threads, float* c, rc_error* error) {
    return rc::guarded(error, [&] {
        rc::require(m >= 0 && n >= 0 && k >= 0, "negative matrix dimension");
        rc::require(threads >= 1, "threads must be at least 1");
        if (m == 0 || n == 0) return;
        rc::require(a != nullptr && b != nullptr && c != nullptr, "null matrix");
        omp_set_num_threads(threads);
        const dnnl_status_t status = dnnl_sgemm('N', 'T', m, n, k, 1.0f, a, k, b, k, 0.0f, c, n);
        rc::require(status == dnnl_success, "oneDNN sgemm failed");
    });
}
