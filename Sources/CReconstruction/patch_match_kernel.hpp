// The PatchMatch kernel, included twice by patch_match.cpp: once compiled for AVX2 + FMA and once
// for the baseline instruction set, each inside its own namespace; the entry point picks one at
// run time. Deliberately without an include guard.

constexpr int kMaxSources = 32;
constexpr int kMaxWindowSamples = 1024;
constexpr int kMaxCandidates = 9;   // the current hypothesis and the best of eight areas
constexpr int kRefinements = 7;
constexpr float kNoCost = 2.0f;     // 1 − NCC of an unusable view or pixel
constexpr float kWeightScale = 0.3f;  // cost scale of a selected view's weight exp(−c² / 2s²)

/// A view's pixels and its camera relative to the reference, in single precision.
struct View {
    int width = 0, height = 0;
    std::vector<uint8_t> gray;  // 1 byte per pixel keeps more of the view in cache
    float fx = 0, fy = 0, cx = 0, cy = 0;
    float rotation[9] = {};     // view from reference
    float translation[3] = {};  // view from reference
    float a[9] = {};            // K_view · R · K_ref⁻¹
    float b[3] = {};            // K_view · t
    const float* depth = nullptr;
};

/// A plane hypothesis at a pixel: depth along z (metres) and unit normal (reference camera).
struct Hypothesis {
    float depth;
    float n[3];
};

/// The reference's matching window at one pixel: grey samples and normalised weights.
/// `count` samples, then zero-weight padding up to `padded` (a multiple of 8).
struct Window {
    int count = 0, padded = 0;
    float mean = 0, variance = 0;
    alignas(32) float r[kMaxWindowSamples];
    alignas(32) float w[kMaxWindowSamples];
};

/// Small, fast, seedable generator; one is derived per pixel and pass, so results do not depend
/// on which thread runs the pixel.
struct Random {
    uint64_t state;
    explicit Random(uint64_t seed) : state(seed) {}
    uint32_t next() {
        state += 0x9E3779B97F4A7C15ull;
        uint64_t z = state;
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return static_cast<uint32_t>((z ^ (z >> 31)) >> 32);
    }
    /// Uniform in [0, 1).
    float uniform() { return static_cast<float>(next() >> 8) * (1.0f / 16777216.0f); }
    /// Uniform in [−1, 1).
    float symmetric() { return 2.0f * uniform() - 1.0f; }
};

struct Offset {
    int dx, dy;
    float spatial_weight;
};

#if RC_KERNEL_AVX2
float horizontal_sum(__m256 v) {
    __m128 sum = _mm_add_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
    sum = _mm_add_ps(sum, _mm_movehl_ps(sum, sum));
    sum = _mm_add_ss(sum, _mm_shuffle_ps(sum, sum, 1));
    return _mm_cvtss_f32(sum);
}
#endif

void normalize3(float* v) {
    const float l = std::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    if (l > 0) {
        v[0] /= l;
        v[1] /= l;
        v[2] /= l;
    }
}

class PatchMatch {
public:
    PatchMatch(const rc_stereo_view& reference, const rc_stereo_view* sources, int source_count,
               const uint8_t* mask, const float* initial_depth, const float* initial_normal,
               const rc_patch_match_options& options)
        : options_(options), width_(reference.width), height_(reference.height) {
        const size_t n = static_cast<size_t>(width_) * height_;
        ref_gray_.resize(n);
        for (size_t i = 0; i < n; ++i) ref_gray_[i] = reference.gray[i];
        fx_ = static_cast<float>(reference.fx);
        fy_ = static_cast<float>(reference.fy);
        cx_ = static_cast<float>(reference.cx);
        cy_ = static_cast<float>(reference.cy);
        views_.resize(source_count);
        for (int s = 0; s < source_count; ++s) set_view(views_[s], sources[s], reference);
        for (int dy = -options.window_radius; dy <= options.window_radius; dy += options.window_step) {
            for (int dx = -options.window_radius; dx <= options.window_radius; dx += options.window_step) {
                const float s2 = options.sigma_spatial > 0
                                     ? std::exp(-(dx * dx + dy * dy) /
                                                (2.0f * options.sigma_spatial * options.sigma_spatial))
                                     : 1.0f;
                offsets_.push_back({dx, dy, s2});
                offset_x_.push_back(static_cast<float>(dx));
                offset_y_.push_back(static_cast<float>(dy));
            }
        }
        // Zero offsets pad the sample list to a multiple of 8 (their weights are 0).
        padded_samples_ = (static_cast<int>(offset_x_.size()) + 7) / 8 * 8;
        offset_x_.resize(padded_samples_, 0.0f);
        offset_y_.resize(padded_samples_, 0.0f);
        min_variance_ = options.min_texture * options.min_texture;
        inverse_depth_min_ = 1.0f / options.depth_max;
        inverse_depth_max_ = 1.0f / options.depth_min;

        depth_.assign(n, 0.0f);
        normal_.assign(3 * n, 0.0f);
        cost_.assign(n, kNoCost);
        view_cost_.assign(n * source_count, kNoCost);
        all_views_ = source_count >= 32 ? 0xFFFFFFFFu : (1u << source_count) - 1;
        active_.assign(n, 0);
        for (size_t i = 0; i < n; ++i) active_[i] = mask == nullptr || mask[i] != 0;
        initial_depth_ = initial_depth;
        initial_normal_ = initial_normal;
    }

