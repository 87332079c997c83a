import Foundation
import ReconstructionCore

/// Exact synthetic stereo scenes: textured planes rendered by ray casting into pinhole cameras,
/// with the true depth and normal of every pixel.
struct StereoTestScene {
    /// A plane `normal · X = offset` (world, unit normal) with a procedural texture.
    struct Plane {
        var normal: Vector3
        var offset: Double
        var textureSeed: UInt64
    }

    var planes: [Plane]
    var intrinsics: CameraIntrinsics
    var cameraFromWorld: [RigidTransform]

    /// What a ray hits: depth along the camera's z axis, world normal and the plane's index.
    struct Hit {
        var depth: Double
        var normalInWorld: Vector3
        var plane: Int
        var point: Vector3
    }

    /// The first plane hit by the ray through pixel coordinates (x, y) of camera `camera`; with
    /// `distorted`, (x, y) are pixels of the camera with the intrinsics' radial distortion.
    func hit(camera: Int, x: Double, y: Double, distorted: Bool = false) -> Hit? {
        let worldFromCamera = cameraFromWorld[camera].inverse
        let k = intrinsics
        var u = (x - k.cx) / k.fx, v = (y - k.cy) / k.fy
        if distorted {
            // Invert x_d = x (1 + k1 r² + k2 r⁴) by fixed-point iteration.
            let ud = u, vd = v
            for _ in 0..<20 {
                let r2 = u * u + v * v
                let d = 1 + k.k1 * r2 + k.k2 * r2 * r2
                u = ud / d
                v = vd / d
            }
        }
        let direction = worldFromCamera.rotation * Vector3(u, v, 1)
        let origin = worldFromCamera.translation
        var best: Hit?
        for (index, plane) in planes.enumerated() {
            let denominator = plane.normal.dot(direction)
            guard abs(denominator) > 1e-9 else { continue }
            let t = (plane.offset - plane.normal.dot(origin)) / denominator
            guard t > 0, t < (best?.depth ?? .infinity) else { continue }
            // Direction has camera z = 1, so t is the depth along z.
            let point = origin + t * direction
            best = Hit(depth: t, normalInWorld: plane.normal, plane: index, point: point)
        }
        return best
    }

    /// Grey image of camera `camera`, 3 × 3 supersampled, through the intrinsics' distortion.
    func render(camera: Int) -> GrayImage {
        var pixels = [UInt8](repeating: 0, count: intrinsics.width * intrinsics.height)
        for y in 0..<intrinsics.height {
            for x in 0..<intrinsics.width {
                var sum = 0.0
                for sy in 0..<3 {
                    for sx in 0..<3 {
                        let px = Double(x) + (Double(sx) + 0.5) / 3, py = Double(y) + (Double(sy) + 0.5) / 3
                        if let h = hit(camera: camera, x: px, y: py, distorted: intrinsics.hasDistortion) { sum += texture(h) }
                    }
                }
                pixels[y * intrinsics.width + x] = UInt8(max(0, min(255, (sum / 9).rounded())))
            }
        }
        return GrayImage(width: intrinsics.width, height: intrinsics.height, pixels: pixels)
    }

    /// The same image as RGB (a tint per plane so colours are checkable).
    func renderRGB(camera: Int) -> RGBImage {
        let gray = render(camera: camera)
        var rgb = [UInt8](repeating: 0, count: gray.pixels.count * 3)
        for i in gray.pixels.indices {
            rgb[3 * i] = gray.pixels[i]
            rgb[3 * i + 1] = gray.pixels[i]
            rgb[3 * i + 2] = gray.pixels[i] / 2
        }
        return RGBImage(width: gray.width, height: gray.height, pixels: rgb)
    }

    /// True depth (metres along z) per pixel centre of the undistorted camera; 0 where nothing is hit.
    func trueDepth(camera: Int) -> DepthMap {
        var depth = DepthMap(width: intrinsics.width, height: intrinsics.height)
        for y in 0..<intrinsics.height {
            for x in 0..<intrinsics.width {
                depth[x, y] = Float(hit(camera: camera, x: Double(x) + 0.5, y: Double(y) + 0.5)?.depth ?? 0)
            }
        }
        return depth
    }

