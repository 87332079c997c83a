/// A 3-vector of doubles (a point or a direction; units stated where it is used).
public struct Vector3: Equatable, Hashable, Sendable, Codable {
    public var x: Double
    public var y: Double
    public var z: Double

    public init(_ x: Double, _ y: Double, _ z: Double) {
        self.x = x
        self.y = y
        self.z = z
    }

    public static let zero = Vector3(0, 0, 0)

    public var array: [Double] { [x, y, z] }
    public var length: Double { (x * x + y * y + z * z).squareRoot() }
    public var normalized: Vector3 { self / length }

    public func dot(_ other: Vector3) -> Double { x * other.x + y * other.y + z * other.z }

    public func cross(_ other: Vector3) -> Vector3 {
        Vector3(y * other.z - z * other.y, z * other.x - x * other.z, x * other.y - y * other.x)
    }

    public func distance(to other: Vector3) -> Double { (self - other).length }

    public static func + (a: Vector3, b: Vector3) -> Vector3 { Vector3(a.x + b.x, a.y + b.y, a.z + b.z) }
    public static func - (a: Vector3, b: Vector3) -> Vector3 { Vector3(a.x - b.x, a.y - b.y, a.z - b.z) }
    public static prefix func - (a: Vector3) -> Vector3 { Vector3(-a.x, -a.y, -a.z) }
    public static func * (s: Double, a: Vector3) -> Vector3 { Vector3(s * a.x, s * a.y, s * a.z) }
    public static func * (a: Vector3, s: Double) -> Vector3 { s * a }
    public static func / (a: Vector3, s: Double) -> Vector3 { Vector3(a.x / s, a.y / s, a.z / s) }
    public static func += (a: inout Vector3, b: Vector3) { a = a + b }
}
