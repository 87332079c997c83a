import ReconstructionCore

/// Colour of a visible triangle at a pixel position: albedo under Lambert lighting, linear RGB.
struct SurfaceShader {
    let triangles: [SIMD3<UInt32>]
    let positions: [SIMD3<Float>]
    /// Vertex normals (empty when the mesh has none).
    let normals: [SIMD3<Float>]
    let cameraVertices: [SIMD3<Double>]
    let view: CameraView
    /// The albedo, unpacked once: a procedural texture, else interpolated vertex colours (when
    /// `linearColors` is not empty), else `constantAlbedo`.
    let texture: (@Sendable (SurfacePoint) -> SIMD3<Float>)?
    let constantAlbedo: SIMD3<Float>
    let lighting: Lighting
    /// Unit direction towards the directional light (world frame).
    let towardsLight: SIMD3<Float>
    /// Vertex colours in linear RGB (empty unless the albedo uses them and the mesh has them).
    let linearColors: [SIMD3<Float>]
    /// Metres per pixel at depth 1.
    let footprintPerMetre: Float
    /// Unit outward normal of every triangle, world frame.
    let faceNormals: [SIMD3<Float>]

    init(mesh: TriangleMesh, view: CameraView, albedo: Albedo, lighting: Lighting) {
        triangles = mesh.triangles
        positions = mesh.positions
        normals = mesh.hasNormals ? mesh.normals : []
        cameraVertices = view.cameraVertices
        self.view = view
        switch albedo {
        case .uniform(let value):
            (texture, constantAlbedo) = (nil, value)
        case .vertexColors(let fallback):
            (texture, constantAlbedo) = (nil, fallback)
        case .procedural(let function):
            (texture, constantAlbedo) = (function, .zero)
        }
        self.lighting = lighting
        let l = lighting.towardsLight
        towardsLight = dot(l, l) > 0 ? normalized(l) : SIMD3(0, 0, 1)
        if case .vertexColors = albedo, mesh.hasColors {
            linearColors = mesh.colors.map {
                SIMD3(SRGB.linear(fromEncoded: $0.x), SRGB.linear(fromEncoded: $0.y), SRGB.linear(fromEncoded: $0.z))
            }
        } else {
            linearColors = []
        }
        footprintPerMetre = Float(2 / (view.fx + view.fy))
        faceNormals = mesh.triangles.map { t in
            let p0 = mesh.positions[Int(t.x)], p1 = mesh.positions[Int(t.y)], p2 = mesh.positions[Int(t.z)]
            return normalized(cross(p1 - p0, p2 - p0))
        }
    }

    /// Unit normal of triangle `index` (world frame, outward).
    @inline(__always)
    func faceNormal(_ index: Int) -> SIMD3<Float> {
        faceNormals[index]
    }

    /// The lit colour of triangle `index` where the ray through pixel coordinates (x, y) meets it.
    func color(triangle index: Int, x: Double, y: Double) -> SIMD3<Float> {
        let t = triangles[index]
        let i0 = Int(t.x), i1 = Int(t.y), i2 = Int(t.z)
        let a = cameraVertices[i0], b = cameraVertices[i1], c = cameraVertices[i2]
        let ray = view.ray(x: x, y: y)
        let hit = intersect(ray: ray, a, b, c)
        let w1 = Float(hit.b1), w2 = Float(hit.b2)
        let weights = SIMD3(1 - w1 - w2, w1, w2)
        let p0 = positions[i0], p1 = positions[i1], p2 = positions[i2]
        let position = weights.x * p0 + weights.y * p1 + weights.z * p2
        let viewDirection = normalized(view.worldDirection(SIMD3<Float>(ray)))
        var geometricNormal = faceNormals[index]
        let backFacing = dot(geometricNormal, viewDirection) > 0
        if backFacing { geometricNormal = -geometricNormal }
        var normal = geometricNormal
        if !normals.isEmpty {
            let n = weights.x * normals[i0] + weights.y * normals[i1] + weights.z * normals[i2]
            let length = dot(n, n).squareRoot()
            if length > 1e-6 { normal = backFacing ? -n / length : n / length }
        }
        let depth = Float(hit.depth)

        let reflectance: SIMD3<Float>
        if let texture {
            reflectance = texture(SurfacePoint(
                position: position, normal: normal, geometricNormal: geometricNormal, triangleIndex: index,
                barycentrics: weights, viewDirection: viewDirection, depth: depth,
                pixelFootprint: depth * footprintPerMetre))
        } else if !linearColors.isEmpty {
            reflectance = weights.x * linearColors[i0] + weights.y * linearColors[i1] + weights.z * linearColors[i2]
        } else {
            reflectance = constantAlbedo
        }
        let light = lighting.ambient
            + lighting.directionalIntensity * max(0, dot(normal, towardsLight))
            + lighting.headlightIntensity * max(0, -dot(normal, viewDirection))
        return reflectance * light
    }
}
