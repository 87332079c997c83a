import Foundation
import ReconstructionCore

/// One photo given to a `PhotogrammetrySession`, with whatever else the capture knows about it.
public struct PhotogrammetrySample: Sendable {
    /// Where the photo's pixels come from.
    public enum Image: Sendable {
        /// An encoded image file (JPEG, PNG, TIFF, WebP, BMP, HEIC/HEIF).
        case file(URL)
        /// Decoded 8-bit RGB pixels.
        case pixels(RGBImage)
    }

    /// Unique within a session; outputs (`invalidSample`, `skippedSample`, poses) refer to it.
    public var id: Int
    public var image: Image
    /// Name used in written outputs (poses.json, COLMAP); defaults to the file name, else `sample-<id>`.
    public var name: String
    /// What is known about the camera's intrinsics.
    public var intrinsics: IntrinsicsPrior
    /// Object mask (any size, stretched over the photo): 0 is background. Used when the session's
    /// `isObjectMaskingEnabled` is on.
    public var objectMask: GrayImage?
    /// Depth along the camera's z axis, metres (e.g. LiDAR). Carried for the dense stage; the pose
    /// stage does not use it.
    public var depth: DepthMap?
    /// Gravity in the camera frame (x right, y down, z forward), m/s². Carried for later stages;
    /// the pose stage does not use it.
    public var gravity: Vector3?
    /// The photo's EXIF orientation tag (1…8): how its stored pixels are turned to be shown (a
    /// portrait photo from a phone held upright is stored sideways with 6). Pixels are used as
    /// stored; the tag tells which way is up when there is no gravity.
    public var orientation: Int?
    /// A prior pose (e.g. from ARKit tracking). Carried for later stages; the pose stage does not
    /// use it.
    public var worldFromCamera: RigidTransform?
    /// Why the reader that made this sample rejected it (e.g. its matte does not fit the photo),
    /// naming the file; nil for a usable sample. The session reports a rejected sample as
    /// `invalidSample(id, "<name>: <rejection>")` and does not use it.
    public var rejection: String?

    public init(id: Int, image: Image, name: String? = nil, intrinsics: IntrinsicsPrior = .unknown,
                objectMask: GrayImage? = nil, depth: DepthMap? = nil, gravity: Vector3? = nil,
                worldFromCamera: RigidTransform? = nil, rejection: String? = nil) {
        self.id = id
        self.image = image
        if let name {
            self.name = name
        } else if case .file(let url) = image {
            self.name = url.lastPathComponent
        } else {
            self.name = "sample-\(id)"
        }
        self.intrinsics = intrinsics
        self.objectMask = objectMask
        self.depth = depth
        self.gravity = gravity
        self.worldFromCamera = worldFromCamera
        self.rejection = rejection
    }

    /// The sample's file, when it has one.
    public var url: URL? {
        if case .file(let url) = image { return url }
        return nil
    }
}

extension ImageSource {
    /// The pose stages' input for `sample`: its picture, name, intrinsics prior and rejection, and
    /// its object mask unless `objectMasking` is off.
    public init(_ sample: PhotogrammetrySample, objectMasking: Bool = true) {
        let content: ImageSource.Content
        switch sample.image {
        case .file(let url): content = .file(url)
        case .pixels(let image): content = .pixels(image)
        }
        self.init(name: sample.name, content: content, prior: sample.intrinsics,
                  objectMask: objectMasking ? sample.objectMask : nil, rejection: sample.rejection)
    }
}
