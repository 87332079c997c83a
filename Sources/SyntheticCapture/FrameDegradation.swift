import Foundation
import ReconstructionCore
import Rendering

/// Ways a camera frame goes wrong, applied to a rendered sRGB photo.
enum FrameDegradation {
    /// The photo with its linear light scaled by `factor` (under-exposure for factor < 1).
    static func exposed(_ image: RGBImage, factor: Float) -> RGBImage {
        let table = (0..<256).map { byte -> UInt8 in
            let linear = SRGB.linear(fromEncoded: Float(byte) / 255) * factor
            return UInt8((SRGB.encoded(fromLinear: linear) * 255).rounded())
        }
        return RGBImage(width: image.width, height: image.height, pixels: image.pixels.map { table[Int($0)] })
    }

    /// The photo blurred by a Gaussian of standard deviation `sigma` pixels (separable; edges clamped).
    static func blurred(_ image: RGBImage, sigma: Double) -> RGBImage {
        let radius = max(1, Int((3 * sigma).rounded(.up)))
        var weights = (-radius...radius).map { exp(-Double($0 * $0) / (2 * sigma * sigma)) }
        let sum = weights.reduce(0, +)
        weights = weights.map { $0 / sum }
        let width = image.width, height = image.height
        var horizontal = [Double](repeating: 0, count: image.pixels.count)
        for y in 0..<height {
            for x in 0..<width {
                for c in 0..<3 {
                    var value = 0.0
                    for (k, w) in weights.enumerated() {
                        let sx = min(max(x + k - radius, 0), width - 1)
                        value += w * Double(image.pixels[(y * width + sx) * 3 + c])
                    }
                    horizontal[(y * width + x) * 3 + c] = value
                }
            }
        }
        var pixels = [UInt8](repeating: 0, count: image.pixels.count)
        for y in 0..<height {
            for x in 0..<width {
                for c in 0..<3 {
                    var value = 0.0
                    for (k, w) in weights.enumerated() {
                        let sy = min(max(y + k - radius, 0), height - 1)
                        value += w * horizontal[(sy * width + x) * 3 + c]
                    }
                    pixels[(y * width + x) * 3 + c] = UInt8(min(255, max(0, value.rounded())))
                }
            }
        }
        return RGBImage(width: width, height: height, pixels: pixels)
    }
}
