import Foundation
import Reconstruction
import ReconstructionCore

/// A small photographed scene with exactly known cameras, rendered in memory: a floor, two walls
/// and a box, each with its own multi-scale procedural texture and Lambertian shading, ray-cast
/// with 2×2 supersampling, seen from an arc of views around the box (the same scene as
/// Scripts/make_example_scene.py, at a smaller size). Units are metres; world z points up.
struct RenderedCapture {
    let width: Int
    let height: Int
    let intrinsics: CameraIntrinsics
    /// Per view, the true camera-to-world transform (camera axes x right, y down, z forward).
    let worldFromCamera: [RigidTransform]
    let images: [RGBImage]

    private struct Rectangle {
        var origin: SIMD3<Double>
        var u: SIMD3<Double>
        var v: SIMD3<Double>
        var texture: [Float]  // size × size, 0…1
        var colour: SIMD3<Double>
    }

    private static let textureSize = 256

    /// Views rendered elsewhere (another scene), with their true poses.
    init(intrinsics: CameraIntrinsics, worldFromCamera: [RigidTransform], images: [RGBImage]) {
        width = intrinsics.width
        height = intrinsics.height
        self.intrinsics = intrinsics
        self.worldFromCamera = worldFromCamera
        self.images = images
    }

    init(views: Int, width: Int = 640, height: Int = 480, seed: UInt64 = 7) {
        self.width = width
        self.height = height
        let f = 0.9 * Double(width)
        intrinsics = CameraIntrinsics(width: width, height: height, fx: f, fy: f, cx: Double(width) / 2, cy: Double(height) / 2)
        var rng = SplitMix64(seed: seed)
        let h = 0.8
        func rect(_ o: SIMD3<Double>, _ u: SIMD3<Double>, _ v: SIMD3<Double>) -> Rectangle {
            Rectangle(origin: o, u: u, v: v, texture: Self.texture(&rng),
                      colour: SIMD3(rng.uniform(0.5, 1), rng.uniform(0.5, 1), rng.uniform(0.5, 1)))
        }
        let rects = [
            rect([-4, -4, 0], [8, 0, 0], [0, 8, 0]),  // floor
            rect([-4, 3, 0], [8, 0, 0], [0, 0, 4]),  // back wall
            rect([3, -4, 0], [0, 8, 0], [0, 0, 4]),  // side wall
            rect([-h / 2, -h / 2, 0], [h, 0, 0], [0, 0, h]),  // box front
            rect([h / 2, -h / 2, 0], [0, h, 0], [0, 0, h]),  // box right
            rect([-h / 2, h / 2, 0], [0, -h, 0], [0, 0, h]),  // box left
            rect([-h / 2, -h / 2, h], [h, 0, 0], [0, h, 0]),  // box top
        ]
        let target = SIMD3<Double>(0, 0, 0.4)
        var poses: [RigidTransform] = []
        var images: [RGBImage] = []
        for i in 0..<views {
            let angle = (-150 + 100 * Double(i) / Double(max(1, views - 1))) * .pi / 180
            let centre = SIMD3<Double>(3.2 * cos(angle), 3.2 * sin(angle), 1.6 + 0.2 * Double(i % 2))
            let z = simd_normalize(target - centre)
            let x = simd_normalize(simd_cross3(z, [0, 0, 1]))
            let y = simd_cross3(z, x)
            poses.append(RigidTransform(rotation: Matrix3(rowMajor: [x.x, y.x, z.x, x.y, y.y, z.y, x.z, y.z, z.z]),
                                        translation: Vector3(centre.x, centre.y, centre.z)))
            images.append(Self.render(rects, intrinsics: intrinsics, axes: (x, y, z), centre: centre))
        }
        worldFromCamera = poses
        self.images = images
    }

    /// Multi-octave value noise with sharp discs: rich in SIFT features at many scales. Row-major,
    /// `width` × `height` texels in 0…1; octave k lays a grid of 2^k cells across the width (and as
    /// many across the height as keep the cells square).
    static func texture(width: Int = textureSize, height: Int = textureSize, octaves: Range<Int> = 2..<7, discs: Int = 40,
                        discRadius: ClosedRange<Double> = 2...9, _ rng: inout SplitMix64) -> [Float] {
        var image = [Float](repeating: 0, count: width * height)
        for octave in octaves {
            let n = 1 << octave, m = max(1, (n * height + width - 1) / width)
            let coarse = (0..<((n + 1) * (m + 1))).map { _ in Float(rng.uniform(0, 1)) }
            let amplitude = Float(1 / pow(Double(octave), 0.7))
            for py in 0..<height {
                let fy = Float(py) * Float(m) / Float(height - 1)
                let y0 = min(Int(fy), m - 1), ay = fy - Float(y0)
                for px in 0..<width {
                    let fx = Float(px) * Float(n) / Float(width - 1)
                    let x0 = min(Int(fx), n - 1), ax = fx - Float(x0)
                    let a = coarse[y0 * (n + 1) + x0], b = coarse[y0 * (n + 1) + x0 + 1]
                    let c = coarse[(y0 + 1) * (n + 1) + x0], d = coarse[(y0 + 1) * (n + 1) + x0 + 1]
                    image[py * width + px] += amplitude * ((a * (1 - ax) + b * ax) * (1 - ay) + (c * (1 - ax) + d * ax) * ay)
                }
            }
        }
        let lo = image.min()!, hi = image.max()!
        for i in image.indices { image[i] = (image[i] - lo) / (hi - lo) }
        for _ in 0..<discs {
            let cx = rng.uniform(0, Double(width)), cy = rng.uniform(0, Double(height))
            let r = rng.uniform(discRadius.lowerBound, discRadius.upperBound)
            let value = Float(rng.uniform(0, 1))
            for py in max(0, Int(cy - r))..<min(height, Int(cy + r) + 1) {
                for px in max(0, Int(cx - r))..<min(width, Int(cx + r) + 1) {
                    let dx = Double(px) - cx, dy = Double(py) - cy
                    if dx * dx + dy * dy < r * r { image[py * width + px] = value }
                }
            }
        }
        return image
    }

