import Foundation
import ReconstructionCore

/// One photo to reconstruct.
public struct ImageSource: Sendable {
    /// Where the pixels come from.
    public enum Content: Sendable {
        /// An encoded image file (JPEG, PNG, TIFF, WebP, BMP, HEIC/HEIF), read when features are extracted.
        case file(URL)
        /// Decoded 8-bit RGB pixels held in memory.
        case pixels(RGBImage)
    }

    /// Name reported in outputs (file name relative to the images directory).
    public var name: String
    public var content: Content
    public var prior: IntrinsicsPrior
    /// Optional object mask (any size; scaled to the photo): keypoints where it is 0 are dropped,
    /// so only the object takes part in matching and mapping.
    public var objectMask: GrayImage?
    /// Why the input's reader rejected this photo, naming the file; the features stage reports it
    /// as an invalid image without reading the photo. Nil for a usable photo.
    public var rejection: String?

    public init(name: String, url: URL, prior: IntrinsicsPrior) {
        self.init(name: name, content: .file(url), prior: prior)
    }

    public init(name: String, content: Content, prior: IntrinsicsPrior, objectMask: GrayImage? = nil, rejection: String? = nil) {
        self.name = name
        self.content = content
        self.prior = prior
        self.objectMask = objectMask
        self.rejection = rejection
    }

    /// The file, when the pixels come from one.
    public var url: URL? {
        if case .file(let url) = content { return url }
        return nil
    }
}
