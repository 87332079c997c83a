import CReconstruction
import ReconstructionCore

/// PatchMatch stereo for one reference view against a few source views (bridge over
/// `rc_patch_match`): a depth, a normal and a matching cost per reference pixel.
public struct DepthMapEstimator: Sendable {
    public struct Options: Sendable, Equatable {
        /// Checkerboard propagation-and-refinement iterations.
        public var iterations = 3
        /// Matching window half-size, pixels.
        public var windowRadius = 5
        /// Spacing of the window's samples, pixels.
        public var windowStep = 2
        /// Spatial σ of the bilateral window weights, pixels (0: uniform).
        public var sigmaSpatial: Float = 5
        /// Grey-level scale of the bilateral weights exp(−|ΔI| / σ), 0…255 units (0: off).
        public var sigmaColor: Float = 12
        /// Windows with a weighted grey-level standard deviation below this get no depth (0…255 units).
        public var minTexture: Float = 1
        /// View selection: a candidate's cost (1 − NCC) below this is good in that view.
        public var goodCost: Float = 0.8
        /// View selection: a candidate's cost above this is bad in that view.
        public var badCost: Float = 1.2
        /// View selection: a view is used when more than this many candidates are good in it …
        public var minGoodCandidates = 2
        /// … and fewer than this many are bad.
        public var maxBadCandidates = 3
        /// Weight of the forward-backward reprojection error per pixel (geometric pass only).
        public var geometricWeight: Float = 0.2
        /// Reprojection error at which the geometric term saturates, pixels.
        public var geometricMaxErrorPixels: Float = 3
        /// Relative depth perturbation of the first refinement (halved every iteration).
        public var depthPerturbation: Float = 0.02
        /// Normal perturbation of the first refinement, radians (halved every iteration).
        public var normalPerturbation: Float = 0.3
        /// Refinement also tries random depths and normals (needed from a random start; a pass
        /// refining a good start can do without).
        public var randomHypotheses = true
        /// Seed of the random hypotheses.
        public var seed: UInt32 = 1
        /// Threads inside the kernel (use 1 when several images run in parallel).
        public var threads = 1
        /// Run the portable kernel even where the AVX2 + FMA one could run (for testing).
        public var portableKernel = false
        public init() {}
    }

    /// A view at working resolution: grey pixels and an undistorted pinhole camera.
    public struct View: Sendable {
        public var image: GrayImage
        /// Pinhole intrinsics of `image` (distortion must be 0), pixels.
        public var intrinsics: CameraIntrinsics
        public var cameraFromWorld: RigidTransform
        /// This view's depth map (metres along its z, 0 = none) for the geometric-consistency
        /// term; nil for photometric matching only. Unused on the reference view.
        public var depth: DepthMap?

        public init(image: GrayImage, intrinsics: CameraIntrinsics, cameraFromWorld: RigidTransform, depth: DepthMap? = nil) {
            self.image = image
            self.intrinsics = intrinsics
            self.cameraFromWorld = cameraFromWorld
            self.depth = depth
        }
    }

    /// The per-pixel result for a reference view.
    public struct Estimate: Sendable, Equatable {
        /// Depth along the reference camera's z axis, metres; 0 where none was estimated.
        public var depth: DepthMap
        /// Unit normals in the reference camera frame, facing the camera; zero where no depth.
        public var normalsInCamera: [SIMD3<Float>]
        /// Aggregated matching cost: 1 − NCC over the selected views (0 best, 2 none) plus, in
        /// the geometric pass, the weighted reprojection error.
        public var costs: [Float]

        public init(depth: DepthMap, normalsInCamera: [SIMD3<Float>], costs: [Float]) {
            self.depth = depth
            self.normalsInCamera = normalsInCamera
            self.costs = costs
        }
    }

    public var options: Options
    public init(options: Options = Options()) { self.options = options }