    void run() {
        parallel_rows([this](int y) {
            for (int x = 0; x < width_; ++x) initialise(x, y);
        });
        for (int iteration = 0; iteration < options_.iterations; ++iteration) {
            for (int colour = 0; colour < 2; ++colour) {
                parallel_rows([this, iteration, colour](int y) {
                    for (int x = (y + colour) & 1; x < width_; x += 2) update(x, y, iteration);
                });
            }
        }
    }

    void write(float* depth, float* normal, float* cost) const {
        const size_t n = static_cast<size_t>(width_) * height_;
        for (size_t i = 0; i < n; ++i) {
            const bool ok = active_[i] != 0;
            depth[i] = ok ? depth_[i] : 0.0f;
            cost[i] = ok ? cost_[i] : kNoCost;
            for (int k = 0; k < 3; ++k) normal[3 * i + k] = ok ? normal_[3 * i + k] : 0.0f;
        }
    }

private:
    const rc_patch_match_options options_;
    const int width_, height_;
    float fx_, fy_, cx_, cy_;
    std::vector<float> ref_gray_;
    std::vector<View> views_;
    std::vector<Offset> offsets_;
    std::vector<float> offset_x_, offset_y_;
    int padded_samples_ = 0;
    float min_variance_ = 0;
    float inverse_depth_min_ = 0, inverse_depth_max_ = 0;
    std::vector<float> depth_, normal_, cost_;
    std::vector<float> view_cost_;  // per pixel, the stored hypothesis's cost in every view
    uint32_t all_views_ = 0;
    std::vector<uint8_t> active_;
    const float* initial_depth_ = nullptr;
    const float* initial_normal_ = nullptr;

    void set_view(View& v, const rc_stereo_view& s, const rc_stereo_view& reference) {
        v.width = s.width;
        v.height = s.height;
        // 8 spare bytes: the vector path reads 4 bytes at a time at the last pixels.
        v.gray.assign(static_cast<size_t>(s.width) * s.height + 8, 0);
        std::memcpy(v.gray.data(), s.gray, static_cast<size_t>(s.width) * s.height);
        v.fx = static_cast<float>(s.fx);
        v.fy = static_cast<float>(s.fy);
        v.cx = static_cast<float>(s.cx);
        v.cy = static_cast<float>(s.cy);
        for (int k = 0; k < 9; ++k) v.rotation[k] = static_cast<float>(s.rotation[k]);
        for (int k = 0; k < 3; ++k) v.translation[k] = static_cast<float>(s.translation[k]);
        v.depth = s.depth;
        // K_view · R · K_ref⁻¹ in double, then stored as float.
        const double kinv[9] = {1 / reference.fx, 0, -reference.cx / reference.fx,
                                0, 1 / reference.fy, -reference.cy / reference.fy, 0, 0, 1};
        const double kv[9] = {s.fx, 0, s.cx, 0, s.fy, s.cy, 0, 0, 1};
        double kr[9];
        for (int i = 0; i < 3; ++i)
            for (int j = 0; j < 3; ++j) {
                double sum = 0;
                for (int k = 0; k < 3; ++k) sum += kv[3 * i + k] * s.rotation[3 * k + j];
                kr[3 * i + j] = sum;
            }
        for (int i = 0; i < 3; ++i)
            for (int j = 0; j < 3; ++j) {
                double sum = 0;
                for (int k = 0; k < 3; ++k) sum += kr[3 * i + k] * kinv[3 * k + j];
                v.a[3 * i + j] = static_cast<float>(sum);
            }
        for (int i = 0; i < 3; ++i) {
            double sum = 0;
            for (int k = 0; k < 3; ++k) sum += kv[3 * i + k] * s.translation[k];
            v.b[i] = static_cast<float>(sum);
        }
    }