    /// Smooth value noise on the plane (two octaves, cells of 8 and 4 cm) mapped to 30…225.
    func texture(_ hit: Hit) -> Double {
        let plane = planes[hit.plane]
        // An orthonormal basis of the plane.
        let helper = abs(plane.normal.x) < 0.9 ? Vector3(1, 0, 0) : Vector3(0, 1, 0)
        let u = plane.normal.cross(helper).normalized
        let v = plane.normal.cross(u)
        let a = hit.point.dot(u), b = hit.point.dot(v)
        let coarse = Self.valueNoise(a / 0.08, b / 0.08, seed: plane.textureSeed)
        let fine = Self.valueNoise(a / 0.04, b / 0.04, seed: plane.textureSeed &+ 77)
        return 30 + 195 * (0.65 * coarse + 0.35 * fine)
    }

    /// Value noise in 0…1 with smoothstep interpolation between hashed lattice values.
    static func valueNoise(_ x: Double, _ y: Double, seed: UInt64) -> Double {
        let x0 = floor(x), y0 = floor(y)
        let fx = x - x0, fy = y - y0
        let sx = fx * fx * (3 - 2 * fx), sy = fy * fy * (3 - 2 * fy)
        func lattice(_ i: Double, _ j: Double) -> Double {
            var h = SplitMix64(seed: seed ^ (UInt64(bitPattern: Int64(i)) &* 0x9E37_79B9) ^ (UInt64(bitPattern: Int64(j)) &* 0x85EB_CA6B))
            return Double(h.next() >> 11) / Double(1 << 53)
        }
        let top = lattice(x0, y0) + sx * (lattice(x0 + 1, y0) - lattice(x0, y0))
        let bottom = lattice(x0, y0 + 1) + sx * (lattice(x0 + 1, y0 + 1) - lattice(x0, y0 + 1))
        return top + sy * (bottom - top)
    }

    /// A slanted textured plane about 5 m in front of five cameras (one reference at the origin
    /// and four around it, 0.4–0.6 m away, all looking at the plane's centre).
    static func slantedPlane(width: Int = 200, height: Int = 150) -> StereoTestScene {
        let tilt = 30.0 * Double.pi / 180
        let normal = Vector3(sin(tilt), 0, -cos(tilt))  // faces the cameras (−z)
        let centre = Vector3(0, 0, 5)
        let plane = Plane(normal: normal, offset: normal.dot(centre), textureSeed: 11)
        return StereoTestScene(planes: [plane], intrinsics: standardIntrinsics(width: width, height: height),
                               cameraFromWorld: ringCameras(target: centre))
    }

    /// A box corner: a back wall at 6 m and a slanted board standing out in front of it.
    static func boxCorner(width: Int = 200, height: Int = 150) -> StereoTestScene {
        let wall = Plane(normal: Vector3(0, 0, -1), offset: -6, textureSeed: 21)
        let tilt = 40.0 * Double.pi / 180
        let boardNormal = Vector3(-sin(tilt), 0, -cos(tilt))
        // The board passes through (0.6, 0, 4.6); it covers the right part of the view.
        let board = Plane(normal: boardNormal, offset: boardNormal.dot(Vector3(0.6, 0, 4.6)), textureSeed: 31)
        return StereoTestScene(planes: [wall, board], intrinsics: standardIntrinsics(width: width, height: height),
                               cameraFromWorld: ringCameras(target: Vector3(0, 0, 5)))
    }

    static func standardIntrinsics(width: Int, height: Int) -> CameraIntrinsics {
        let f = Double(width)
        return CameraIntrinsics(width: width, height: height, fx: f, fy: f, cx: Double(width) / 2, cy: Double(height) / 2)
    }

    /// Camera 0 at the origin looking along +z; four more around it looking at `target`.
    static func ringCameras(target: Vector3) -> [RigidTransform] {
        let centres = [Vector3(0, 0, 0), Vector3(0.5, 0.05, 0), Vector3(-0.6, 0, 0.1), Vector3(0.05, 0.4, -0.1),
                       Vector3(-0.1, -0.45, 0)]
        return centres.enumerated().map { index, centre in
            index == 0 ? .identity : lookAt(centre: centre, target: target)
        }
    }

    /// A camera at `centre` looking at `target` with its y axis along the world's +y (down).
    static func lookAt(centre: Vector3, target: Vector3) -> RigidTransform {
        let z = (target - centre).normalized
        let x = Vector3(0, 1, 0).cross(z).normalized
        let y = z.cross(x)
        let rotation = Matrix3(rows: x, y, z)
        return RigidTransform(rotation: rotation, translation: -(rotation * centre))
    }
}