    /// Estimates the reference view's depth and normals.
    /// - Parameters:
    ///   - depthRange: depths searched along the reference's z axis, metres.
    ///   - mask: pixels to estimate (non-zero), the reference's size; nil for all.
    ///   - initial: a starting estimate of the reference's size (e.g. the photometric pass's).
    /// - Throws: `ShimError` for inconsistent sizes, an empty range or bad options.
    public func estimate(reference: View, sources: [View], depthRange: ClosedRange<Float>,
                         mask: GrayImage? = nil, initial: Estimate? = nil) throws -> Estimate {
        let width = reference.image.width, height = reference.image.height
        let pixelCount = width * height
        for view in [reference] + sources {
            guard view.intrinsics.width == view.image.width, view.intrinsics.height == view.image.height else {
                throw ShimError(kind: .invalidArgument, message: "intrinsics are for \(view.intrinsics.width)×\(view.intrinsics.height) but the image is \(view.image.width)×\(view.image.height)")
            }
            guard !view.intrinsics.hasDistortion else {
                throw ShimError(kind: .invalidArgument, message: "stereo views must be undistorted (k1 = k2 = 0)")
            }
            if let depth = view.depth, depth.width != view.image.width || depth.height != view.image.height {
                throw ShimError(kind: .invalidArgument, message: "a source depth map's size differs from its image")
            }
        }
        if let mask, mask.width != width || mask.height != height {
            throw ShimError(kind: .invalidArgument, message: "mask is \(mask.width)×\(mask.height), the reference \(width)×\(height)")
        }
        if let initial, initial.depth.width != width || initial.depth.height != height
            || initial.normalsInCamera.count != pixelCount {
            throw ShimError(kind: .invalidArgument, message: "initial estimate's size differs from the reference")
        }

        // Source pixels and depths go into two contiguous buffers so one pointer scope covers all.
        let worldFromReference = reference.cameraFromWorld.inverse
        var grays: [UInt8] = []
        grays.reserveCapacity(sources.reduce(0) { $0 + $1.image.pixels.count })
        var depths: [Float] = []
        var grayOffsets: [Int] = [], depthOffsets: [Int] = []
        for source in sources {
            grayOffsets.append(grays.count)
            grays += source.image.pixels
            if let depth = source.depth {
                depthOffsets.append(depths.count)
                depths += depth.metres
            } else {
                depthOffsets.append(-1)
            }
        }
        let initialNormals = initial.map { Self.flatten($0.normalsInCamera) }
        var cOptions = cOptions(depthRange)
        var outDepth = [Float](repeating: 0, count: pixelCount)
        var outNormal = [Float](repeating: 0, count: 3 * pixelCount)
        var outCost = [Float](repeating: 0, count: pixelCount)

        try grays.withUnsafeBufferPointer { grayBuffer in
            try depths.withUnsafeBufferPointer { depthBuffer in
                try reference.image.pixels.withUnsafeBufferPointer { referenceGray in
                    var cReference = Self.cView(reference, gray: referenceGray.baseAddress, sourceFromReference: .identity, depth: nil)
                    var cSources = sources.indices.map { s in
                        let view = sources[s]
                        let depth = depthOffsets[s] >= 0 ? depthBuffer.baseAddress.map { $0 + depthOffsets[s] } : nil
                        return Self.cView(view, gray: grayBuffer.baseAddress.map { $0 + grayOffsets[s] },
                                          sourceFromReference: view.cameraFromWorld * worldFromReference, depth: depth)
                    }
                    try Self.withOptionalBuffer(mask?.pixels) { maskPointer in
                        try Self.withOptionalBuffer(initial?.depth.metres) { initialDepth in
                            try Self.withOptionalBuffer(initialNormals) { initialNormal in
                                try ShimError.check { error in
                                    rc_patch_match(&cReference, &cSources, Int32(sources.count), maskPointer, initialDepth,
                                                   initialNormal, &cOptions, &outDepth, &outNormal, &outCost, error)
                                }
                            }
                        }
                    }
                }
            }
        }
        let normals = (0..<pixelCount).map { SIMD3<Float>(outNormal[3 * $0], outNormal[3 * $0 + 1], outNormal[3 * $0 + 2]) }
        return Estimate(depth: DepthMap(width: width, height: height, metres: outDepth), normalsInCamera: normals, costs: outCost)
    }

    private func cOptions(_ range: ClosedRange<Float>) -> rc_patch_match_options {
        rc_patch_match_options(
            depth_min: range.lowerBound, depth_max: range.upperBound, iterations: Int32(options.iterations),
            window_radius: Int32(options.windowRadius), window_step: Int32(options.windowStep),
            sigma_spatial: options.sigmaSpatial, sigma_color: options.sigmaColor, min_texture: options.minTexture,
            good_cost: options.goodCost, bad_cost: options.badCost, min_good: Int32(options.minGoodCandidates),
            max_bad: Int32(options.maxBadCandidates), geometric_weight: options.geometricWeight,
            geometric_max_error: options.geometricMaxErrorPixels, depth_perturbation: options.depthPerturbation,
            normal_perturbation: options.normalPerturbation, random_hypotheses: options.randomHypotheses ? 1 : 0,
            seed: options.seed, num_threads: Int32(options.threads), portable_kernel: options.portableKernel ? 1 : 0)
    }

    private static func cView(_ view: View, gray: UnsafePointer<UInt8>?, sourceFromReference: RigidTransform,
                              depth: UnsafePointer<Float>?) -> rc_stereo_view {
        let r = sourceFromReference.rotation.m, t = sourceFromReference.translation
        let k = view.intrinsics
        return rc_stereo_view(
            width: Int32(view.image.width), height: Int32(view.image.height), pixel_count: view.image.pixels.count,
            gray: gray, fx: k.fx, fy: k.fy, cx: k.cx, cy: k.cy,
            rotation: (r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[7], r[8]), translation: (t.x, t.y, t.z), depth: depth)
    }

    private static func flatten(_ vectors: [SIMD3<Float>]) -> [Float] {
        var flat = [Float](repeating: 0, count: 3 * vectors.count)
        for (i, v) in vectors.enumerated() {
            flat[3 * i] = v.x
            flat[3 * i + 1] = v.y
            flat[3 * i + 2] = v.z
        }
        return flat
    }

    private static func withOptionalBuffer<T, R>(_ array: [T]?, _ body: (UnsafePointer<T>?) throws -> R) rethrows -> R {
        guard let array else { return try body(nil) }
        return try array.withUnsafeBufferPointer { try body($0.baseAddress) }
    }
}