    template <typename Body>
    void parallel_rows(Body body) {
        const int threads = std::max(1, std::min(options_.num_threads, height_));
        if (threads == 1) {
            for (int y = 0; y < height_; ++y) body(y);
            return;
        }
        std::atomic<int> next{0};
        auto worker = [&] {
            for (int y = next.fetch_add(1); y < height_; y = next.fetch_add(1)) body(y);
        };
        std::vector<std::thread> pool;
        for (int t = 1; t < threads; ++t) pool.emplace_back(worker);
        worker();
        for (auto& t : pool) t.join();
    }

    // MARK: Geometry helpers

    /// Ray through a pixel centre (x + 0.5, y + 0.5) with z = 1.
    void ray(int x, int y, float* r) const {
        r[0] = (x + 0.5f - cx_) / fx_;
        r[1] = (y + 0.5f - cy_) / fy_;
        r[2] = 1.0f;
    }

    float random_depth(Random& rng) const {
        const float inv = inverse_depth_min_ + rng.uniform() * (inverse_depth_max_ - inverse_depth_min_);
        return 1.0f / inv;
    }

    /// A uniformly random unit normal facing the camera along `ray`.
    void random_normal(Random& rng, const float* r, float* n) const {
        const float z = rng.symmetric();
        const float phi = 6.2831853f * rng.uniform();
        const float s = std::sqrt(std::max(0.0f, 1.0f - z * z));
        n[0] = s * std::cos(phi);
        n[1] = s * std::sin(phi);
        n[2] = z;
        if (n[0] * r[0] + n[1] * r[1] + n[2] * r[2] > 0) {
            n[0] = -n[0];
            n[1] = -n[1];
            n[2] = -n[2];
        }
    }

    /// `n` tilted by up to about `amount` radians at random; unchanged if the result would face away.
    void perturb_normal(Random& rng, const float* n, float amount, const float* r, float* out) const {
        out[0] = n[0] + amount * rng.symmetric();
        out[1] = n[1] + amount * rng.symmetric();
        out[2] = n[2] + amount * rng.symmetric();
        normalize3(out);
        if (out[0] * r[0] + out[1] * r[1] + out[2] * r[2] >= -1e-3f) std::memcpy(out, n, sizeof(float) * 3);
    }

    bool in_range(float d) const { return d >= options_.depth_min && d <= options_.depth_max; }

    /// The depth at pixel (x, y) of the plane through neighbour q's hypothesis.
    float transferred_depth(int qx, int qy, float qdepth, const float* n, int x, int y) const {
        float rq[3], rp[3];
        ray(qx, qy, rq);
        ray(x, y, rp);
        const float numerator = qdepth * (n[0] * rq[0] + n[1] * rq[1] + n[2] * rq[2]);
        const float denominator = n[0] * rp[0] + n[1] * rp[1] + n[2] * rp[2];
        if (denominator > -1e-3f) return qdepth;
        const float d = numerator / denominator;
        return in_range(d) ? d : qdepth;
    }

    // MARK: Matching cost

    /// Builds the reference window at (x, y); false if it is untextured. Samples outside the
    /// image get no weight.
    bool build_window(int x, int y, Window& window) const {
        const float centre = ref_gray_[static_cast<size_t>(y) * width_ + x];
        const float colour_scale = options_.sigma_color > 0 ? 1.0f / options_.sigma_color : 0.0f;
        float sum_w = 0, sum_wr = 0, sum_wrr = 0;
        int k = 0;
        for (const Offset& o : offsets_) {
            const int sx = x + o.dx, sy = y + o.dy;
            float r = centre, w = 0;
            if (sx >= 0 && sy >= 0 && sx < width_ && sy < height_) {
                r = ref_gray_[static_cast<size_t>(sy) * width_ + sx];
                w = o.spatial_weight * std::exp(-std::fabs(r - centre) * colour_scale);
            }
            window.r[k] = r;
            window.w[k] = w;
            sum_w += w;
            sum_wr += w * r;
            sum_wrr += w * r * r;
            ++k;
        }
        window.count = k;
        window.padded = padded_samples_;
        for (int i = k; i < padded_samples_; ++i) {
            window.r[i] = 0;
            window.w[i] = 0;
        }
        const float inv = 1.0f / sum_w;
        for (int i = 0; i < k; ++i) window.w[i] *= inv;
        window.mean = sum_wr * inv;
        window.variance = sum_wrr * inv - window.mean * window.mean;
        return window.variance >= min_variance_ && window.variance > 1e-6f;
    }

