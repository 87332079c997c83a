import Foundation

/// The sRGB transfer function (IEC 61966-2-1) between linear light and encoded values, both in 0...1.
public enum SRGB {
    /// Linear light of an encoded sRGB value.
    public static func linear(fromEncoded v: Float) -> Float {
        v <= 0.04045 ? v / 12.92 : powf((v + 0.055) / 1.055, 2.4)
    }

    /// Encoded sRGB value of linear light (clamped to 0...1).
    public static func encoded(fromLinear v: Float) -> Float {
        let c = min(max(v, 0), 1)
        return c <= 0.0031308 ? c * 12.92 : 1.055 * powf(c, 1 / 2.4) - 0.055
    }
}

/// Linear light to 8-bit sRGB by table lookup, fine enough that every byte value is reachable.
struct SRGBEncodingTable: Sendable {
    /// Table entries per unit of linear light.
    static let resolution = 16384
    let bytes: [UInt8]

    init() {
        bytes = (0...Self.resolution).map { i in
            UInt8((SRGB.encoded(fromLinear: Float(i) / Float(Self.resolution)) * 255).rounded())
        }
    }
}
