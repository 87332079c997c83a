import CReconstruction
import Foundation
import ReconstructionCore

/// Decodes and encodes images through the shim (OpenCV's codecs: JPEG, PNG, TIFF, WebP, …; HEIC/HEIF
/// decoding through libheif, recognised by content).
/// EXIF orientation is ignored, as in feature extraction, so pixels match the stored raster.
public enum ImageCodec {
    /// Samples of an image decoded without conversion (depth maps, confidence maps).
    public enum Samples: Equatable, Sendable {
        case uint8([UInt8])
        case uint16([UInt16])
        case float32([Float])
    }

    /// An image decoded without conversion: its size, channel count and samples.
    public struct RawImage: Equatable, Sendable {
        public var width: Int
        public var height: Int
        public var channels: Int
        public var samples: Samples

        public init(width: Int, height: Int, channels: Int, samples: Samples) {
            self.width = width
            self.height = height
            self.channels = channels
            self.samples = samples
        }
    }

    public enum Format: Sendable, Equatable {
        case png
        case jpeg(quality: Int)
        case tiff
    }

    /// Decodes to 8-bit RGB; `reduction` (1, 2, 4, 8) divides the size while decoding.
    public static func decodeRGB(_ data: Data, reduction: Int = 1) throws -> RGBImage {
        let raw = try decode(data, mode: Int32(RC_DECODE_COLOR), reduction: reduction)
        guard case .uint8(let bytes) = raw.samples else { throw unexpected() }
        return RGBImage(width: raw.width, height: raw.height, pixels: bytes)
    }

    /// Decodes to 8-bit grey; `reduction` (1, 2, 4, 8) divides the size while decoding.
    public static func decodeGray(_ data: Data, reduction: Int = 1) throws -> GrayImage {
        let raw = try decode(data, mode: Int32(RC_DECODE_GRAY), reduction: reduction)
        guard case .uint8(let bytes) = raw.samples else { throw unexpected() }
        return GrayImage(width: raw.width, height: raw.height, pixels: bytes)
    }

    /// Decodes keeping the stored channels and sample type (16-bit PNG, float TIFF).
    public static func decodeUnchanged(_ data: Data) throws -> RawImage {
        try decode(data, mode: Int32(RC_DECODE_UNCHANGED), reduction: 1)
    }

    public static func encode(_ image: RGBImage, as format: Format = .png) throws -> Data {
        try encode(image.pixels, width: image.width, height: image.height, channels: 3, sampleType: RC_SAMPLE_U8, format)
    }

    public static func encode(_ image: GrayImage, as format: Format = .png) throws -> Data {
        try encode(image.pixels, width: image.width, height: image.height, channels: 1, sampleType: RC_SAMPLE_U8, format)
    }

    /// Encodes one channel of 16-bit samples (PNG or TIFF), e.g. depth in millimetres.
    public static func encode16(_ samples: [UInt16], width: Int, height: Int, as format: Format = .png) throws -> Data {
        try encode(samples, width: width, height: height, channels: 1, sampleType: RC_SAMPLE_U16, format)
    }

    /// Encodes one channel of 32-bit float samples as TIFF, e.g. depth in metres.
    public static func encodeFloatTIFF(_ samples: [Float], width: Int, height: Int) throws -> Data {
        try encode(samples, width: width, height: height, channels: 1, sampleType: RC_SAMPLE_F32, .tiff)
    }

    private static func decode(_ data: Data, mode: Int32, reduction: Int) throws -> RawImage {
        var handle: OpaquePointer?
        try data.withUnsafeBytes { raw in
            try ShimError.check { error in
                rc_image_decode(raw.bindMemory(to: UInt8.self).baseAddress, raw.count, mode, Int32(reduction), &handle, error)
            }
        }
        guard let image = handle else { throw unexpected() }
        defer { rc_image_free(image) }
        var info = rc_image_info()
        rc_image_get_info(image, &info)
        let (width, height, channels) = (Int(info.width), Int(info.height), Int(info.channels))
        let count = width * height * channels
        let samples: Samples
        switch info.sample_type {
        case Int32(RC_SAMPLE_U16):
            samples = .uint16([UInt16](unsafeUninitializedCapacity: count) { buffer, n in
                rc_image_copy(image, buffer.baseAddress)
                n = count
            })
        case Int32(RC_SAMPLE_F32):
            samples = .float32([Float](unsafeUninitializedCapacity: count) { buffer, n in
                rc_image_copy(image, buffer.baseAddress)
                n = count
            })
        default:
            samples = .uint8([UInt8](unsafeUninitializedCapacity: count) { buffer, n in
                rc_image_copy(image, buffer.baseAddress)
                n = count
            })
        }
        return RawImage(width: width, height: height, channels: channels, samples: samples)
    }

    private static func encode<T>(
        _ samples: [T], width: Int, height: Int, channels: Int, sampleType: Int, _ format: Format
    ) throws -> Data {
        guard samples.count == width * height * channels else {
            throw ShimError(kind: .invalidArgument, message: "pixel buffer size does not match \(width)×\(height)×\(channels)")
        }
        let (code, quality): (Int, Int)
        switch format {
        case .png: (code, quality) = (RC_FORMAT_PNG, 0)
        case .jpeg(let q): (code, quality) = (RC_FORMAT_JPEG, q)
        case .tiff: (code, quality) = (RC_FORMAT_TIFF, 0)
        }
        var handle: OpaquePointer?
        try samples.withUnsafeBytes { raw in
            try ShimError.check { error in
                rc_image_encode(raw.baseAddress, Int32(width), Int32(height), Int32(channels), Int32(sampleType),
                                Int32(code), Int32(quality), &handle, error)
            }
        }
        guard let bytes = handle else { throw unexpected() }
        defer { rc_bytes_free(bytes) }
        return Data(bytes: rc_bytes_data(bytes), count: rc_bytes_size(bytes))
    }

    private static func unexpected() -> ShimError {
        ShimError(kind: .internalError, message: "image codec returned no result")
    }
}