    /// 1 − weighted NCC between the reference window at pixel (x, y) and view `v` through the
    /// homography `h` (reference pixel → view pixel); kNoCost if the window leaves the view.
    /// The AVX2 build takes eight window samples per step; the portable one runs three simple
    /// loops (coordinates, bilinear samples, sums) so the compiler can vectorise the first and last.
    float photometric_cost(const Window& window, const View& v, const float* h, int x, int y) const {
        const int count = window.count;
        const float px = x + 0.5f, py = y + 0.5f;
        const float hx = h[0] * px + h[1] * py + h[2];
        const float hy = h[3] * px + h[4] * py + h[5];
        const float hz = h[6] * px + h[7] * py + h[8];
        // The window must lie in front of the view (z is affine over the window, so its minimum
        // is at a corner) and inside it (the image of the window's corners bounds it).
        const float reach = static_cast<float>(options_.window_radius);
        if (hz - std::fabs(h[6]) * reach - std::fabs(h[7]) * reach <= 1e-6f) return kNoCost;
        for (int corner = 0; corner < 4; ++corner) {
            const float ox = (corner & 1) ? reach : -reach, oy = (corner & 2) ? reach : -reach;
            const float z = hz + h[6] * ox + h[7] * oy;
            const float u = (hx + h[0] * ox + h[1] * oy) / z, w = (hy + h[3] * ox + h[4] * oy) / z;
            if (!(u >= 0 && u <= v.width && w >= 0 && w <= v.height)) return kNoCost;
        }
        const float umax = v.width - 1.001f, wmax = v.height - 1.001f;
        const int stride = v.width;
        const float* dx = offset_x_.data();
        const float* dy = offset_y_.data();
        const uint8_t* image = v.gray.data();
        float sum_s = 0, sum_ss = 0, sum_rs = 0;
#if RC_KERNEL_AVX2
        // Eight samples at a time: coordinates, two 32-bit gathers per row pair of the bilinear
        // footprint (bytes 0 and 1 are the left and right pixels), lerps and sums with FMA.
        {
            const __m256 vh0 = _mm256_set1_ps(h[0]), vh1 = _mm256_set1_ps(h[1]), vh3 = _mm256_set1_ps(h[3]);
            const __m256 vh4 = _mm256_set1_ps(h[4]), vh6 = _mm256_set1_ps(h[6]), vh7 = _mm256_set1_ps(h[7]);
            const __m256 vhx = _mm256_set1_ps(hx), vhy = _mm256_set1_ps(hy), vhz = _mm256_set1_ps(hz);
            const __m256 half = _mm256_set1_ps(0.5f), zero = _mm256_setzero_ps();
            const __m256 vumax = _mm256_set1_ps(umax), vwmax = _mm256_set1_ps(wmax);
            const __m256i vstride = _mm256_set1_epi32(stride), low_byte = _mm256_set1_epi32(0xFF);
            const int* top_base = reinterpret_cast<const int*>(image);
            const int* bottom_base = reinterpret_cast<const int*>(image + stride);
            __m256 acc_s = _mm256_setzero_ps(), acc_ss = _mm256_setzero_ps(), acc_rs = _mm256_setzero_ps();
            for (int k = 0; k < window.padded; k += 8) {
                const __m256 ox = _mm256_loadu_ps(dx + k), oy = _mm256_loadu_ps(dy + k);
                const __m256 z = _mm256_fmadd_ps(vh7, oy, _mm256_fmadd_ps(vh6, ox, vhz));
                const __m256 inv = _mm256_div_ps(_mm256_set1_ps(1.0f), z);
                __m256 u = _mm256_fmsub_ps(_mm256_fmadd_ps(vh1, oy, _mm256_fmadd_ps(vh0, ox, vhx)), inv, half);
                __m256 w = _mm256_fmsub_ps(_mm256_fmadd_ps(vh4, oy, _mm256_fmadd_ps(vh3, ox, vhy)), inv, half);
                u = _mm256_min_ps(_mm256_max_ps(u, zero), vumax);
                w = _mm256_min_ps(_mm256_max_ps(w, zero), vwmax);
                const __m256i iu = _mm256_cvttps_epi32(u), iw = _mm256_cvttps_epi32(w);
                const __m256 fu = _mm256_sub_ps(u, _mm256_cvtepi32_ps(iu));
                const __m256 fw = _mm256_sub_ps(w, _mm256_cvtepi32_ps(iw));
                const __m256i index = _mm256_add_epi32(_mm256_mullo_epi32(iw, vstride), iu);
                const __m256i top = _mm256_i32gather_epi32(top_base, index, 1);
                const __m256i bottom = _mm256_i32gather_epi32(bottom_base, index, 1);
                const __m256 p00 = _mm256_cvtepi32_ps(_mm256_and_si256(top, low_byte));
                const __m256 p01 = _mm256_cvtepi32_ps(_mm256_and_si256(_mm256_srli_epi32(top, 8), low_byte));
                const __m256 p10 = _mm256_cvtepi32_ps(_mm256_and_si256(bottom, low_byte));
                const __m256 p11 = _mm256_cvtepi32_ps(_mm256_and_si256(_mm256_srli_epi32(bottom, 8), low_byte));
                const __m256 upper = _mm256_fmadd_ps(fu, _mm256_sub_ps(p01, p00), p00);
                const __m256 lower = _mm256_fmadd_ps(fu, _mm256_sub_ps(p11, p10), p10);
                const __m256 sample = _mm256_fmadd_ps(fw, _mm256_sub_ps(lower, upper), upper);
                const __m256 ws = _mm256_mul_ps(_mm256_load_ps(window.w + k), sample);
                acc_s = _mm256_add_ps(acc_s, ws);
                acc_ss = _mm256_fmadd_ps(ws, sample, acc_ss);
                acc_rs = _mm256_fmadd_ps(ws, _mm256_load_ps(window.r + k), acc_rs);
            }
            sum_s = horizontal_sum(acc_s);
            sum_ss = horizontal_sum(acc_ss);
            sum_rs = horizontal_sum(acc_rs);
        }
#else
        {
            alignas(32) float fu[kMaxWindowSamples], fw[kMaxWindowSamples], s[kMaxWindowSamples];
            alignas(32) int32_t index[kMaxWindowSamples];
            for (int k = 0; k < count; ++k) {
                const float z = hz + h[6] * dx[k] + h[7] * dy[k];
                const float inv = 1.0f / z;
                // Pixel centres are at +0.5: array coordinates are the pixel coordinates − 0.5.
                float u = (hx + h[0] * dx[k] + h[1] * dy[k]) * inv - 0.5f;
                float w = (hy + h[3] * dx[k] + h[4] * dy[k]) * inv - 0.5f;
                u = std::min(std::max(u, 0.0f), umax);
                w = std::min(std::max(w, 0.0f), wmax);
                const int32_t iu = static_cast<int32_t>(u), iw = static_cast<int32_t>(w);
                fu[k] = u - static_cast<float>(iu);
                fw[k] = w - static_cast<float>(iw);
                index[k] = iw * stride + iu;
            }
            for (int k = 0; k < count; ++k) {
                const uint8_t* p = image + index[k];
                const float p00 = p[0], p01 = p[1], p10 = p[stride], p11 = p[stride + 1];
                const float top = p00 + fu[k] * (p01 - p00);
                const float bottom = p10 + fu[k] * (p11 - p10);
                s[k] = top + fw[k] * (bottom - top);
            }
            {
#pragma clang fp reassociate(on)
                const float* wr = window.w;
                const float* rr = window.r;
                for (int k = 0; k < count; ++k) {
                    const float ws = wr[k] * s[k];
                    sum_s += ws;
                    sum_ss += ws * s[k];
                    sum_rs += ws * rr[k];
                }
            }
        }
#endif
        const float variance_s = sum_ss - sum_s * sum_s;
        if (variance_s < 1e-6f) return kNoCost;
        const float covariance = sum_rs - window.mean * sum_s;
        const float ncc = covariance / std::sqrt(window.variance * variance_s);
        return std::min(std::max(1.0f - ncc, 0.0f), kNoCost);
    }

