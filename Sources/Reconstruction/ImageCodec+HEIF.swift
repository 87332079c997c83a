import CReconstruction
import Foundation
import ReconstructionCore

extension ImageCodec {
    /// The depth image embedded in a HEIF/HEIC file (its primary image's auxiliary depth image),
    /// nil when it has none. HEIF photos themselves decode with `decodeRGB` and `decodeGray`.
    /// - Throws: `ShimError` for bytes that are not a readable HEIF file, or a depth image that
    ///   does not decode.
    public static func decodeHEIFDepth(_ data: Data) throws -> HEIFDepth? {
        var handle: OpaquePointer?
        var info = rc_heif_depth_info()
        var found: Int32 = 0
        try data.withUnsafeBytes { raw in
            try ShimError.check { error in
                rc_heif_decode_depth(raw.bindMemory(to: UInt8.self).baseAddress, raw.count, &handle, &info, &found, error)
            }
        }
        guard found != 0, let image = handle else { return nil }
        defer { rc_image_free(image) }
        var size = rc_image_info()
        rc_image_get_info(image, &size)
        let count = Int(size.width) * Int(size.height)
        let samples = [Float](unsafeUninitializedCapacity: count) { buffer, n in
            rc_image_copy(image, buffer.baseAddress)
            n = count
        }
        var representation: HEIFDepth.Representation?
        if info.representation_known != 0 {
            representation = HEIFDepth.Representation(
                type: HEIFDepth.RepresentationType(rawValue: Int(info.representation_type)),
                zNear: info.has_z_near != 0 ? info.z_near : nil, zFar: info.has_z_far != 0 ? info.z_far : nil,
                disparityMin: info.has_d_min != 0 ? info.d_min : nil, disparityMax: info.has_d_max != 0 ? info.d_max : nil)
        }
        return HEIFDepth(width: Int(size.width), height: Int(size.height), normalized: samples, bitDepth: Int(info.bit_depth),
                         representation: representation)
    }
}
