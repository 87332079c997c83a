// The five-point essential-matrix solver, in the formulation of D. Nistér, "An efficient solution
// to the five-point relative pose problem" (PAMI 2004), on fixed-size arrays:
// 1. E lies in the four-dimensional null space of the five epipolar constraints:
//    E = x·X + y·Y + z·Z + W.
// 2. det E = 0 and 2·E·Eᵀ·E − trace(E·Eᵀ)·E = 0 are ten cubic equations in x, y, z. Their
//    coefficients over the twenty monomials, brought to reduced row echelon form, give three
//    equations linear in x and y with coefficients polynomial in z.
// 3. Their 3×3 determinant is a tenth-degree polynomial in z, whose real roots give z, then x and
//    y from the 3×3 system's null vector.
// The coefficients are computed by multiplying polynomials, not by expanded formulas.
#include <Eigen/Geometry>
#include <Eigen/QR>
#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>

#include "five_point.hpp"
#include "reconstruction.h"

namespace rc {
namespace {

// Monomials in x, y, z of degree ≤ 3, in Nistér's order: the first ten are eliminated, the
// rest remain (x·z², x·z, x, y·z², y·z, y, z³, z², z, 1).
constexpr int kMonomials = 20;
constexpr int kExponents[kMonomials][3] = {{3, 0, 0}, {0, 3, 0}, {2, 1, 0}, {1, 2, 0}, {2, 0, 1}, {2, 0, 0}, {0, 2, 1},
                                           {0, 2, 0}, {1, 1, 1}, {1, 1, 0}, {1, 0, 2}, {1, 0, 1}, {1, 0, 0}, {0, 1, 2},
                                           {0, 1, 1}, {0, 1, 0}, {0, 0, 3}, {0, 0, 2}, {0, 0, 1}, {0, 0, 0}};
enum : int { kX = 12, kY = 15, kZ = 18, kOne = 19 };
constexpr int kLinearTerms[4] = {kX, kY, kZ, kOne};
constexpr int kQuadraticTerms[10] = {5, 7, 17, 9, 11, 14, kX, kY, kZ, kOne};  // x², y², z², xy, xz, yz, x, y, z, 1

constexpr int monomial_index(int a, int b, int c) {
    for (int i = 0; i < kMonomials; ++i)
        if (kExponents[i][0] == a && kExponents[i][1] == b && kExponents[i][2] == c) return i;
    return -1;
}

// kProduct[i][j]: the monomial of monomial i times linear term j (−1 beyond degree 3).
struct ProductTable {
    int index[kMonomials][4];
    constexpr ProductTable() : index{} {
        constexpr int linear[4][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {0, 0, 0}};
        for (int i = 0; i < kMonomials; ++i)
            for (int j = 0; j < 4; ++j)
                index[i][j] = monomial_index(kExponents[i][0] + linear[j][0], kExponents[i][1] + linear[j][1],
                                             kExponents[i][2] + linear[j][2]);
    }
};
constexpr ProductTable kProduct;

using Polynomial = std::array<double, kMonomials>;

// out += scale · p · q for p of degree ≤ 2 (its terms listed in `terms`: kLinearTerms or
// kQuadraticTerms) and q linear.
template <int N>
void add_product(const Polynomial& p, const int (&terms)[N], const Polynomial& q, double scale, Polynomial& out) {
    for (int i : terms) {
        if (p[i] == 0) continue;
        for (int j = 0; j < 4; ++j) out[kProduct.index[i][j]] += scale * p[i] * q[kLinearTerms[j]];
    }
}

// Univariate polynomials in z, coefficients in increasing degree.
template <size_t N>
using ZPolynomial = std::array<double, N>;

template <size_t A, size_t B>
ZPolynomial<A + B - 1> multiply(const ZPolynomial<A>& a, const ZPolynomial<B>& b) {
    ZPolynomial<A + B - 1> out{};
    for (size_t i = 0; i < A; ++i)
        for (size_t j = 0; j < B; ++j) out[i + j] += a[i] * b[j];
    return out;
}

template <size_t N>
ZPolynomial<N> subtract(const ZPolynomial<N>& a, const ZPolynomial<N>& b) {
    ZPolynomial<N> out;
    for (size_t i = 0; i < N; ++i) out[i] = a[i] - b[i];
    return out;
}

template <size_t N>
ZPolynomial<N> add(const ZPolynomial<N>& a, const ZPolynomial<N>& b) {
    ZPolynomial<N> out;
    for (size_t i = 0; i < N; ++i) out[i] = a[i] + b[i];
    return out;
}

template <size_t N>
double evaluate(const ZPolynomial<N>& p, double z) {
    double value = p[N - 1];
    for (int i = static_cast<int>(N) - 2; i >= 0; --i) value = value * z + p[i];
    return value;
}

// One of the three equations a(z)·x + b(z)·y + c(z) = 0: row `r` of the reduced matrix minus z
// times row `r + 1` (their leading monomials differ by a factor z: x²z and x², y²z and y², xyz
// and xy).
struct LinearInXY {
    ZPolynomial<4> a, b;
    ZPolynomial<5> c;
};

LinearInXY eliminate(const double (*m)[kMonomials], int r) {
    const double* e = m[r];
    const double* f = m[r + 1];
    // Within a row: x·(e[12] + e[11]·z + e[10]·z²), y·(e[15] + e[14]·z + e[13]·z²),
    // e[19] + e[18]·z + e[17]·z² + e[16]·z³.
    LinearInXY out;
    out.a = {e[12], e[11] - f[12], e[10] - f[11], -f[10]};
    out.b = {e[15], e[14] - f[15], e[13] - f[14], -f[13]};
    out.c = {e[19], e[18] - f[19], e[17] - f[18], e[16] - f[17], -f[16]};
    return out;
}

}  // namespace

int five_point_essentials(const Eigen::Vector2d x1[5], const Eigen::Vector2d x2[5], Eigen::Matrix3d out[10]) {
    // Rows of the epipolar constraints x2ᵀ E x1 = 0 over E's entries (row-major), as columns.
    Eigen::Matrix<double, 9, 5> constraints;
    for (int i = 0; i < 5; ++i) {
        const double a[3] = {x1[i].x(), x1[i].y(), 1}, b[3] = {x2[i].x(), x2[i].y(), 1};
        for (int r = 0; r < 3; ++r)
            for (int c = 0; c < 3; ++c) constraints(3 * r + c, i) = b[r] * a[c];
    }
    const Eigen::HouseholderQR<Eigen::Matrix<double, 9, 5>> qr(constraints);
    // Five constraints that are not independent (repeated correspondences) leave a null space of
    // more than four dimensions, and any E in it would do: no answer.
    const auto& r = qr.matrixQR();
    if (!(std::abs(r(4, 4)) > 1e-10 * std::abs(r(0, 0)))) return 0;
    const Eigen::Matrix<double, 9, 9> q = qr.householderQ();
    // The null space: X, Y, Z, W are q's last four columns.
    Polynomial e[9];
    for (int k = 0; k < 9; ++k) {
        e[k].fill(0);
        e[k][kX] = q(k, 5);
        e[k][kY] = q(k, 6);
        e[k][kZ] = q(k, 7);
        e[k][kOne] = q(k, 8);
    }

    // E·Eᵀ (symmetric, quadratic entries) and its trace.
    Polynomial eet[3][3];
    for (int i = 0; i < 3; ++i)
        for (int j = i; j < 3; ++j) {
            eet[i][j].fill(0);
            for (int k = 0; k < 3; ++k) add_product(e[3 * i + k], kLinearTerms, e[3 * j + k], 1, eet[i][j]);
            eet[j][i] = eet[i][j];
        }
    Polynomial trace;
    for (int k = 0; k < kMonomials; ++k) trace[k] = eet[0][0][k] + eet[1][1][k] + eet[2][2][k];

    // The ten cubic equations: det E, then the nine entries of 2·E·Eᵀ·E − trace·E.
    double m[10][kMonomials] = {};
    {
        Polynomial cofactor[3];
        const int cols[3][2] = {{1, 2}, {0, 2}, {0, 1}};
        for (int j = 0; j < 3; ++j) {
            cofactor[j].fill(0);
            const int a = cols[j][0], b = cols[j][1];
            add_product(e[3 + a], kLinearTerms, e[6 + b], 1, cofactor[j]);
            add_product(e[3 + b], kLinearTerms, e[6 + a], -1, cofactor[j]);
        }
        Polynomial det{};
        for (int j = 0; j < 3; ++j) add_product(cofactor[j], kQuadraticTerms, e[j], j == 1 ? -1 : 1, det);
        std::copy(det.begin(), det.end(), m[0]);
    }
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) {
            Polynomial row{};
            for (int k = 0; k < 3; ++k) add_product(eet[i][k], kQuadraticTerms, e[3 * k + j], 2, row);
            add_product(trace, kQuadraticTerms, e[3 * i + j], -1, row);
            std::copy(row.begin(), row.end(), m[1 + 3 * i + j]);
        }

