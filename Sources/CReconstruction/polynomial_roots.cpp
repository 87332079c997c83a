// Real roots of a univariate polynomial of degree ≤ 10 by Sturm sequences: each root is isolated
// in an interval by bisection on sign-change counts, then narrowed by Newton steps kept inside
// the interval (bisection when a step would leave it). Fixed-size arrays, no allocation: the
// five-point solver calls this once per RANSAC sample.
#include <algorithm>
#include <cmath>

#include "five_point.hpp"

namespace rc {
namespace {

constexpr int kMaxDegree = 10;

double evaluate(const double* c, int degree, double z) {
    double value = c[degree];
    for (int i = degree - 1; i >= 0; --i) value = value * z + c[i];
    return value;
}

// Lowers `degree` past leading coefficients that are negligible next to the largest one.
int trimmed_degree(const double* c, int degree) {
    double largest = 0;
    for (int i = 0; i <= degree; ++i) largest = std::max(largest, std::abs(c[i]));
    while (degree > 0 && std::abs(c[degree]) <= 1e-14 * largest) --degree;
    return degree;
}

struct SturmSequence {
    double c[kMaxDegree + 1][kMaxDegree + 1];
    int degree[kMaxDegree + 1];
    int length = 0;

    // p, p′, then the negated remainders of the Euclidean algorithm, each scaled (by a positive
    // factor, which keeps its signs) to a leading coefficient of ±1.
    SturmSequence(const double* p, int n) {
        std::copy(p, p + n + 1, c[0]);
        degree[0] = n;
        for (int i = 1; i <= n; ++i) c[1][i - 1] = i * p[i];
        degree[1] = n - 1;
        length = 2;
        normalise(0);
        normalise(1);
        while (degree[length - 1] > 0 && length <= kMaxDegree) {
            const double* a = c[length - 2];
            const double* b = c[length - 1];
            const int m = degree[length - 1];
            double r[kMaxDegree + 1];
            std::copy(a, a + degree[length - 2] + 1, r);
            for (int i = degree[length - 2]; i >= m; --i) {
                const double factor = r[i] / b[m];
                for (int j = 0; j <= m; ++j) r[i - m + j] -= factor * b[j];
            }
            // The remainder has degree < m; it vanishes when p has a repeated root.
            int d = m - 1;
            double scale = 0;
            for (int i = 0; i <= degree[length - 2]; ++i) scale = std::max(scale, std::abs(a[i]));
            while (d >= 0 && std::abs(r[d]) <= 1e-13 * scale) --d;
            if (d < 0) break;
            for (int i = 0; i <= d; ++i) c[length][i] = -r[i];
            degree[length] = d;
            normalise(length);
            ++length;
        }
    }

    void normalise(int k) {
        const double lead = std::abs(c[k][degree[k]]);
        if (lead > 0)
            for (int i = 0; i <= degree[k]; ++i) c[k][i] /= lead;
    }

    int sign_changes(double z) const {
        int changes = 0;
        double previous = 0;
        for (int k = 0; k < length; ++k) {
            const double value = evaluate(c[k], degree[k], z);
            if (value == 0) continue;
            if (previous != 0 && (value < 0) != (previous < 0)) ++changes;
            previous = value;
        }
        return changes;
    }
};

// Narrows [lo, hi], which holds exactly one root of p, to that root.
double narrow(const double* p, const double* dp, int n, double lo, double hi, const SturmSequence& sturm) {
    double f_lo = evaluate(p, n, lo);
    const double f_hi = evaluate(p, n, hi);
    if (f_lo == 0) return lo;
    if (f_hi == 0) return hi;
    if ((f_lo < 0) == (f_hi < 0)) {
        // No sign change at the ends (rounding near a root of even multiplicity): bisect by counts.
        int v_lo = sturm.sign_changes(lo);
        for (int i = 0; i < 60; ++i) {
            const double mid = 0.5 * (lo + hi);
            const int v_mid = sturm.sign_changes(mid);
            if (v_lo - v_mid > 0) hi = mid;
            else {
                lo = mid;
                v_lo = v_mid;
            }
        }
        return 0.5 * (lo + hi);
    }
    double z = 0.5 * (lo + hi);
    for (int i = 0; i < 100; ++i) {
        const double f = evaluate(p, n, z);
        if (f == 0) return z;
        if ((f < 0) == (f_lo < 0)) {
            lo = z;
            f_lo = f;
        } else {
            hi = z;
        }
        const double slope = evaluate(dp, n - 1, z);
        double next = slope != 0 ? z - f / slope : lo - 1;
        if (!(next > lo && next < hi)) next = 0.5 * (lo + hi);
        const double tolerance = 1e-15 * std::max(1.0, std::abs(next));
        if (std::abs(next - z) <= tolerance || hi - lo <= tolerance) return next;
        z = next;
    }
    return z;
}

}  // namespace

int real_polynomial_roots(const double* coefficients, int degree, double* roots) {
    const int n = trimmed_degree(coefficients, std::min(degree, kMaxDegree));
    if (n < 1 || coefficients[n] == 0) return 0;
    double p[kMaxDegree + 1], dp[kMaxDegree];
    for (int i = 0; i <= n; ++i) p[i] = coefficients[i] / coefficients[n];  // monic
    for (int i = 1; i <= n; ++i) dp[i - 1] = i * p[i];
    // Fujiwara's bound: every root has |z| < 2 · max |p[n−k]|^(1/k), the last term halved.
    double bound = 0;
    for (int k = 1; k <= n; ++k) {
        const double term = std::abs(p[n - k]) / (k == n ? 2 : 1);
        bound = std::max(bound, std::pow(term, 1.0 / k));
    }
    bound = 2 * bound + 1e-12;
    const SturmSequence sturm(p, n);

    struct Interval {
        double lo, hi;
        int v_lo, v_hi, depth;
    };
    Interval stack[2 * kMaxDegree + 64];
    int top = 0, found = 0;
    stack[top++] = {-bound, bound, sturm.sign_changes(-bound), sturm.sign_changes(bound), 0};
    while (top > 0) {
        const Interval interval = stack[--top];
        const int count = interval.v_lo - interval.v_hi;
        if (count <= 0) continue;
        if (count == 1) {
            roots[found++] = narrow(p, dp, n, interval.lo, interval.hi, sturm);
            continue;
        }
        const double mid = 0.5 * (interval.lo + interval.hi);
        // Roots closer together than this are one root, counted once (a repeated root).
        if (interval.depth >= 80 || interval.hi - interval.lo <= 1e-14 * std::max(1.0, std::abs(mid))) {
            roots[found++] = mid;
            continue;
        }
        if (top + 2 > static_cast<int>(sizeof stack / sizeof stack[0])) continue;
        const int v_mid = sturm.sign_changes(mid);
        stack[top++] = {mid, interval.hi, v_mid, interval.v_hi, interval.depth + 1};
        stack[top++] = {interval.lo, mid, interval.v_lo, v_mid, interval.depth + 1};
    }
    std::sort(roots, roots + found);
    return found;
}

}  // namespace rc