    /// Forward-backward reprojection error (pixels, saturated) of the reference point `X` at
    /// pixel (px, py) through view `v`'s depth map.
    float geometric_error(const View& v, const float* X, float px, float py) const {
        const float max_error = options_.geometric_max_error;
        const float* R = v.rotation;
        const float* t = v.translation;
        const float xs = R[0] * X[0] + R[1] * X[1] + R[2] * X[2] + t[0];
        const float ys = R[3] * X[0] + R[4] * X[1] + R[5] * X[2] + t[1];
        const float zs = R[6] * X[0] + R[7] * X[1] + R[8] * X[2] + t[2];
        if (zs <= 0) return max_error;
        const float us = v.fx * xs / zs + v.cx, vs = v.fy * ys / zs + v.cy;
        if (!(us >= 0 && us < v.width && vs >= 0 && vs < v.height)) return max_error;
        const float ds = v.depth[static_cast<size_t>(static_cast<int>(vs)) * v.width + static_cast<int>(us)];
        if (!(ds > 0)) return max_error;
        // Back-project the view's depth at that pixel and bring it into the reference.
        const float bx = ds * (us - v.cx) / v.fx - t[0];
        const float by = ds * (vs - v.cy) / v.fy - t[1];
        const float bz = ds - t[2];
        const float rx = R[0] * bx + R[3] * by + R[6] * bz;
        const float ry = R[1] * bx + R[4] * by + R[7] * bz;
        const float rz = R[2] * bx + R[5] * by + R[8] * bz;
        if (rz <= 0) return max_error;
        const float ex = fx_ * rx / rz + cx_ - px, ey = fy_ * ry / rz + cy_ - py;
        return std::min(std::sqrt(ex * ex + ey * ey), max_error);
    }