    // Gauss-Jordan elimination of the first ten monomials, with partial pivoting.
    double largest = 0;
    for (auto& row : m)
        for (double v : row) largest = std::max(largest, std::abs(v));
    if (!(largest > 0)) return 0;
    for (int col = 0; col < 10; ++col) {
        int pivot = col;
        for (int r = col + 1; r < 10; ++r)
            if (std::abs(m[r][col]) > std::abs(m[pivot][col])) pivot = r;
        if (std::abs(m[pivot][col]) <= 1e-12 * largest) return 0;  // degenerate sample
        if (pivot != col) std::swap(m[pivot], m[col]);
        const double inverse = 1 / m[col][col];
        for (int c = col; c < kMonomials; ++c) m[col][c] *= inverse;
        for (int r = 0; r < 10; ++r) {
            if (r == col || m[r][col] == 0) continue;
            const double factor = m[r][col];
            for (int c = col; c < kMonomials; ++c) m[r][c] -= factor * m[col][c];
        }
    }

    // Rows 4–9 lead with x²z, x², y²z, y², xyz, xy.
    const LinearInXY k = eliminate(m, 4), l = eliminate(m, 6), n = eliminate(m, 8);
    // det [k; l; n] by the cofactors of its first row: degree 3 + 3 + 4 = 10.
    const auto minor_a = subtract(multiply(l.b, n.c), multiply(l.c, n.b));
    const auto minor_b = subtract(multiply(l.a, n.c), multiply(l.c, n.a));
    const auto minor_c = subtract(multiply(l.a, n.b), multiply(l.b, n.a));
    const ZPolynomial<11> det =
        add(subtract(multiply(k.a, minor_a), multiply(k.b, minor_b)), multiply(k.c, minor_c));
    double roots[10];
    const int root_count = real_polynomial_roots(det.data(), 10, roots);

