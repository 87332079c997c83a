import Foundation

/// Multi-view triangulation from viewing rays.
public enum Triangulation {
    /// A viewing ray in world coordinates: camera centre and unit direction.
    public struct Ray: Sendable {
        public var origin: Vector3
        public var direction: Vector3
        public init(origin: Vector3, direction: Vector3) {
            self.origin = origin
            self.direction = direction.normalized
        }
    }

    /// The point minimising the summed squared distance to all rays (≥ 2 rays); nil when the rays
    /// are (nearly) parallel.
    public static func point(closestTo rays: [Ray]) -> Vector3? {
        guard rays.count >= 2 else { return nil }
        // Σ (I − d dᵀ) X = Σ (I − d dᵀ) C
        var a = [Double](repeating: 0, count: 9)
        var b = Vector3.zero
        for ray in rays {
            let d = ray.direction.array
            let c = ray.origin
            for i in 0..<3 {
                for j in 0..<3 {
                    a[3 * i + j] += (i == j ? 1 : 0) - d[i] * d[j]
                }
            }
            let dc = ray.direction.dot(c)
            b += c - ray.direction * dc
        }
        let m = Matrix3(rowMajor: a)
        let det = m.determinant
        guard abs(det) > 1e-12 * pow(Double(rays.count), 3) else { return nil }
        // Cramer's rule.
        func replaced(_ column: Int) -> Matrix3 {
            var r = m
            for row in 0..<3 { r[row, column] = b.array[row] }
            return r
        }
        return Vector3(replaced(0).determinant / det, replaced(1).determinant / det, replaced(2).determinant / det)
    }

    /// The angle between the rays from two camera centres to a point, in degrees.
    public static func angleDegrees(point: Vector3, centre1: Vector3, centre2: Vector3) -> Double {
        let a = (point - centre1).normalized, b = (point - centre2).normalized
        return acos(max(-1, min(1, a.dot(b)))) * 180 / Double.pi
    }
}