    /// Costs of one hypothesis in the views whose bit is set in `which`; other entries of
    /// `costs` are left as they are.
    void view_costs(const Window& window, const Hypothesis& hyp, int x, int y, uint32_t which, float* costs) const {
        float r[3];
        ray(x, y, r);
        const float X[3] = {hyp.depth * r[0], hyp.depth * r[1], hyp.depth * r[2]};
        // Plane n·X + δ = 0 through X; homography H = A − b · (nᵀ K⁻¹) / δ.
        const float delta = -(hyp.n[0] * X[0] + hyp.n[1] * X[1] + hyp.n[2] * X[2]);
        const int count = static_cast<int>(views_.size());
        if (delta <= 1e-9f) {
            for (int s = 0; s < count; ++s)
                if (which & (1u << s)) costs[s] = kNoCost;
            return;
        }
        const float m0 = hyp.n[0] / fx_ / delta;
        const float m1 = hyp.n[1] / fy_ / delta;
        const float m2 = (hyp.n[2] - hyp.n[0] * cx_ / fx_ - hyp.n[1] * cy_ / fy_) / delta;
        const float px = x + 0.5f, py = y + 0.5f;
        for (int s = 0; s < count; ++s) {
            if (!(which & (1u << s))) continue;
            const View& v = views_[s];
            float h[9];
            for (int i = 0; i < 3; ++i) {
                h[3 * i + 0] = v.a[3 * i + 0] - v.b[i] * m0;
                h[3 * i + 1] = v.a[3 * i + 1] - v.b[i] * m1;
                h[3 * i + 2] = v.a[3 * i + 2] - v.b[i] * m2;
            }
            float c = photometric_cost(window, v, h, x, y);
            if (v.depth != nullptr) c += options_.geometric_weight * geometric_error(v, X, px, py);
            costs[s] = c;
        }
    }

    float weighted_cost(const float* costs, const float* weights) const {
        float sum = 0, sum_w = 0;
        for (size_t s = 0; s < views_.size(); ++s) {
            if (weights[s] > 0) {
                sum += weights[s] * costs[s];
                sum_w += weights[s];
            }
        }
        return sum_w > 0 ? sum / sum_w : kNoCost;
    }

    // MARK: Per-pixel steps

    Hypothesis stored(size_t i) const {
        return Hypothesis{depth_[i], {normal_[3 * i], normal_[3 * i + 1], normal_[3 * i + 2]}};
    }

    void store(size_t i, const Hypothesis& h, float cost, const float* costs) {
        std::memcpy(view_cost_.data() + i * views_.size(), costs, sizeof(float) * views_.size());
        depth_[i] = h.depth;
        normal_[3 * i] = h.n[0];
        normal_[3 * i + 1] = h.n[1];
        normal_[3 * i + 2] = h.n[2];
        cost_[i] = cost;
    }

    Random pixel_random(int x, int y, int pass) const {
        const uint64_t index = static_cast<uint64_t>(y) * width_ + x;
        return Random(options_.seed * 0x100000001B3ull ^ (index * 0x9E3779B1ull) ^ (static_cast<uint64_t>(pass) << 48));
    }