    int count = 0;
    for (int r = 0; r < root_count; ++r) {
        const double z = roots[r];
        const Eigen::Vector3d rows[3] = {{evaluate(k.a, z), evaluate(k.b, z), evaluate(k.c, z)},
                                         {evaluate(l.a, z), evaluate(l.b, z), evaluate(l.c, z)},
                                         {evaluate(n.a, z), evaluate(n.b, z), evaluate(n.c, z)}};
        // (x, y, 1) is the null vector: the largest cross product of two rows.
        Eigen::Vector3d v = rows[0].cross(rows[1]);
        for (const Eigen::Vector3d& candidate : {rows[0].cross(rows[2]), rows[1].cross(rows[2])})
            if (candidate.squaredNorm() > v.squaredNorm()) v = candidate;
        if (!(std::abs(v.z()) > 1e-12 * v.norm())) continue;
        const double x = v.x() / v.z(), y = v.y() / v.z();
        Eigen::Matrix3d essential;
        for (int i = 0; i < 9; ++i) essential(i / 3, i % 3) = x * q(i, 5) + y * q(i, 6) + z * q(i, 7) + q(i, 8);
        const double norm = essential.norm();
        if (!(norm > 0) || !std::isfinite(norm)) continue;
        out[count++] = essential / norm;
    }
    return count;
}

}  // namespace rc

extern "C" int32_t rc_five_point_essentials(const double* points1, const double* points2, double* essentials) {
    Eigen::Vector2d x1[5], x2[5];
    for (int i = 0; i < 5; ++i) {
        x1[i] = {points1[2 * i], points1[2 * i + 1]};
        x2[i] = {points2[2 * i], points2[2 * i + 1]};
    }
    Eigen::Matrix3d models[10];
    const int count = rc::five_point_essentials(x1, x2, models);
    for (int m = 0; m < count; ++m)
        for (int i = 0; i < 9; ++i) essentials[9 * m + i] = models[m](i / 3, i % 3);
    return count;
}
