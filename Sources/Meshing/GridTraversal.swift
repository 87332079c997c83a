/// Visits every integer cell crossed by the segment `from … to` (coordinates in cell units),
/// in order (Amanatides & Woo's grid traversal).
@inline(__always)
func traverseCells(from p0: SIMD3<Float>, to p1: SIMD3<Float>, _ visit: (SIMD3<Int32>) -> Void) {
    guard abs(p0.x) < 1e6, abs(p0.y) < 1e6, abs(p0.z) < 1e6, abs(p1.x) < 1e6, abs(p1.y) < 1e6, abs(p1.z) < 1e6 else { return }
    // Scalar conversions: the generic SIMD float-to-integer initialiser is slow in this loop.
    var cell = SIMD3(Int32(p0.x.rounded(.down)), Int32(p0.y.rounded(.down)), Int32(p0.z.rounded(.down)))
    let last = SIMD3(Int32(p1.x.rounded(.down)), Int32(p1.y.rounded(.down)), Int32(p1.z.rounded(.down)))
    let delta = p1 - p0
    var step = SIMD3<Int32>(repeating: 0)
    var tMax = SIMD3<Float>(repeating: .infinity)
    var tDelta = SIMD3<Float>(repeating: .infinity)
    for axis in 0..<3 where delta[axis] != 0 {
        step[axis] = delta[axis] > 0 ? 1 : -1
        let boundary = delta[axis] > 0 ? Float(cell[axis]) + 1 : Float(cell[axis])
        tMax[axis] = (boundary - p0[axis]) / delta[axis]
        tDelta[axis] = 1 / abs(delta[axis])
    }
    let steps = abs(last.x - cell.x) + abs(last.y - cell.y) + abs(last.z - cell.z)
    visit(cell)
    var taken: Int32 = 0
    while cell != last && taken < steps {
        let axis = tMax.x < tMax.y ? (tMax.x < tMax.z ? 0 : 2) : (tMax.y < tMax.z ? 1 : 2)
        if tMax[axis] > 1 { break }
        cell[axis] += step[axis]
        tMax[axis] += tDelta[axis]
        taken += 1
        visit(cell)
    }
    if cell != last { visit(last) }  // rounding stopped the walk one boundary short
}
