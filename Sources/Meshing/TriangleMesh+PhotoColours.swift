import ReconstructionCore

extension TriangleMesh {
    /// A photo with its depth map, to colour vertices no coloured observation reached.
    public struct ColourView: Sendable {
        let camera: ProjectiveCamera
        let depth: DepthMap
        let colour: RGBImage

        /// Nil when the camera holds unusable values. `intrinsics` are at the depth map's
        /// resolution; `colour` may have any size (coordinates are scaled to it).
        public init?(colour: RGBImage, depth: DepthMap, intrinsics: CameraIntrinsics, worldFromCamera: RigidTransform) {
            guard colour.width > 0, colour.height > 0, depth.width > 0, depth.height > 0,
                  let camera = ProjectiveCamera(intrinsics: intrinsics, worldFromCamera: worldFromCamera) else { return nil }
            self.camera = camera
            self.depth = depth
            self.colour = colour
        }
    }

    /// The colour marching cubes gives a vertex that no coloured voxel reached.
    public static let uncolouredGrey = SIMD3<Float>(repeating: 0.5)

    /// Colours the vertices left `uncolouredGrey` (surface completed without colour, e.g. from
    /// object masks) from the view that faces each one most directly, among those that have it
    /// in frame and whose depth shows nothing more than `occlusionMargin` in front of it. Those
    /// no view sees (the underside on a support) take the colours around them
    /// (`spreadColours`). Returns how many vertices got a colour.
    @discardableResult
    public mutating func colourUncoloured(from views: [ColourView], occlusionMargin: Float) -> Int {
        guard hasColors, !views.isEmpty else { return 0 }
        let grey = Self.uncolouredGrey
        let targets = colors.indices.filter { colors[$0] == grey }
        guard !targets.isEmpty else { return 0 }
        let normals = computedVertexNormals()
        var coloured = 0
        var unseen = Set<Int>()
        for i in targets {
            let p = positions[i], n = normals[i]
            var best: (cosine: Float, colour: SIMD3<Float>)?
            for view in views {
                let toCamera = view.camera.centreInWorld - p
                let cosine = simdDot(n, toCamera) / max(simdLength(toCamera), 1e-12)
                guard cosine > 0.1, cosine > best?.cosine ?? 0 else { continue }
                let c = view.camera.cameraPoint(p)
                guard c.z > 0 else { continue }
                let pixel = view.camera.pixel(normalisedX: c.x / c.z, normalisedY: c.y / c.z)
                guard pixel.x >= 0, pixel.y >= 0, pixel.x < Float(view.depth.width), pixel.y < Float(view.depth.height) else { continue }
                let measured = view.depth[Int(pixel.x), Int(pixel.y)]
                if measured > 0, measured < c.z - occlusionMargin { continue }
                let x = min(view.colour.width - 1, Int(pixel.x * Float(view.colour.width) / Float(view.depth.width)))
                let y = min(view.colour.height - 1, Int(pixel.y * Float(view.colour.height) / Float(view.depth.height)))
                let k = 3 * (y * view.colour.width + x)
                best = (cosine, SIMD3(Float(view.colour.pixels[k]), Float(view.colour.pixels[k + 1]), Float(view.colour.pixels[k + 2])) / 255)
            }
            if let best {
                colors[i] = best.colour
                coloured += 1
            } else {
                unseen.insert(i)
            }
        }
        return coloured + spreadColours(into: unseen)
    }
}
