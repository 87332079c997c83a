import ReconstructionCore
import Rendering

/// The textured room of `SyntheticCapture.Surroundings.room`: a square floor with a rug-like
/// texture, the object at its centre, and four walls covered in posters, all with features of
/// their own (physical world frame: metres, z up, floor at z = 0).
extension CaptureStudio {
    /// Half the side of the square room, metres.
    static let roomHalfWidth: Double = 2.0
    /// Height of the walls, metres.
    static let roomHeight: Double = 2.6

    /// Floor and walls in the object's frame, with per-vertex normals facing into the room.
    static func room(objectFromWorld: RigidTransform) -> TriangleMesh {
        let h = roomHalfWidth, top = roomHeight
        // Each quad: its corners counter-clockwise seen from inside, and its inward normal.
        let quads: [([Vector3], Vector3)] = [
            ([Vector3(-h, -h, 0), Vector3(h, -h, 0), Vector3(h, h, 0), Vector3(-h, h, 0)], Vector3(0, 0, 1)),
            ([Vector3(-h, -h, 0), Vector3(-h, -h, top), Vector3(h, -h, top), Vector3(h, -h, 0)], Vector3(0, 1, 0)),
            ([Vector3(h, -h, 0), Vector3(h, -h, top), Vector3(h, h, top), Vector3(h, h, 0)], Vector3(-1, 0, 0)),
            ([Vector3(h, h, 0), Vector3(h, h, top), Vector3(-h, h, top), Vector3(-h, h, 0)], Vector3(0, -1, 0)),
            ([Vector3(-h, h, 0), Vector3(-h, h, top), Vector3(-h, -h, top), Vector3(-h, -h, 0)], Vector3(1, 0, 0)),
        ]
        var positions: [SIMD3<Float>] = [], normals: [SIMD3<Float>] = [], triangles: [SIMD3<UInt32>] = []
        for (corners, normal) in quads {
            let base = UInt32(positions.count)
            let n = objectFromWorld.rotation * normal
            for corner in corners {
                let p = objectFromWorld.apply(corner)
                positions.append(SIMD3(Float(p.x), Float(p.y), Float(p.z)))
                normals.append(SIMD3(Float(n.x), Float(n.y), Float(n.z)))
            }
            triangles += [SIMD3(base, base + 1, base + 2), SIMD3(base, base + 2, base + 3)]
        }
        var mesh = TriangleMesh(positions: positions, triangles: triangles)
        mesh.normals = normals
        return mesh
    }

    /// Linear reflectance of the room at `point` (physical world frame); `footprint` is the size of
    /// a pixel there, metres, so the texture fades detail it cannot show instead of aliasing.
    static func roomAlbedo(at point: SIMD3<Float>, footprint: Float) -> SIMD3<Float> {
        point.z < 1e-3 ? rugAlbedo(point, footprint: footprint) : wallAlbedo(point, footprint: footprint)
    }

    /// A rug: two muted colours in large patches, woven mottling down to a few millimetres, and
    /// spots at two scales in colours unlike the objects'.
    private static func rugAlbedo(_ p: SIMD3<Float>, footprint: Float) -> SIMD3<Float> {
        let patches = SolidNoise.octaves(p, wavelength: 0.6, octaves: 2, footprint: footprint, seed: 501)
        var color = mix(SIMD3(0.22, 0.2, 0.16), SIMD3(0.38, 0.33, 0.26), SolidNoise.smoothstep(-0.3, 0.3, patches))
        let weave = SolidNoise.octaves(p, wavelength: 0.05, octaves: 4, gain: 0.7, footprint: footprint, seed: 502)
        color *= 1 + 0.6 * weave
        for (cell, density, seed) in [(Float(0.03), Float(0.5), UInt32(503)), (0.09, 0.5, 504)] {
            let s = SolidNoise.spots(p, cellSize: cell, density: density, footprint: footprint, seed: seed)
            if s.coverage > 0 { color = mix(color, rugPalette[Int(s.pick % UInt32(rugPalette.count))], s.coverage) }
        }
        return pointwiseMin(pointwiseMax(color, SIMD3(repeating: 0.01)), SIMD3(repeating: 0.85))
    }

    /// Pale mottled paint with posters: rectangles on a jittered grid, each in its own colour with
    /// a pattern of spots.
    private static func wallAlbedo(_ p: SIMD3<Float>, footprint: Float) -> SIMD3<Float> {
        let paint = SolidNoise.octaves(p, wavelength: 0.4, octaves: 3, gain: 0.6, footprint: footprint, seed: 601)
        var color = SIMD3<Float>(0.55, 0.53, 0.5) * (1 + 0.25 * paint)
        // Along the wall: x on the walls facing ±y, y on the walls facing ±x.
        let along = abs(p.y) > abs(p.x) ? p.x : p.y
        let cell: Float = 0.7
        let column = Int32((along / cell).rounded(.down)), row = Int32((p.z / cell).rounded(.down))
        let wall = UInt32(abs(p.y) > abs(p.x) ? (p.y > 0 ? 1 : 2) : (p.x > 0 ? 3 : 4))
        let h = SolidNoise.hash(column, row, 0, 700 &+ wall)
        if h & 3 != 0 {
            let u = along / cell - Float(column), v = p.z / cell - Float(row)
            let edge = footprint / cell
            let inside = min(SolidNoise.step(u, at: 0.12, width: edge), SolidNoise.step(-u, at: -0.88, width: edge),
                             SolidNoise.step(v, at: 0.1, width: edge), SolidNoise.step(-v, at: -0.9, width: edge))
            if inside > 0 {
                var poster = posterPalette[Int(SolidNoise.rehash(h) % UInt32(posterPalette.count))]
                let s = SolidNoise.spots(p, cellSize: 0.06, density: 0.7, footprint: footprint, seed: 610 &+ (h >> 8) % 97)
                if s.coverage > 0 { poster = mix(poster, spotPalette[Int(s.pick % UInt32(spotPalette.count))], s.coverage) }
                let grain = SolidNoise.octaves(p, wavelength: 0.08, octaves: 3, gain: 0.6, footprint: footprint, seed: 620)
                color = mix(color, poster * (1 + 0.4 * grain), inside)
            }
        }
        return pointwiseMin(pointwiseMax(color, SIMD3(repeating: 0.01)), SIMD3(repeating: 0.9))
    }

    /// Rug spot colours: muted wool tones, linear RGB.
    private static let rugPalette: [SIMD3<Float>] = [
        SIMD3(0.05, 0.05, 0.06), SIMD3(0.6, 0.55, 0.45), SIMD3(0.3, 0.1, 0.08), SIMD3(0.12, 0.2, 0.3), SIMD3(0.35, 0.3, 0.12),
    ]
    /// Poster base colours, linear RGB.
    private static let posterPalette: [SIMD3<Float>] = [
        SIMD3(0.7, 0.2, 0.15), SIMD3(0.15, 0.3, 0.6), SIMD3(0.8, 0.7, 0.3), SIMD3(0.2, 0.5, 0.3), SIMD3(0.1, 0.1, 0.12),
        SIMD3(0.85, 0.85, 0.8),
    ]
}