    private static func render(_ rects: [Rectangle], intrinsics k: CameraIntrinsics,
                               axes: (SIMD3<Double>, SIMD3<Double>, SIMD3<Double>), centre: SIMD3<Double>) -> RGBImage {
        let light = simd_normalize(SIMD3<Double>(0.4, -0.5, 0.75))
        let size = textureSize
        let normals = rects.map { simd_normalize(simd_cross3($0.u, $0.v)) }
        var pixels = [UInt8](repeating: 0, count: k.width * k.height * 3)
        for j in 0..<k.height {
            for i in 0..<k.width {
                var sum = SIMD3<Double>(0, 0, 0)
                for sy in 0..<2 {
                    for sx in 0..<2 {
                        let px = Double(i) + (Double(sx) + 0.5) / 2, py = Double(j) + (Double(sy) + 0.5) / 2
                        let d = axes.0 * ((px - k.cx) / k.fx) + axes.1 * ((py - k.cy) / k.fy) + axes.2
                        var best = Double.infinity
                        var colour = SIMD3<Double>(0.5, 0.5, 0.5)
                        for (r, rect) in rects.enumerated() {
                            let n = normals[r]
                            let denom = simd_dot(d, n)
                            guard abs(denom) > 1e-12 else { continue }
                            let t = simd_dot(rect.origin - centre, n) / denom
                            guard t > 1e-6, t < best else { continue }
                            let rel = centre + t * d - rect.origin
                            let s = simd_dot(rel, rect.u) / simd_dot(rect.u, rect.u)
                            let w = simd_dot(rel, rect.v) / simd_dot(rect.v, rect.v)
                            guard s >= 0, s <= 1, w >= 0, w <= 1 else { continue }
                            let value = Self.bilinear(rect.texture, width: size, height: size,
                                                      x: s * Double(size - 1), y: w * Double(size - 1))
                            colour = rect.colour * Double(value) * (0.35 + 0.65 * abs(simd_dot(n, light)))
                            best = t
                        }
                        sum += colour
                    }
                }
                let c = sum / 4
                let o = 3 * (j * k.width + i)
                pixels[o] = UInt8(max(0, min(255, (c.x * 255).rounded())))
                pixels[o + 1] = UInt8(max(0, min(255, (c.y * 255).rounded())))
                pixels[o + 2] = UInt8(max(0, min(255, (c.z * 255).rounded())))
            }
        }
        return RGBImage(width: k.width, height: k.height, pixels: pixels)
    }

    /// A row-major texture sampled bilinearly at texel coordinates (x, y), clamped to its last cell.
    static func bilinear(_ t: [Float], width: Int, height: Int, x: Double, y: Double) -> Float {
        let x0 = min(width - 2, Int(x)), y0 = min(height - 2, Int(y))
        let ax = Float(x - Double(x0)), ay = Float(y - Double(y0))
        return (t[y0 * width + x0] * (1 - ax) + t[y0 * width + x0 + 1] * ax) * (1 - ay)
            + (t[(y0 + 1) * width + x0] * (1 - ax) + t[(y0 + 1) * width + x0 + 1] * ax) * ay
    }

    /// Writes the views as PNG files `0000.png`, … into a new temporary folder.
    func writePNGs(prefix: String) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for (i, image) in images.enumerated() {
            try ImageCodec.encode(image, as: .png).write(to: folder.appendingPathComponent(Self.name(i)))
        }
        return folder
    }

    static func name(_ i: Int) -> String { String(format: "%04d.png", i) }

    /// Ground truth for `PoseAccuracyReport`, named like `writePNGs`' files.
    var truth: [NamedPose] { worldFromCamera.indices.map { NamedPose(name: Self.name($0), worldFromCamera: worldFromCamera[$0]) } }
}

func simd_dot(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> Double { (a * b).sum() }
func simd_cross3(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> SIMD3<Double> {
    SIMD3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x)
}
func simd_normalize(_ a: SIMD3<Double>) -> SIMD3<Double> { a / simd_dot(a, a).squareRoot() }
