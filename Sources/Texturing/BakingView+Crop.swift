import ReconstructionCore

extension BakingView {
    /// The view cut down to the part of its photo where `points` (in the view's world) appear,
    /// with `margin` pixels around it: what a photo can give a surface made of those points.
    /// The camera follows the cut (its principal point moves with the corner; lens distortion
    /// acts on normalised coordinates, so it is unchanged), and so does the mask, cut along the
    /// same edges at its own resolution, so every point samples the same photo and mask pixels as
    /// before. A photo of a 12-megapixel object capture then holds the object's box, not the room.
    ///
    /// The view is returned whole when a point lies behind or at the camera (a scene around the
    /// camera), when the cut would keep most of the photo anyway, or when its mask's size is not
    /// commensurate with the photo's (the cut's edges then have no common pixel grid).
    public func cropped(toProjectionsOf points: [SIMD3<Float>], margin: Int = 16) -> BakingView {
        guard let box = Self.cropBox(image: (image.width, image.height), mask: mask.map { ($0.width, $0.height) },
                                     camera: BakingCamera(intrinsics, cameraFromWorld), points: points, margin: margin) else { return self }
        var view = self
        view.uncroppedLongerSide = uncroppedLongerSide ?? max(intrinsics.width, intrinsics.height)
        view.image = RGBImage(width: box.width, height: box.height, pixels: Self.crop(image.pixels, channels: 3, width: image.width, box: box))
        if let mask {
            let m = box.scaled(from: image.width, to: mask.width)
            view.mask = GrayImage(width: m.width, height: m.height, pixels: Self.crop(mask.pixels, channels: 1, width: mask.width, box: m))
        }
        view.intrinsics = CameraIntrinsics(width: box.width, height: box.height, fx: intrinsics.fx, fy: intrinsics.fy,
                                           cx: intrinsics.cx - Double(box.x), cy: intrinsics.cy - Double(box.y),
                                           k1: intrinsics.k1, k2: intrinsics.k2)
        return view
    }

    /// A pixel rectangle: corner and size.
    struct CropBox: Equatable {
        var x, y, width, height: Int

        /// The same rectangle on a grid of `to` pixels across where this one has `from` (exact when
        /// the box lies on the grid both share, as `cropBox` makes it).
        func scaled(from: Int, to: Int) -> CropBox {
            CropBox(x: x * to / from, y: y * to / from, width: width * to / from, height: height * to / from)
        }
    }

    /// The rectangle `cropped(toProjectionsOf:margin:)` keeps, on the pixel grid shared by the
    /// photo and its mask; nil to keep the whole view.
    static func cropBox(image: (width: Int, height: Int), mask: (width: Int, height: Int)?, camera: BakingCamera,
                        points: [SIMD3<Float>], margin: Int) -> CropBox? {
        guard !points.isEmpty else { return nil }
        // The grid step, in photo pixels, on which the mask's pixel edges fall too.
        var step = 1
        if let mask {
            let gx = gcd(image.width, mask.width), gy = gcd(image.height, mask.height)
            guard image.width / gx == image.height / gy, mask.width / gx == mask.height / gy else { return nil }
            step = image.width / gx
        }
        var low = SIMD2<Float>(repeating: .infinity), high = SIMD2<Float>(repeating: -.infinity)
        for point in points {
            let q = camera.camera(point)
            guard q.z > 1e-6 else { return nil }
            let p = camera.pixel(q)
            low = pointwiseMin(low, p)
            high = pointwiseMax(high, p)
        }
        guard low.x.isFinite, low.y.isFinite, high.x.isFinite, high.y.isFinite else { return nil }
        func snapped(_ value: Float, down: Bool, limit: Int) -> Int {
            let v = Double(value) + Double(down ? -margin : margin)
            let clamped = Int(max(0, min(Double(limit), down ? v.rounded(.down) : v.rounded(.up))))
            return down ? clamped / step * step : min(limit, (clamped + step - 1) / step * step)
        }
        let x0 = snapped(low.x, down: true, limit: image.width), x1 = snapped(high.x, down: false, limit: image.width)
        let y0 = snapped(low.y, down: true, limit: image.height), y1 = snapped(high.y, down: false, limit: image.height)
        guard x1 > x0, y1 > y0 else { return nil }  // nothing of the points is in the photo: its texels are refused anyway
        // Cutting saves little: keep the photo as it is.
        guard (x1 - x0) * (y1 - y0) * 10 < image.width * image.height * 9 else { return nil }
        return CropBox(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    /// The rows and columns of `box` from an interleaved image `width` pixels wide.
    static func crop(_ pixels: [UInt8], channels: Int, width: Int, box: CropBox) -> [UInt8] {
        var out = [UInt8]()
        out.reserveCapacity(box.width * box.height * channels)
        for row in box.y..<(box.y + box.height) {
            let start = (row * width + box.x) * channels
            out.append(contentsOf: pixels[start..<(start + box.width * channels)])
        }
        return out
    }

    private static func gcd(_ a: Int, _ b: Int) -> Int { b == 0 ? a : gcd(b, a % b) }
}