    void initialise(int x, int y) {
        const size_t i = static_cast<size_t>(y) * width_ + x;
        if (!active_[i]) return;
        Window window;
        if (!build_window(x, y, window)) {
            active_[i] = 0;
            return;
        }
        Random rng = pixel_random(x, y, 0);
        float r[3];
        ray(x, y, r);
        Hypothesis h;
        const float d0 = initial_depth_ != nullptr ? initial_depth_[i] : 0.0f;
        if (d0 > 0 && in_range(d0)) {
            h.depth = d0;
            std::memcpy(h.n, initial_normal_ + 3 * i, sizeof(float) * 3);
            normalize3(h.n);
            if (!(h.n[0] * r[0] + h.n[1] * r[1] + h.n[2] * r[2] < -1e-3f)) random_normal(rng, r, h.n);
        } else {
            h.depth = random_depth(rng);
            random_normal(rng, r, h.n);
        }
        // Initial cost: the mean of the best half of the views (occlusions spoil the rest).
        float costs[kMaxSources], sorted[kMaxSources];
        view_costs(window, h, x, y, all_views_, costs);
        const int count = static_cast<int>(views_.size());
        std::copy(costs, costs + count, sorted);
        std::sort(sorted, sorted + count);
        const int best = std::max(1, (count + 1) / 2);
        float sum = 0;
        for (int k = 0; k < best; ++k) sum += sorted[k];
        store(i, h, sum / best, costs);
    }

    void update(int x, int y, int iteration) {
        const size_t i = static_cast<size_t>(y) * width_ + x;
        if (!active_[i]) return;
        Window window;
        build_window(x, y, window);
        Random rng = pixel_random(x, y, 1 + iteration);
        float r[3];
        ray(x, y, r);

        // Candidates: the current hypothesis and, from each of eight areas of opposite colour,
        // the neighbour with the lowest cost, its plane carried to this pixel.
        Hypothesis candidates[kMaxCandidates];
        int candidate_count = 0;
        candidates[candidate_count++] = stored(i);
        static const int kStrip[4][2] = {{0, -1}, {0, 1}, {-1, 0}, {1, 0}};
        for (const auto& d : kStrip) {
            float best_cost = kNoCost;
            int best_x = -1, best_y = -1;
            for (int k = 0; k < 11; ++k) {
                const int qx = x + d[0] * (1 + 2 * k), qy = y + d[1] * (1 + 2 * k);
                if (qx < 0 || qy < 0 || qx >= width_ || qy >= height_) break;
                const size_t q = static_cast<size_t>(qy) * width_ + qx;
                if (active_[q] && cost_[q] < best_cost) {
                    best_cost = cost_[q];
                    best_x = qx;
                    best_y = qy;
                }
            }
            if (best_x >= 0) add_candidate(carried(best_x, best_y, x, y), candidates, candidate_count);
        }
        static const int kNear[8][2] = {{1, 2}, {2, 1}, {2, 3}, {3, 2}, {1, 4}, {4, 1}, {3, 4}, {4, 3}};
        static const int kQuadrant[4][2] = {{1, 1}, {1, -1}, {-1, 1}, {-1, -1}};
        for (const auto& sign : kQuadrant) {
            float best_cost = kNoCost;
            int best_x = -1, best_y = -1;
            for (const auto& o : kNear) {
                const int qx = x + sign[0] * o[0], qy = y + sign[1] * o[1];
                if (qx < 0 || qy < 0 || qx >= width_ || qy >= height_) continue;
                const size_t q = static_cast<size_t>(qy) * width_ + qx;
                if (active_[q] && cost_[q] < best_cost) {
                    best_cost = cost_[q];
                    best_x = qx;
                    best_y = qy;
                }
            }
            if (best_x >= 0) add_candidate(carried(best_x, best_y, x, y), candidates, candidate_count);
        }

        // Costs of every candidate in every view (the current one's are kept from when it was
        // stored), then view selection.
        const int view_count = static_cast<int>(views_.size());
        float costs[kMaxCandidates][kMaxSources];
        std::memcpy(costs[0], view_cost_.data() + i * view_count, sizeof(float) * view_count);
        for (int c = 1; c < candidate_count; ++c) view_costs(window, candidates[c], x, y, all_views_, costs[c]);
        float weights[kMaxSources];
        select_views(costs, candidate_count, weights);
        uint32_t selected = 0;
        for (int s = 0; s < view_count; ++s)
            if (weights[s] > 0) selected |= 1u << s;

        int best = 0;
        float best_cost = weighted_cost(costs[0], weights);
        for (int c = 1; c < candidate_count; ++c) {
            const float cost = weighted_cost(costs[c], weights);
            if (cost < best_cost) {
                best_cost = cost;
                best = c;
            }
        }
        Hypothesis current = candidates[best];
        float current_costs[kMaxSources];
        std::memcpy(current_costs, costs[best], sizeof(float) * view_count);
        bool refined = false;

        // Refinement: random and perturbed depths and normals, scored with the same views.
        const float scale = std::ldexp(1.0f, -iteration);
        const float depth_step = options_.depth_perturbation * scale;
        const float normal_step = options_.normal_perturbation * scale;
        Hypothesis trials[kRefinements];
        float random_n[3], perturbed_n[3], fine_n[3];
        random_normal(rng, r, random_n);
        perturb_normal(rng, current.n, normal_step, r, perturbed_n);
        perturb_normal(rng, current.n, 0.25f * normal_step, r, fine_n);
        const float random_d = random_depth(rng);
        float perturbed_d = current.depth * (1.0f + depth_step * rng.symmetric());
        if (!in_range(perturbed_d)) perturbed_d = current.depth;
        float fine_d = current.depth * (1.0f + 0.25f * depth_step * rng.symmetric());
        if (!in_range(fine_d)) fine_d = current.depth;
        int trial_count = 0;
        trials[trial_count++] = make(perturbed_d, current.n);
        trials[trial_count++] = make(current.depth, perturbed_n);
        trials[trial_count++] = make(perturbed_d, perturbed_n);
        trials[trial_count++] = make(fine_d, fine_n);
        if (options_.random_hypotheses) {
            trials[trial_count++] = make(random_d, random_n);
            trials[trial_count++] = make(random_d, current.n);
            trials[trial_count++] = make(current.depth, random_n);
        }
        for (int t = 0; t < trial_count; ++t) {
            const Hypothesis& trial = trials[t];
            float trial_costs[kMaxSources];
            view_costs(window, trial, x, y, selected, trial_costs);
            const float cost = weighted_cost(trial_costs, weights);
            if (cost < best_cost) {
                best_cost = cost;
                current = trial;
                std::memcpy(current_costs, trial_costs, sizeof(float) * view_count);
                refined = true;
            }
        }
        // A refined hypothesis was scored in the selected views only; complete its costs.
        if (refined) view_costs(window, current, x, y, all_views_ & ~selected, current_costs);
        store(i, current, best_cost, current_costs);
    }

