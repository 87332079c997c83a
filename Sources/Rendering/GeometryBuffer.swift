import ReconstructionCore

/// What a camera sees at each pixel centre (x = i + 0.5, y = j + 0.5): depth, triangle and
/// perspective-correct barycentrics. Rows top to bottom.
public struct GeometryBuffer: Sendable, Equatable {
    public var width: Int
    public var height: Int
    /// Depth along the camera's z axis, metres; 0 where no triangle is hit.
    public var depth: [Float]
    /// Index of the visible triangle; −1 where none.
    public var triangleIndex: [Int32]
    /// Perspective-correct barycentric weights of the visible triangle's corners y and z (corner x
    /// has 1 − sum); zero where no triangle is hit.
    public var barycentrics: [SIMD2<Float>]

    public init(width: Int, height: Int, depth: [Float], triangleIndex: [Int32], barycentrics: [SIMD2<Float>]) {
        precondition(depth.count == width * height && triangleIndex.count == depth.count && barycentrics.count == depth.count,
                     "GeometryBuffer needs width × height entries in every buffer")
        self.width = width
        self.height = height
        self.depth = depth
        self.triangleIndex = triangleIndex
        self.barycentrics = barycentrics
    }

    /// The visible triangle and its barycentric weights (all three) at pixel (x, y), or nil.
    public func hit(x: Int, y: Int) -> (triangle: Int, barycentrics: SIMD3<Float>)? {
        let k = y * width + x
        let t = triangleIndex[k]
        guard t >= 0 else { return nil }
        let b = barycentrics[k]
        return (Int(t), SIMD3(1 - b.x - b.y, b.x, b.y))
    }

    /// The visible surface point at pixel (x, y) in `mesh`'s frame (the mesh that was rendered), or nil.
    public func surfacePoint(x: Int, y: Int, in mesh: TriangleMesh) -> SIMD3<Float>? {
        guard let (t, b) = hit(x: x, y: y) else { return nil }
        let (p0, p1, p2) = mesh.corners(of: t)
        return b.x * p0 + b.y * p1 + b.z * p2
    }

    /// The depths as a depth map (metres, 0 where nothing is hit).
    public var depthMap: DepthMap { DepthMap(width: width, height: height, metres: depth) }

    /// A mask: 255 where a triangle accepted by `includes` is visible, 0 elsewhere.
    public func mask(where includes: (Int) -> Bool = { _ in true }) -> GrayImage {
        GrayImage(width: width, height: height, pixels: triangleIndex.map { t in t >= 0 && includes(Int(t)) ? 255 : 0 })
    }
}
