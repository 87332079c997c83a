import ReconstructionCore

/// What the photos show at one texel's surface point: one observation per candidate view that
/// sees the point (in front, visible by depth, inside the photo and its object mask).
struct TexelObserver: Sendable {
    struct Observation: Sendable {
        var view: Int
        /// Colour in the photo, sRGB 0…255.
        var colour: SIMD3<Float>
        /// Preference: cos² of the viewing angle times the photo's pixels per model unit there.
        var weight: Float
    }

    let views: [BakingView]
    let cameras: [BakingCamera]
    let visibility: VisibilityBuffers
    let candidates: [[Int32]]
    let minimumCosine: Float

    func observe(_ sample: TexelSurface.Sample, into observations: inout [Observation]) {
        observations.removeAll(keepingCapacity: true)
        for v32 in candidates[sample.triangle] {
            let v = Int(v32)
            let camera = cameras[v]
            let toCamera = camera.centre - sample.position
            let distance = simdLength(toCamera)
            guard distance > 0 else { continue }
            let cosine = simdDot(sample.normal, toCamera) / distance
            guard cosine >= minimumCosine else { continue }
            let q = camera.camera(sample.position)
            guard visibility.sees(view: v, cameraPoint: q, camera: camera) else { continue }
            let p = camera.pixel(q)
            let image = views[v].image
            guard p.x >= 0.5, p.y >= 0.5, p.x <= Float(image.width) - 0.5, p.y <= Float(image.height) - 0.5 else { continue }
            if let mask = views[v].mask {
                let mx = min(mask.width - 1, Int(p.x * Float(mask.width) / Float(image.width)))
                let my = min(mask.height - 1, Int(p.y * Float(mask.height) / Float(image.height)))
                if mask.pixels[my * mask.width + mx] == 0 { continue }
            }
            let interior = visibility.interiorWeight(view: v, cameraPoint: q, camera: camera, edgeWeight: 0.02)
            observations.append(Observation(view: v, colour: Self.bilinear(image, p), weight: interior * cosine * cosine * camera.fx / q.z))
        }
    }

    /// Bilinear sample at pixel coordinates (pixel centres at half-integers).
    @inline(__always) static func bilinear(_ image: RGBImage, _ p: SIMD2<Float>) -> SIMD3<Float> {
        let fx = p.x - 0.5, fy = p.y - 0.5
        let x0 = max(0, min(image.width - 1, Int(fx))), y0 = max(0, min(image.height - 1, Int(fy)))
        let x1 = min(image.width - 1, x0 + 1), y1 = min(image.height - 1, y0 + 1)
        let wx = max(0, min(1, fx - Float(x0))), wy = max(0, min(1, fy - Float(y0)))
        return image.pixels.withUnsafeBufferPointer { px in
            func at(_ x: Int, _ y: Int) -> SIMD3<Float> {
                let k = (y * image.width + x) * 3
                return SIMD3(Float(px[k]), Float(px[k + 1]), Float(px[k + 2]))
            }
            let top = at(x0, y0) + (at(x1, y0) - at(x0, y0)) * wx
            let bottom = at(x0, y1) + (at(x1, y1) - at(x0, y1)) * wx
            return top + (bottom - top) * wy
        }
    }
}
