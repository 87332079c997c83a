/// An oriented, coloured point set in world coordinates (metres unless stated).
public struct PointCloud: Equatable, Sendable {
    /// Point positions.
    public var positions: [SIMD3<Float>]
    /// Per-point unit normal; empty when the cloud has no normals.
    public var normals: [SIMD3<Float>]
    /// Per-point colour, sRGB components in 0...1; empty when the cloud has no colours.
    public var colors: [SIMD3<Float>]

    public init(positions: [SIMD3<Float>] = [], normals: [SIMD3<Float>] = [], colors: [SIMD3<Float>] = []) {
        self.positions = positions
        self.normals = normals
        self.colors = colors
    }

    public var count: Int { positions.count }
    public var hasNormals: Bool { !normals.isEmpty && normals.count == positions.count }
    public var hasColors: Bool { !colors.isEmpty && colors.count == positions.count }

    /// The cloud with every position multiplied by `factor` (normals and colours unchanged), e.g.
    /// to metres once depth fixed the scale.
    public func scaled(by factor: Float) -> PointCloud {
        PointCloud(positions: positions.map { $0 * factor }, normals: normals, colors: colors)
    }

    /// The points at `indices`, in that order, with their normals and colours.
    public func keeping(_ indices: [Int]) -> PointCloud {
        PointCloud(positions: indices.map { positions[$0] }, normals: hasNormals ? indices.map { normals[$0] } : [],
                   colors: hasColors ? indices.map { colors[$0] } : [])
    }
}
