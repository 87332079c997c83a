import ReconstructionCore

/// Bilinear colour lookup in a photo of the depth map's view, possibly at another resolution.
struct ColourSampler: Sendable {
    let image: RGBImage
    /// Photo pixels per depth pixel, along x and y.
    let scale: SIMD2<Float>

    init?(image: RGBImage, depthWidth: Int, depthHeight: Int) {
        guard image.width > 0, image.height > 0, image.pixels.count == image.width * image.height * 3 else { return nil }
        self.image = image
        scale = SIMD2(Float(image.width) / Float(depthWidth), Float(image.height) / Float(depthHeight))
    }

    /// sRGB 0…255 at depth-map pixel position `p` (pixel centres at `i + 0.5`).
    @inline(__always)
    func sample(_ p: SIMD2<Float>, pixels: UnsafeBufferPointer<UInt8>) -> SIMD3<Float> {
        let w = image.width, h = image.height
        let q = p * scale - 0.5
        let fx = max(0, min(q.x, Float(w - 1))), fy = max(0, min(q.y, Float(h - 1)))
        let x0 = min(Int(fx), w - 1), y0 = min(Int(fy), h - 1)
        let x1 = min(x0 + 1, w - 1), y1 = min(y0 + 1, h - 1)
        let ax = fx - Float(x0), ay = fy - Float(y0)
        @inline(__always) func rgb(_ x: Int, _ y: Int) -> SIMD3<Float> {
            let i = 3 * (y * w + x)
            return SIMD3(Float(pixels[i]), Float(pixels[i + 1]), Float(pixels[i + 2]))
        }
        let top = rgb(x0, y0) * (1 - ax) + rgb(x1, y0) * ax
        let bottom = rgb(x0, y1) * (1 - ax) + rgb(x1, y1) * ax
        return top * (1 - ay) + bottom * ay
    }
}
