import ReconstructionCore

/// Resizing of texture maps.
public enum ImageResampling {
    /// Bilinear resampling of a grey image to `width` × `height` (texel centres aligned).
    public static func bilinear(_ image: GrayImage, width: Int, height: Int) -> GrayImage {
        GrayImage(width: width, height: height,
                  pixels: resample(image.pixels, channels: 1, from: (image.width, image.height), to: (width, height)))
    }

    /// Bilinear resampling of an RGB image to `width` × `height` (texel centres aligned).
    public static func bilinear(_ image: RGBImage, width: Int, height: Int) -> RGBImage {
        RGBImage(width: width, height: height,
                 pixels: resample(image.pixels, channels: 3, from: (image.width, image.height), to: (width, height)))
    }

    static func resample(_ source: [UInt8], channels: Int, from: (Int, Int), to: (Int, Int)) -> [UInt8] {
        let (sw, sh) = from, (dw, dh) = to
        var out = [UInt8](repeating: 0, count: dw * dh * channels)
        let sx = Float(sw) / Float(dw), sy = Float(sh) / Float(dh)
        out.withUnsafeMutableBufferPointer { out in
            source.withUnsafeBufferPointer { src in
                for y in 0..<dh {
                    let fy = max(0, min(Float(sh - 1), (Float(y) + 0.5) * sy - 0.5))
                    let y0 = Int(fy), y1 = min(sh - 1, y0 + 1), wy = fy - Float(y0)
                    for x in 0..<dw {
                        let fx = max(0, min(Float(sw - 1), (Float(x) + 0.5) * sx - 0.5))
                        let x0 = Int(fx), x1 = min(sw - 1, x0 + 1), wx = fx - Float(x0)
                        for c in 0..<channels {
                            let a = Float(src[(y0 * sw + x0) * channels + c]), b = Float(src[(y0 * sw + x1) * channels + c])
                            let d = Float(src[(y1 * sw + x0) * channels + c]), e = Float(src[(y1 * sw + x1) * channels + c])
                            let top = a + (b - a) * wx, bottom = d + (e - d) * wx
                            out[(y * dw + x) * channels + c] = UInt8(clamping: Int((top + (bottom - top) * wy).rounded()))
                        }
                    }
                }
            }
        }
        return out
    }
}
