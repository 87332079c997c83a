import Foundation
import ReconstructionCore
import Rendering

extension SyntheticObject {
    /// A vase about 0.4 m tall and 0.3 m wide: a lathe profile with twisted lobes and random bumps,
    /// a recessed top, a flat bottom; textured with glaze colours, multi-octave mottling, wavy
    /// stripes and spots and rings at three scales (thousands of distinctive features at 1024 × 768).
    static func vase() -> SyntheticObject {
        // Radius (metres) against height along the side, interpolated with Catmull–Rom.
        let controls: [SIMD2<Float>] = [
            SIMD2(0, 0.082), SIMD2(0.04, 0.106), SIMD2(0.12, 0.138), SIMD2(0.2, 0.127), SIMD2(0.27, 0.088),
            SIMD2(0.32, 0.055), SIMD2(0.355, 0.051), SIMD2(0.385, 0.062), SIMD2(0.4, 0.072),
        ]
        let height: Float = 0.4, dishDepth: Float = 0.03
        var profile: [SIMD2<Float>] = [SIMD2(0, 0)]
        let bottomRings = 8, sideRings = 120, dishRings = 12
        let bottomRadius = controls[0].y - 0.002
        for k in 1..<bottomRings { profile.append(SIMD2(bottomRadius * Float(k) / Float(bottomRings), 0)) }
        let sideStart = profile.count
        for k in 0...sideRings {
            let z = 0.002 + (height - 0.002) * Float(k) / Float(sideRings)
            profile.append(SIMD2(catmullRom(controls, at: z), z))
        }
        let sideEnd = profile.count - 1
        let lip = profile[sideEnd].x
        for k in 1..<dishRings {
            let t = Float(k) / Float(dishRings)
            profile.append(SIMD2(lip * (1 - t), height - dishDepth * (1 - (1 - t) * (1 - t))))
        }
        profile.append(SIMD2(0, height - dishDepth))

        // Bumps: fixed random (angle, height, amplitude) Gaussians plus six twisted lobes.
        var rng = SplitMix64(seed: 0x7A5E)
        let bumps = (0..<16).map { _ in
            (Float(rng.uniform(0, 2 * .pi)), Float(rng.uniform(0.05, 0.33)), Float(rng.uniform(0.04, 0.09)))
        }
        let mesh = LatheMesh.make(profile: profile, segments: 192) { angle, k in
            guard k >= sideStart, k <= sideEnd else { return 1 }
            let z = profile[k].y
            let envelope = SolidNoise.smoothstep(0.01, 0.05, z) * (1 - SolidNoise.smoothstep(0.33, 0.38, z))
            var f = 0.03 * sin(6 * angle + 12 * z)
            for (a, h, amplitude) in bumps {
                var d = angle - a
                d -= 2 * .pi * (d / (2 * .pi)).rounded()
                f += amplitude * exp(-(d * d) / (2 * 0.22 * 0.22) - (z - h) * (z - h) / (2 * 0.022 * 0.022))
            }
            return 1 + envelope * f
        }
        return SyntheticObject(mesh: mesh, albedo: vaseTexture)
    }
}

/// Stripe bands: centre height (metres), stripe count, stripe period (metres).
private let vaseStripeBands: [(Float, Int, Float)] = [(0.06, 3, 0.009), (0.215, 2, 0.012), (0.3, 4, 0.006)]
/// Spot layers: cell size (metres), probability of a spot per cell, seed.
private let vaseSpotLayers: [(Float, Float, UInt32)] = [
    (0.007, 0.85, 101), (0.012, 0.85, 202), (0.02, 0.8, 303), (0.04, 0.6, 404),
]

/// The vase's solid texture (object frame), linear RGB.
@Sendable
func vaseTexture(_ point: SurfacePoint) -> SIMD3<Float> {
    let p = point.position
    let footprint = point.surfaceFootprint
    // Glaze: two colours in large patches.
    let patches = SolidNoise.octaves(p, wavelength: 0.09, octaves: 2, footprint: footprint, seed: 11)
    var color = mix(SIMD3(0.42, 0.15, 0.06), SIMD3(0.6, 0.44, 0.2), SolidNoise.smoothstep(-0.3, 0.3, patches))
    // Sharp-edged dark and light patches of 1–3 cm (edges about a pixel wide).
    let camouflage = SolidNoise.octaves(p, wavelength: 0.035, octaves: 3, footprint: footprint, seed: 31)
    let edge = 3 * footprint / 0.035
    color = mix(color, SIMD3(0.1, 0.04, 0.02), SolidNoise.step(camouflage, at: 0.2, width: edge))
    color = mix(color, SIMD3(0.78, 0.7, 0.52), SolidNoise.step(-camouflage, at: 0.28, width: edge))
    // Mottling from 1.2 cm down to about 1.5 mm.
    let detail = SolidNoise.octaves(p, wavelength: 0.012, octaves: 4, gain: 0.7, footprint: footprint, seed: 23)
    color *= 1 + 0.7 * detail
    // Wavy dark stripes in three bands.
    let angle = atan2(p.y, p.x)
    for (centre, count, period) in vaseStripeBands {
        let half = Float(count) * period / 2
        let z = p.z + 0.003 * sin(14 * angle + 40 * centre)
        guard abs(z - centre) < half + footprint else { continue }
        let phase = (z - centre + half) / period
        let distance = abs(phase - phase.rounded(.down) - 0.5) * period  // from the stripe's centre line
        let stripe = min(max((0.3 * period - distance) / footprint + 0.5, 0), 1)
        let inside = min(max((half - abs(z - centre)) / footprint + 0.5, 0), 1)
        color = mix(color, SIMD3(0.05, 0.03, 0.02), stripe * inside)
    }
    // Spots and rings at four scales.
    for (cell, density, seed) in vaseSpotLayers {
        let s = SolidNoise.spots(p, cellSize: cell, density: density, footprint: footprint, seed: seed)
        if s.coverage > 0 {
            color = mix(color, spotPalette[Int(s.pick % UInt32(spotPalette.count))], s.coverage)
        }
    }
    return pointwiseMin(pointwiseMax(color, SIMD3(repeating: 0.005)), SIMD3(repeating: 0.9))
}

/// Catmull–Rom interpolation of `controls` (x: height, y: value) at height `z`, clamped at the ends.
private func catmullRom(_ controls: [SIMD2<Float>], at z: Float) -> Float {
    guard z > controls[0].x else { return controls[0].y }
    guard let k = controls.indices.dropLast().first(where: { z <= controls[$0 + 1].x }) else { return controls.last!.y }
    let p1 = controls[k].y, p2 = controls[k + 1].y
    let p0 = k > 0 ? controls[k - 1].y : 2 * p1 - p2
    let p3 = k + 2 < controls.count ? controls[k + 2].y : 2 * p2 - p1
    let t = (z - controls[k].x) / (controls[k + 1].x - controls[k].x)
    let t2 = t * t, t3 = t2 * t
    return 0.5 * (2 * p1 + (p2 - p0) * t + (2 * p0 - 5 * p1 + 4 * p2 - p3) * t2 + (3 * p1 - p0 - 3 * p2 + p3) * t3)
}
