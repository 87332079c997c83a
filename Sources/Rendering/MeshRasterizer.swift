import ReconstructionCore

/// Renders a `TriangleMesh` seen by a pinhole camera on the CPU.
///
/// Triangles are scan-converted with a z-buffer (exact, crack-free edge rules), clipped at the near
/// plane and culled by facing; attributes are interpolated perspective-correctly by intersecting
/// each pixel's ray with the visible triangle. Pixel centres are at (i + 0.5, j + 0.5), as in
/// `CameraIntrinsics`; lens distortion is ignored. The colour image is supersampled for
/// anti-aliasing; the geometry buffers always describe the pixel centres, so supersampling never
/// moves geometry. Single-threaded: render several views in parallel with `parallelMap`.
public struct MeshRasterizer: Sendable {
    public var options: Options
    private let encoding = SRGBEncodingTable()

    public init(options: Options = Options()) {
        self.options = options
    }

    /// Depth, triangle and barycentrics at every pixel centre of `intrinsics`' image, for a mesh
    /// given in the world frame and a camera at `cameraFromWorld`.
    public func geometry(of mesh: TriangleMesh, intrinsics: CameraIntrinsics, cameraFromWorld: RigidTransform) -> GeometryBuffer {
        let view = CameraView(mesh: mesh, intrinsics: intrinsics, cameraFromWorld: cameraFromWorld)
        let centres = rasterize(mesh, view: view, samplesPerPixel: 1)
        return Self.resolveGeometry(centres, mesh: mesh, view: view)
    }

    /// The shaded colour image and the pixel-centre geometry of a mesh (world frame) seen from `cameraFromWorld`.
    public func render(_ mesh: TriangleMesh, intrinsics: CameraIntrinsics, cameraFromWorld: RigidTransform) -> RenderedView {
        let view = CameraView(mesh: mesh, intrinsics: intrinsics, cameraFromWorld: cameraFromWorld)
        let centres = rasterize(mesh, view: view, samplesPerPixel: 1)
        let geometry = Self.resolveGeometry(centres, mesh: mesh, view: view)
        let s = max(1, options.supersampling)
        let fine = s == 1 ? centres : rasterize(mesh, view: view, samplesPerPixel: s)
        let shader = SurfaceShader(mesh: mesh, view: view, albedo: options.albedo, lighting: options.lighting)
        let color = shade(centres: centres, fine: fine, shader: shader)
        return RenderedView(color: color, geometry: geometry)
    }

    private func rasterize(_ mesh: TriangleMesh, view: CameraView, samplesPerPixel: Int) -> SampleBuffer {
        TriangleRasterization.rasterize(
            mesh.triangles, view: view, samplesPerPixel: samplesPerPixel,
            nearPlane: options.nearPlane, cullBackFaces: options.culling == .back)
    }

    /// Exact depth and barycentrics at pixel centres from the visible triangles.
    private static func resolveGeometry(_ centres: SampleBuffer, mesh: TriangleMesh, view: CameraView) -> GeometryBuffer {
        let count = centres.width * centres.height
        var depth = [Float](repeating: 0, count: count)
        var barycentrics = [SIMD2<Float>](repeating: .zero, count: count)
        for k in 0..<count {
            let index = centres.triangle[k]
            if index < 0 { continue }
            let t = mesh.triangles[Int(index)]
            let ray = view.ray(x: Double(k % centres.width) + 0.5, y: Double(k / centres.width) + 0.5)
            let hit = intersect(ray: ray, view.cameraVertices[Int(t.x)], view.cameraVertices[Int(t.y)], view.cameraVertices[Int(t.z)])
            depth[k] = Float(hit.depth)
            barycentrics[k] = SIMD2(Float(hit.b1), Float(hit.b2))
        }
        return GeometryBuffer(width: centres.width, height: centres.height, depth: depth,
                              triangleIndex: centres.triangle, barycentrics: barycentrics)
    }

    /// Averages the shaded subsamples of each pixel and encodes sRGB.
    private func shade(centres: SampleBuffer, fine: SampleBuffer, shader: SurfaceShader) -> RGBImage {
        let width = centres.width, height = centres.height, s = fine.samplesPerPixel
        let perPixel = options.shadingRate == .perPixel
        let tolerance = options.sameSurfaceDepthTolerance
        let normalCosine = options.sameSurfaceNormalCosine
        let background = options.background
        let weight = 1 / Float(s * s)
        let scale = Float(SRGBEncodingTable.resolution)
        var pixels = [UInt8](repeating: 0, count: width * height * 3)
        let backgroundRows = (0..<(height * s)).map { row in
            background.color(atFraction: (Float(row) + 0.5) / Float(height * s))
        }
        let fineTriangles = fine.triangle, fineInverseDepth = fine.inverseDepth
        let centreTriangles = centres.triangle, centreInverseDepths = centres.inverseDepth
        let fineWidth = fine.width
        let table = encoding.bytes
        pixels.withUnsafeMutableBufferPointer { out in
            for j in 0..<height {
                for i in 0..<width {
                    let k = j * width + i
                    let centreIndex = centreTriangles[k]
                    let centreInverseDepth = centreInverseDepths[k]
                    var centreColor: SIMD3<Float>? = nil
                    var centreNormal: SIMD3<Float>? = nil
                    var sum = SIMD3<Float>.zero
                    for sy in 0..<s {
                        let row = j * s + sy
                        for sx in 0..<s {
                            let column = i * s + sx
                            let sample = row * fineWidth + column
                            let t = fineTriangles[sample]
                            if t < 0 {
                                sum += backgroundRows[row]
                                continue
                            }
                            var onCentreSurface = perPixel && t == centreIndex
                            if perPixel, !onCentreSurface, centreIndex >= 0,
                               abs(fineInverseDepth[sample] - centreInverseDepth) <= tolerance * centreInverseDepth
                            {
                                if centreNormal == nil { centreNormal = shader.faceNormal(Int(centreIndex)) }
                                onCentreSurface = dot(shader.faceNormal(Int(t)), centreNormal!) >= normalCosine
                            }
                            if onCentreSurface {
                                if centreColor == nil {
                                    centreColor = shader.color(triangle: Int(centreIndex), x: Double(i) + 0.5, y: Double(j) + 0.5)
                                }
                                sum += centreColor!
                            } else {
                                sum += shader.color(triangle: Int(t), x: (Double(column) + 0.5) / Double(s),
                                                    y: (Double(row) + 0.5) / Double(s))
                            }
                        }
                    }
                    let linear = sum * weight
                    for channel in 0..<3 {
                        let index = Int(min(max(linear[channel], 0), 1) * scale + 0.5)
                        out[3 * k + channel] = table[index]
                    }
                }
            }
        }
        return RGBImage(width: width, height: height, pixels: pixels)
    }
}