    static Hypothesis make(float depth, const float* n) { return Hypothesis{depth, {n[0], n[1], n[2]}}; }

    /// Appends `h` unless a candidate already holds (nearly) the same plane: converged regions
    /// propagate one plane to many neighbours, and scoring it twice would change nothing.
    static void add_candidate(const Hypothesis& h, Hypothesis* candidates, int& count) {
        for (int c = 0; c < count; ++c) {
            const Hypothesis& o = candidates[c];
            if (std::fabs(h.depth - o.depth) < 1e-5f * h.depth &&
                h.n[0] * o.n[0] + h.n[1] * o.n[1] + h.n[2] * o.n[2] > 0.999999f)
                return;
        }
        candidates[count++] = h;
    }

    Hypothesis carried(int qx, int qy, int x, int y) const {
        Hypothesis h = stored(static_cast<size_t>(qy) * width_ + qx);
        h.depth = transferred_depth(qx, qy, h.depth, h.n, x, y);
        return h;
    }

    /// Per-view weights from the candidates' costs: a view is used when enough candidates match
    /// well in it and few match badly; its weight falls with its mean good cost. Without any such
    /// view, the two views with the lowest costs are used with equal weight.
    void select_views(const float (*costs)[kMaxSources], int candidate_count, float* weights) const {
        const int view_count = static_cast<int>(views_.size());
        int selected = 0;
        for (int s = 0; s < view_count; ++s) {
            int good = 0, bad = 0;
            float good_sum = 0;
            for (int c = 0; c < candidate_count; ++c) {
                const float cost = costs[c][s];
                if (cost < options_.good_cost) {
                    ++good;
                    good_sum += cost;
                } else if (cost > options_.bad_cost) {
                    ++bad;
                }
            }
            if (good > options_.min_good && bad < options_.max_bad) {
                const float mean = good_sum / good;
                weights[s] = std::exp(-mean * mean / (2 * kWeightScale * kWeightScale));
                ++selected;
            } else {
                weights[s] = 0;
            }
        }
        if (selected > 0) return;
        float minimum[kMaxSources];
        for (int s = 0; s < view_count; ++s) {
            minimum[s] = kNoCost;
            for (int c = 0; c < candidate_count; ++c) minimum[s] = std::min(minimum[s], costs[c][s]);
        }
        for (int pick = 0; pick < std::min(2, view_count); ++pick) {
            int best = -1;
            for (int s = 0; s < view_count; ++s) {
                if (weights[s] == 0 && (best < 0 || minimum[s] < minimum[best])) best = s;
            }
            if (best >= 0) weights[best] = 1;
        }
    }
};

