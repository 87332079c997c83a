// Internal: the five-point essential-matrix solver and the polynomial root finder it uses.
#pragma once
#include <Eigen/Core>

namespace rc {

// The essential matrices E with x2ᵀ E x1 = 0 for five correspondences of normalised image points
// (x1[i], x2[i]), up to ten (Nistér's formulation: four-dimensional null space, ten cubic
// constraints, a tenth-degree polynomial in one unknown). Returns how many were written to
// `out`, each of unit Frobenius norm; 0 for degenerate samples.
int five_point_essentials(const Eigen::Vector2d x1[5], const Eigen::Vector2d x2[5], Eigen::Matrix3d out[10]);

// The distinct real roots of c[0] + c[1]·z + … + c[degree]·z^degree (degree ≤ 10), found by
// isolating each in an interval with a Sturm sequence and then narrowing the interval. Returns
// how many were written to `roots`, in increasing order.
int real_polynomial_roots(const double* c, int degree, double* roots);

}  // namespace rc
