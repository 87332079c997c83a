/// A 3×3 matrix of doubles, stored row-major.
public struct Matrix3: Equatable, Sendable, Codable {
    /// Row-major entries: `m[3 * row + column]`.
    public var m: [Double]

    public init(rowMajor entries: [Double]) {
        precondition(entries.count == 9, "Matrix3 needs 9 entries")
        m = entries
    }

    public init(rows r0: Vector3, _ r1: Vector3, _ r2: Vector3) {
        m = [r0.x, r0.y, r0.z, r1.x, r1.y, r1.z, r2.x, r2.y, r2.z]
    }

    public static let identity = Matrix3(rowMajor: [1, 0, 0, 0, 1, 0, 0, 0, 1])

    public subscript(row: Int, column: Int) -> Double {
        get { m[3 * row + column] }
        set { m[3 * row + column] = newValue }
    }

    public func row(_ i: Int) -> Vector3 { Vector3(m[3 * i], m[3 * i + 1], m[3 * i + 2]) }
    public func column(_ j: Int) -> Vector3 { Vector3(m[j], m[3 + j], m[6 + j]) }

    public var transposed: Matrix3 {
        Matrix3(rowMajor: [m[0], m[3], m[6], m[1], m[4], m[7], m[2], m[5], m[8]])
    }

    public var determinant: Double {
        m[0] * (m[4] * m[8] - m[5] * m[7]) - m[1] * (m[3] * m[8] - m[5] * m[6])
            + m[2] * (m[3] * m[7] - m[4] * m[6])
    }

    public var trace: Double { m[0] + m[4] + m[8] }

    public static func * (a: Matrix3, b: Matrix3) -> Matrix3 {
        var out = [Double](repeating: 0, count: 9)
        for i in 0..<3 {
            for j in 0..<3 {
                out[3 * i + j] = a.m[3 * i] * b.m[j] + a.m[3 * i + 1] * b.m[3 + j] + a.m[3 * i + 2] * b.m[6 + j]
            }
        }
        return Matrix3(rowMajor: out)
    }

    public static func * (a: Matrix3, v: Vector3) -> Vector3 {
        Vector3(a.row(0).dot(v), a.row(1).dot(v), a.row(2).dot(v))
    }

    public static func * (s: Double, a: Matrix3) -> Matrix3 { Matrix3(rowMajor: a.m.map { s * $0 }) }
}
