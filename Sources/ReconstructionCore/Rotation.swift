import Foundation

/// A rotation as a unit quaternion (w, x, y, z), Hamilton convention, acting on column vectors.
public struct UnitQuaternion: Equatable, Sendable, Codable {
    public var w: Double
    public var x: Double
    public var y: Double
    public var z: Double

    /// Builds a quaternion and normalises it.
    public init(w: Double, x: Double, y: Double, z: Double) {
        let n = (w * w + x * x + y * y + z * z).squareRoot()
        self.w = w / n
        self.x = x / n
        self.y = y / n
        self.z = z / n
    }

    /// Rotation of `angleRadians` about `axis` (need not be unit length).
    public init(axis: Vector3, angleRadians: Double) {
        let a = axis.normalized
        let s = sin(angleRadians / 2)
        self.init(w: cos(angleRadians / 2), x: a.x * s, y: a.y * s, z: a.z * s)
    }

    /// The quaternion of a rotation matrix (Shepperd's method), with w ≥ 0.
    public init(_ r: Matrix3) {
        let t = r.trace
        var q: (Double, Double, Double, Double)
        if t > 0 {
            let s = (t + 1).squareRoot() * 2
            q = (0.25 * s, (r[2, 1] - r[1, 2]) / s, (r[0, 2] - r[2, 0]) / s, (r[1, 0] - r[0, 1]) / s)
        } else if r[0, 0] > r[1, 1] && r[0, 0] > r[2, 2] {
            let s = (1 + r[0, 0] - r[1, 1] - r[2, 2]).squareRoot() * 2
            q = ((r[2, 1] - r[1, 2]) / s, 0.25 * s, (r[0, 1] + r[1, 0]) / s, (r[0, 2] + r[2, 0]) / s)
        } else if r[1, 1] > r[2, 2] {
            let s = (1 + r[1, 1] - r[0, 0] - r[2, 2]).squareRoot() * 2
            q = ((r[0, 2] - r[2, 0]) / s, (r[0, 1] + r[1, 0]) / s, 0.25 * s, (r[1, 2] + r[2, 1]) / s)
        } else {
            let s = (1 + r[2, 2] - r[0, 0] - r[1, 1]).squareRoot() * 2
            q = ((r[1, 0] - r[0, 1]) / s, (r[0, 2] + r[2, 0]) / s, (r[1, 2] + r[2, 1]) / s, 0.25 * s)
        }
        if q.0 < 0 { q = (-q.0, -q.1, -q.2, -q.3) }
        self.init(w: q.0, x: q.1, y: q.2, z: q.3)
    }

    public static let identity = UnitQuaternion(w: 1, x: 0, y: 0, z: 0)

    public var array: [Double] { [w, x, y, z] }

    public var matrix: Matrix3 {
        let (w, x, y, z) = (self.w, self.x, self.y, self.z)
        return Matrix3(rowMajor: [
            1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y),
            2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x),
            2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y),
        ])
    }
}

extension Matrix3 {
    /// The rotation angle of a (near-)rotation matrix, in degrees (0…180).
    ///
    /// Computed from the normalised quaternion as 2·atan2(|v|, |w|), which stays accurate for
    /// small angles and for matrices that are only orthonormal to a few digits (e.g. ground truth
    /// printed with six significant digits), where acos((trace − 1) / 2) collapses to 0.
    public var rotationAngleDegrees: Double {
        let q = UnitQuaternion(self)
        let v = (q.x * q.x + q.y * q.y + q.z * q.z).squareRoot()
        return 2 * atan2(v, abs(q.w)) * 180 / Double.pi
    }

    /// Rodrigues' formula: rotation of |v| radians about v.
    public static func rotation(angleAxis v: Vector3) -> Matrix3 {
        let angle = v.length
        if angle < 1e-15 { return .identity }
        return UnitQuaternion(axis: v, angleRadians: angle).matrix
    }
}
