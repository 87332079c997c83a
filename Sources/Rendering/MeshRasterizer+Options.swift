extension MeshRasterizer {
    /// Which triangles are drawn, by the side the camera sees.
    public enum FaceCulling: Sendable, Equatable {
        /// Draw only triangles whose front (counter-clockwise) side faces the camera.
        case back
        /// Draw both sides (back faces are lit as if their normal were flipped).
        case none
    }

    /// How often the colour is evaluated when supersampling.
    public enum ShadingRate: Sendable, Equatable {
        /// Once per pixel for all subsamples on the pixel centre's surface; separately only for
        /// subsamples on another surface (silhouettes, depth edges). Like MSAA; textures should
        /// filter themselves with `SurfacePoint.pixelFootprint`.
        case perPixel
        /// Every subsample is shaded (full supersampling; slower by about the sample count).
        case perSample
    }

    /// How images are rendered; every field has a default.
    public struct Options: Sendable {
        /// Subsamples per pixel along each axis for the colour image (1 = none, 2 = 2×2, …).
        public var supersampling: Int = 2
        /// Which sides of triangles are drawn.
        public var culling: FaceCulling = .back
        /// Near clipping distance along the camera's z axis, metres; nearer parts are clipped away.
        public var nearPlane: Double = 0.01
        /// The surface colour before lighting.
        public var albedo: Albedo = .vertexColors(fallback: SIMD3(repeating: 0.6))
        /// Lights, in the mesh's (world) frame.
        public var lighting: Lighting = Lighting()
        /// Colour where no triangle is hit.
        public var background: Background = .color(SIMD3(repeating: 0))
        /// How often the colour is evaluated when supersampling.
        public var shadingRate: ShadingRate = .perPixel
        /// Relative depth difference (fraction of depth) below which a subsample counts as the pixel
        /// centre's surface under `.perPixel` shading.
        public var sameSurfaceDepthTolerance: Float = 0.01
        /// Minimum cosine between the triangles' normals for a subsample on another triangle to count
        /// as the pixel centre's surface under `.perPixel` shading (keeps creases sharp).
        public var sameSurfaceNormalCosine: Float = 0.9

        public init() {}
    }
}
