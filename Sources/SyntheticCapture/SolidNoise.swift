import Foundation

/// Procedural solid-texture building blocks: hashed lattice value noise, octave sums that fade out
/// detail smaller than a pixel, and randomly placed spots. All functions of a position in metres
/// (object frame), deterministic, no tables.
enum SolidNoise {
    /// A well-mixed 32-bit hash of a lattice cell and a seed.
    @inline(__always)
    static func hash(_ x: Int32, _ y: Int32, _ z: Int32, _ seed: UInt32) -> UInt32 {
        var h = seed &* 0x9E37_79B9
        h ^= UInt32(bitPattern: x) &* 0x8DA6_B343
        h ^= UInt32(bitPattern: y) &* 0xD816_3841
        h ^= UInt32(bitPattern: z) &* 0xCB1A_B31F
        h ^= h >> 16
        h &*= 0x7FEB_352D
        h ^= h >> 15
        h &*= 0x846C_A68B
        h ^= h >> 16
        return h
    }

    /// A hash re-mixed into an independent one (for several random numbers per cell).
    @inline(__always)
    static func rehash(_ h: UInt32) -> UInt32 {
        var x = h &+ 0x6D2B_79F5
        x = (x ^ (x >> 15)) &* (x | 1)
        x ^= x &+ (x ^ (x >> 7)) &* (x | 61)
        return x ^ (x >> 14)
    }

    /// Uniform in [0, 1) from a hash.
    @inline(__always)
    static func unit(_ h: UInt32) -> Float { Float(h >> 8) * (1 / 16_777_216) }

    /// Value noise in [−1, 1] on the unit lattice, C2-smooth (quintic fade).
    @inline(__always)
    static func value(_ p: SIMD3<Float>, seed: UInt32) -> Float {
        let f = p.rounded(.down)
        let t = p - f
        let s = t * t * t * (t * (t * 6 - 15) + 10)
        let x = Int32(f.x), y = Int32(f.y), z = Int32(f.z)
        let c000 = corner(x, y, z, seed), c100 = corner(x &+ 1, y, z, seed)
        let c010 = corner(x, y &+ 1, z, seed), c110 = corner(x &+ 1, y &+ 1, z, seed)
        let c001 = corner(x, y, z &+ 1, seed), c101 = corner(x &+ 1, y, z &+ 1, seed)
        let c011 = corner(x, y &+ 1, z &+ 1, seed), c111 = corner(x &+ 1, y &+ 1, z &+ 1, seed)
        let x00 = c000 + (c100 - c000) * s.x
        let x10 = c010 + (c110 - c010) * s.x
        let x01 = c001 + (c101 - c001) * s.x
        let x11 = c011 + (c111 - c011) * s.x
        let y0 = x00 + (x10 - x00) * s.y
        let y1 = x01 + (x11 - x01) * s.y
        return y0 + (y1 - y0) * s.z
    }

    /// The noise value at a lattice point, in [−1, 1].
    @inline(__always)
    private static func corner(_ x: Int32, _ y: Int32, _ z: Int32, _ seed: UInt32) -> Float {
        unit(hash(x, y, z, seed)) * 2 - 1
    }

    /// Sum of `octaves` value-noise octaves, the first with period `wavelength` metres, each next at
    /// half the period and `gain` times the amplitude. Octaves with a period under about 4 pixels
    /// (`footprint` metres each) fade out, so the texture does not alias. Roughly in [−1, 1].
    static func octaves(
        _ p: SIMD3<Float>, wavelength: Float, octaves: Int, gain: Float = 0.55, footprint: Float, seed: UInt32
    ) -> Float {
        var sum: Float = 0, amplitude: Float = 1, total: Float = 0
        var period = wavelength
        for octave in 0..<octaves {
            total += amplitude
            let fade = min(max(period / (2 * footprint) - 1, 0), 1)  // 1 at ≥ 4 px per period, 0 at ≤ 2 px
            if fade > 0 {
                // Each octave is shifted so lattice points of different octaves do not line up.
                let shift = SIMD3<Float>(17.3, 5.9, 11.1) * Float(octave)
                sum += amplitude * fade * value(p / period + shift, seed: seed &+ UInt32(octave))
            }
            amplitude *= gain
            period *= 0.5
        }
        return sum / total
    }

    /// Spots for a palette, from a jittered 3D grid of `cellSize` metres: each cell holds, with
    /// probability `density`, a sphere of 0.15–0.45 cells radius centred anywhere in it (a quarter
    /// of them drawn as rings); the surface shows their cross-sections. Returns the coverage of the
    /// point by the most covering spot (0...1, edges smoothed over one `footprint`) and a random
    /// 32-bit value of that spot to pick its colour.
    @inline(__always)
    static func spots(
        _ p: SIMD3<Float>, cellSize: Float, density: Float, footprint: Float, seed: UInt32
    ) -> (coverage: Float, pick: UInt32) {
        let q = p / cellSize
        // Spots reaching q have their centre within 0.5 cells: in the 2 × 2 × 2 cells around q.
        let base = (q - 0.5).rounded(.down)
        let bx = Int32(base.x), by = Int32(base.y), bz = Int32(base.z)
        let edge = max(footprint / cellSize, 1e-4)
        let threshold = UInt32(density * 65536)
        var best: Float = 0, pick: UInt32 = 0
        for corner in 0..<8 {
            let dx = Int32(corner & 1), dy = Int32((corner >> 1) & 1), dz = Int32(corner >> 2)
            let h = hash(bx &+ dx, by &+ dy, bz &+ dz, seed)
            guard h & 0xFFFF < threshold else { continue }
            let g = rehash(h)
            let cell = base + SIMD3(Float(dx), Float(dy), Float(dz))
            let centre = cell + SIMD3(Float(g & 1023), Float((g >> 10) & 1023), Float((g >> 20) & 1023)) * (1 / 1024)
            let radius = 0.15 + 0.3 * Float(h >> 22) * (1 / 1024)
            let d = q - centre
            let distance = (d * d).sum().squareRoot()
            guard distance < radius + edge else { continue }
            var coverage: Float
            if g >> 30 == 0 {
                coverage = (radius / 6 - abs(distance - 0.75 * radius)) / edge + 0.5  // a ring
            } else {
                coverage = (radius - distance) / edge + 0.5
            }
            // Spots far under a pixel wide fade into the background instead of flickering.
            coverage = min(max(coverage, 0), 1) * min(max(2 * radius / edge - 1, 0), 1)
            if coverage > best {
                best = coverage
                pick = rehash(g)
            }
        }
        return (best, pick)
    }

    /// A sharp step from 0 to 1 where `value` crosses `level`, smoothed over `width` (in value units).
    @inline(__always)
    static func step(_ value: Float, at level: Float, width: Float) -> Float {
        min(max((value - level) / max(width, 1e-6) + 0.5, 0), 1)
    }

    /// Smooth step from 0 at `a` to 1 at `b`.
    @inline(__always)
    static func smoothstep(_ a: Float, _ b: Float, _ x: Float) -> Float {
        let t = min(max((x - a) / (b - a), 0), 1)
        return t * t * (3 - 2 * t)
    }
}
