import ReconstructionCore

/// A HEIF photo's embedded depth image (its auxiliary depth image), as stored, with the file's
/// description of what the samples mean.
public struct HEIFDepth: Sendable, Equatable {
    /// What the samples encode (ISO/IEC 23008-12 depth_representation_info).
    public enum RepresentationType: Int, Sendable, Equatable {
        case uniformInverseZ = 0, uniformDisparity = 1, uniformZ = 2, nonuniformDisparity = 3
    }

    /// The file's depth_representation_info: the type and whichever bounds it gives (in the
    /// file's units; this reader takes them as metres).
    public struct Representation: Sendable, Equatable {
        public var type: RepresentationType?
        public var zNear: Double?
        public var zFar: Double?
        public var disparityMin: Double?
        public var disparityMax: Double?

        public init(type: RepresentationType?, zNear: Double? = nil, zFar: Double? = nil,
                    disparityMin: Double? = nil, disparityMax: Double? = nil) {
            self.type = type
            self.zNear = zNear
            self.zFar = zFar
            self.disparityMin = disparityMin
            self.disparityMax = disparityMax
        }
    }

    public var width: Int
    public var height: Int
    /// Per pixel, the stored sample scaled to 0…1 (sample / (2^bitDepth − 1)).
    public var normalized: [Float]
    /// Bits per stored sample.
    public var bitDepth: Int
    /// Nil when the file does not say how samples map to depth.
    public var representation: Representation?

    public init(width: Int, height: Int, normalized: [Float], bitDepth: Int, representation: Representation?) {
        precondition(normalized.count == width * height, "HEIFDepth needs width × height samples")
        self.width = width
        self.height = height
        self.normalized = normalized
        self.bitDepth = bitDepth
        self.representation = representation
    }

    /// Depth in metres along the camera's z axis, when the representation makes it metric:
    /// - uniform inverse Z with z-near and z-far: 1/z = 1/z_far + v (1/z_near − 1/z_far), so the
    ///   largest sample is nearest (the MPEG depth-map convention);
    /// - uniform Z with z-near and z-far: z = z_near + v (z_far − z_near) (our reading: the
    ///   standard's text on the direction was not available to check).
    /// Disparity representations need a camera baseline the file does not give.
    public func metres() -> Result<DepthMap, NotMetric> {
        guard let representation, let type = representation.type else {
            return .failure(NotMetric(reason: "the file does not say how its depth samples map to distance (no depth representation info)"))
        }
        guard let near = representation.zNear, let far = representation.zFar, near > 0, far > near, far.isFinite else {
            return .failure(NotMetric(reason: "the depth representation gives no usable z-near and z-far (need 0 < z-near < z-far)"))
        }
        switch type {
        case .uniformInverseZ:
            let a = 1 / far, b = 1 / near - 1 / far
            return .success(DepthMap(width: width, height: height, metres: normalized.map { Float(1 / (a + Double($0) * b)) }))
        case .uniformZ:
            return .success(DepthMap(width: width, height: height, metres: normalized.map { Float(near + Double($0) * (far - near)) }))
        case .uniformDisparity, .nonuniformDisparity:
            return .failure(NotMetric(reason: "the depth image holds disparity, which needs a camera baseline the file does not give"))
        }
    }

    /// Why a depth image cannot be read as metres.
    public struct NotMetric: Error, Equatable, Sendable, CustomStringConvertible {
        public var reason: String
        public var description: String { reason }
    }
}
