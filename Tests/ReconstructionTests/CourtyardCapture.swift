import Foundation
import Reconstruction
import ReconstructionCore

/// A walk around the inside of a courtyard, looking out at its walls: the shape of Strecha's
/// castle scenes. Four 12 m × 5 m walls, each with two storeys of identical windows every 2 m on
/// its own stone texture (random discs on value noise), a textured floor and a plain sky. The
/// cameras stand on a circle of radius `loopRadius` at eye height, each turned 20° from the
/// outward direction and tilted 8° up, so consecutive views overlap and the last view overlaps the
/// first: the path closes a loop. Ray-cast with 2×2 supersampling. Metres; world z up.
enum CourtyardCapture {
    static let loopRadius = 2.5
    static let halfSide = 6.0
    static let wallHeight = 5.0
    /// Texels per metre on walls and floor.
    static let texelsPerMetre = 160.0

    /// A wall or the floor: an axis-aligned rectangle with a texture (row 0 at `v` = 0).
    private struct Surface {
        var origin: SIMD3<Double>
        var u: SIMD3<Double>
        var v: SIMD3<Double>
        var texture: [Float]
        var textureWidth: Int
        var textureHeight: Int
        var tint: SIMD3<Double>
    }

    static func render(views: Int, width: Int = 800, height: Int = 600, seed: UInt64 = 3) -> RenderedCapture {
        let f = 0.9 * Double(width)
        let k = CameraIntrinsics(width: width, height: height, fx: f, fy: f, cx: Double(width) / 2, cy: Double(height) / 2)
        var rng = SplitMix64(seed: seed)
        let h = halfSide, top = wallHeight
        // Walls seen from inside (u along the wall, v up), then the floor.
        let walls: [(SIMD3<Double>, SIMD3<Double>)] = [
            ([h, h, 0], [-2 * h, 0, 0]), ([h, -h, 0], [0, 2 * h, 0]),
            ([-h, -h, 0], [2 * h, 0, 0]), ([-h, h, 0], [0, -2 * h, 0]),
        ]
        let tints: [SIMD3<Double>] = [[0.95, 0.85, 0.7], [0.8, 0.85, 0.8], [0.9, 0.8, 0.8], [0.85, 0.8, 0.75]]
        var surfaces = walls.enumerated().map { i, wall in
            let (w, t) = facade(&rng)
            return Surface(origin: wall.0, u: wall.1, v: [0, 0, top], texture: t, textureWidth: w,
                           textureHeight: t.count / w, tint: tints[i])
        }
        let floorTexels = Int(2 * h * texelsPerMetre)
        surfaces.append(Surface(origin: [-h, -h, 0], u: [2 * h, 0, 0], v: [0, 2 * h, 0],
                                texture: RenderedCapture.texture(width: floorTexels, height: floorTexels, octaves: 3..<10,
                                                                 discs: floorTexels * floorTexels / 400, discRadius: 2...12, &rng),
                                textureWidth: floorTexels, textureHeight: floorTexels, tint: [0.55, 0.55, 0.57]))
        var poses: [RigidTransform] = []
        var images: [RGBImage] = []
        for i in 0..<views {
            let angle = 2 * Double.pi * Double(i) / Double(views) + rng.uniform(-0.03, 0.03)
            let centre = SIMD3(loopRadius * cos(angle), loopRadius * sin(angle), 1.6 + rng.uniform(-0.1, 0.1))
            let yaw = angle + 20 * Double.pi / 180
            let z = simd_normalize(SIMD3(cos(yaw), sin(yaw), tan(8 * Double.pi / 180)))
            let x = simd_normalize(simd_cross3(z, [0, 0, 1]))
            let y = simd_cross3(z, x)
            poses.append(RigidTransform(rotation: Matrix3(rowMajor: [x.x, y.x, z.x, x.y, y.y, z.y, x.z, y.z, z.z]),
                                        translation: Vector3(centre.x, centre.y, centre.z)))
            images.append(image(of: surfaces, intrinsics: k, axes: (x, y, z), centre: centre))
        }
        return RenderedCapture(intrinsics: k, worldFromCamera: poses, images: images)
    }

    /// A wall's texture (width in texels, texels): stone, and the same windows on every wall.
    private static func facade(_ rng: inout SplitMix64) -> (Int, [Float]) {
        let w = Int(2 * halfSide * texelsPerMetre), h = Int(wallHeight * texelsPerMetre)
        var t = RenderedCapture.texture(width: w, height: h, octaves: 3..<10, discs: w * h / 400, discRadius: 2...12, &rng)
            .map { 0.2 + 0.7 * $0 }
        for py in 0..<h {
            let up = (Double(py) + 0.5) / texelsPerMetre  // height above the ground
            for px in 0..<w {
                let across = ((Double(px) + 0.5) / texelsPerMetre).truncatingRemainder(dividingBy: 2) - 1
                for sill in [0.9, 3.0] {
                    let inside = abs(across) < 0.5 && up > sill && up < sill + 1.4
                    let frame = abs(across) < 0.58 && up > sill - 0.08 && up < sill + 1.48
                    let mullion = inside && (abs(across) < 0.04 || abs(up - sill - 0.85) < 0.04)
                    if mullion || (frame && !inside) { t[py * w + px] = 0.92 } else if inside { t[py * w + px] = 0.08 + 0.05 * t[py * w + px] }
                }
            }
        }
        return (w, t)
    }

    private static func image(of surfaces: [Surface], intrinsics k: CameraIntrinsics,
                              axes: (SIMD3<Double>, SIMD3<Double>, SIMD3<Double>), centre: SIMD3<Double>) -> RGBImage {
        let sky = SIMD3<Double>(0.75, 0.82, 0.95)
        var pixels = [UInt8](repeating: 0, count: k.width * k.height * 3)
        for j in 0..<k.height {
            for i in 0..<k.width {
                var sum = SIMD3<Double>(0, 0, 0)
                for sub in 0..<4 {
                    let px = Double(i) + (Double(sub % 2) + 0.5) / 2, py = Double(j) + (Double(sub / 2) + 0.5) / 2
                    let d = axes.0 * ((px - k.cx) / k.fx) + axes.1 * ((py - k.cy) / k.fy) + axes.2
                    var nearest = Double.infinity
                    var colour = sky
                    for s in surfaces {
                        let n = simd_cross3(s.u, s.v)
                        let denom = simd_dot(d, n)
                        guard abs(denom) > 1e-12 else { continue }
                        let t = simd_dot(s.origin - centre, n) / denom
                        guard t > 1e-6, t < nearest else { continue }
                        let rel = centre + t * d - s.origin
                        let a = simd_dot(rel, s.u) / simd_dot(s.u, s.u), b = simd_dot(rel, s.v) / simd_dot(s.v, s.v)
                        guard a >= 0, a <= 1, b >= 0, b <= 1 else { continue }
                        nearest = t
                        colour = s.tint * Double(RenderedCapture.bilinear(s.texture, width: s.textureWidth, height: s.textureHeight,
                                                                                x: a * Double(s.textureWidth - 1),
                                                                                y: b * Double(s.textureHeight - 1)))
                    }
                    sum += colour
                }
                let c = sum / 4
                let o = 3 * (j * k.width + i)
                for (channel, value) in [c.x, c.y, c.z].enumerated() {
                    pixels[o + channel] = UInt8(max(0, min(255, (pow(max(0, value), 1 / 2.2) * 255).rounded())))
                }
            }
        }
        return RGBImage(width: k.width, height: k.height, pixels: pixels)
    }
}
