import Foundation
import ReconstructionCore
import Rendering

extension SyntheticObject {
    /// A shoe-like block, 0.30 × 0.12 × 0.11 m, narrower at toe and heel, flat on top and bottom:
    /// a spotted fabric upper with stitching, and a sole with an orange zig-zag tread and spots that
    /// looks like nothing else on the object (it is seen only when the object lies upside down).
    static func shoe() -> SyntheticObject {
        var mesh = RoundedBoxMesh.make(halfExtents: SIMD3(0.15, 0.06, 0.055), radius: 0.025, spacing: 0.006, roundSegments: 6)
        mesh.positions = mesh.positions.map { p in
            let u = p.x / 0.15  // −1 at the heel, +1 at the toe
            let width = 1 - 0.3 * SolidNoise.smoothstep(0.2, 1, u) - 0.12 * SolidNoise.smoothstep(0.5, 1, -u)
            return SIMD3(p.x, p.y * width, p.z + 0.055)
        }
        mesh.normals = mesh.computedVertexNormals()
        return SyntheticObject(mesh: mesh, albedo: shoeTexture)
    }
}

/// Spot layers: cell size (metres), probability of a spot per cell, seed.
private let soleSpotLayers: [(Float, Float, UInt32)] = [(0.006, 0.6, 505), (0.015, 0.7, 606), (0.035, 0.6, 707)]
private let upperSpotLayers: [(Float, Float, UInt32)] = [(0.006, 0.7, 808), (0.012, 0.7, 909), (0.024, 0.6, 1010), (0.045, 0.5, 1111)]
/// Sole spot colours (white, yellow, cyan, red), linear RGB.
private let solePalette: [SIMD3<Float>] = [SIMD3(0.9, 0.9, 0.85), SIMD3(0.9, 0.8, 0.1), SIMD3(0.1, 0.7, 0.8), SIMD3(0.7, 0.05, 0.1)]
/// Heights of the stitching lines, metres.
private let stitchingHeights: [Float] = [0.022, 0.088]

/// The shoe's solid texture (object frame), linear RGB: tread on the sole, fabric elsewhere.
@Sendable
func shoeTexture(_ point: SurfacePoint) -> SIMD3<Float> {
    let p = point.position
    let footprint = point.surfaceFootprint
    if point.normal.z < -0.85 && p.z < 0.01 {
        // Sole: dark rubber, an irregular zig-zag orange tread across it, bright spots and rings.
        let grain = SolidNoise.octaves(p, wavelength: 0.01, octaves: 3, footprint: footprint, seed: 41)
        var color = SIMD3<Float>(0.03, 0.03, 0.035) * (1 + 0.6 * grain)
        let zigzag = abs(p.y / 0.012 - (p.y / 0.012).rounded()) * 0.008  // triangle wave, ±4 mm
        let wobble = 0.006 * SolidNoise.octaves(p, wavelength: 0.06, octaves: 2, footprint: footprint, seed: 43)
        let u = (p.x + zigzag + wobble) / 0.014
        let distance = abs(u - u.rounded()) * 0.014
        let tread = min(max((0.0025 - distance) / footprint + 0.5, 0), 1)
        color = mix(color, SIMD3(0.85, 0.3, 0.03), tread)
        for (cell, density, seed) in soleSpotLayers {
            let s = SolidNoise.spots(p, cellSize: cell, density: density, footprint: footprint, seed: seed)
            if s.coverage > 0 {
                color = mix(color, solePalette[Int(s.pick % UInt32(solePalette.count))], s.coverage)
            }
        }
        return color
    }
    // Upper: blue fabric with sharp light and dark patches, mottling, dashed stitching and spots.
    var color = SIMD3<Float>(0.1, 0.16, 0.38)
    let camouflage = SolidNoise.octaves(p, wavelength: 0.03, octaves: 3, footprint: footprint, seed: 73)
    let edge = 3 * footprint / 0.03
    color = mix(color, SIMD3(0.3, 0.45, 0.75), SolidNoise.step(camouflage, at: 0.2, width: edge))
    color = mix(color, SIMD3(0.02, 0.03, 0.12), SolidNoise.step(-camouflage, at: 0.25, width: edge))
    let detail = SolidNoise.octaves(p, wavelength: 0.015, octaves: 4, gain: 0.65, footprint: footprint, seed: 71)
    color *= 1 + 0.7 * detail
    for line in stitchingHeights {
        let across = abs(p.z - line)
        guard across < 0.002 + footprint else { continue }
        let along = p.x + 0.7 * p.y
        let dash = abs(along / 0.006 - (along / 0.006).rounded()) < 0.3 ? Float(1) : 0
        let coverage = min(max((0.001 - across) / footprint + 0.5, 0), 1) * dash
        color = mix(color, SIMD3(0.85, 0.8, 0.6), coverage)
    }
    for (cell, density, seed) in upperSpotLayers {
        let s = SolidNoise.spots(p, cellSize: cell, density: density, footprint: footprint, seed: seed)
        if s.coverage > 0 {
            color = mix(color, spotPalette[Int(s.pick % UInt32(spotPalette.count))], s.coverage)
        }
    }
    return pointwiseMin(pointwiseMax(color, SIMD3(repeating: 0.005)), SIMD3(repeating: 0.9))
}
