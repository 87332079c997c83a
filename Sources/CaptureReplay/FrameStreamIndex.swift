/// `frames.json`, the index of a recorded frame stream (format `photogrammetry-frame-stream/1`):
///
///     {
///       "format": "photogrammetry-frame-stream/1",
///       "intrinsics": {"width": 480, "height": 360, "fx": 432, "fy": 432, "cx": 240, "cy": 180},
///       "objectBox": {"centre": [0, 0, 0.2], "halfExtents": [0.16, 0.16, 0.21]},
///       "frames": [
///         {"image": "frame_0001.jpg", "timestamp": 0,
///          "rotation": [w, x, y, z], "position": [x, y, z],
///          "gravity": [x, y, z],
///          "depth": "frame_0001_depth.png", "depthConfidence": "frame_0001_depthConfidence.png",
///          "mask": "frame_0001_mask.png"},
///         …
///       ]
///     }
///
/// - World frame: metres, z up (against gravity), as ARKit's world after swapping y and z.
/// - `rotation` (unit quaternion w, x, y, z) and `position` (the camera centre) are the
///   camera-to-world pose, with camera axes x right, y down, z forward (OpenCV; ARKit's camera
///   has y up and z back: negate its second and third columns).
/// - `timestamp`: seconds, strictly increasing along the stream.
/// - `intrinsics`: pixels, pixel (0, 0) the image's top-left corner; a frame may override them
///   with its own `intrinsics`.
/// - `objectBox`: the box the person confirmed around the object, world frame, metres (the
///   replay does not detect boxes; `--box` overrides it).
/// - Optional per frame: `gravity` (physical down in camera axes, g units; default: from the
///   rotation, world −z), `depth` (16-bit PNG millimetres or 32-bit float TIFF metres, along the
///   camera z axis), `depthConfidence` (8-bit, 0 low … 2 high), `mask` (8-bit, read as a
///   capture folder's `_mask` sidecar: non-zero = object in a label image, see `CaptureSamples`).
///   File names are relative to the folder holding `frames.json`.
public struct FrameStreamIndex: Codable, Sendable, Equatable {
    /// The format tag this reader understands.
    public static let formatTag = "photogrammetry-frame-stream/1"
    /// The index's file name inside a frame-stream folder.
    public static let fileName = "frames.json"

    public struct Intrinsics: Codable, Sendable, Equatable {
        public var width: Int
        public var height: Int
        public var fx: Double
        public var fy: Double
        public var cx: Double
        public var cy: Double

        public init(width: Int, height: Int, fx: Double, fy: Double, cx: Double, cy: Double) {
            self.width = width
            self.height = height
            self.fx = fx
            self.fy = fy
            self.cx = cx
            self.cy = cy
        }
    }

    public struct Box: Codable, Sendable, Equatable {
        /// World frame, metres.
        public var centre: [Double]
        /// Half the box's size along world x, y, z, metres.
        public var halfExtents: [Double]

        public init(centre: [Double], halfExtents: [Double]) {
            self.centre = centre
            self.halfExtents = halfExtents
        }
    }

    public struct Entry: Codable, Sendable, Equatable {
        public var image: String
        public var timestamp: Double
        /// Camera-to-world rotation, unit quaternion [w, x, y, z].
        public var rotation: [Double]
        /// Camera centre in the world frame, metres.
        public var position: [Double]
        public var gravity: [Double]?
        public var depth: String?
        public var depthConfidence: String?
        public var mask: String?
        public var intrinsics: Intrinsics?

        public init(image: String, timestamp: Double, rotation: [Double], position: [Double], gravity: [Double]? = nil,
                    depth: String? = nil, depthConfidence: String? = nil, mask: String? = nil, intrinsics: Intrinsics? = nil) {
            self.image = image
            self.timestamp = timestamp
            self.rotation = rotation
            self.position = position
            self.gravity = gravity
            self.depth = depth
            self.depthConfidence = depthConfidence
            self.mask = mask
            self.intrinsics = intrinsics
        }
    }

    public var format: String
    public var intrinsics: Intrinsics?
    public var objectBox: Box?
    public var frames: [Entry]

    public init(intrinsics: Intrinsics?, objectBox: Box?, frames: [Entry]) {
        format = Self.formatTag
        self.intrinsics = intrinsics
        self.objectBox = objectBox
        self.frames = frames
    }
}
