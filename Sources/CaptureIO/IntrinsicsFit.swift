/// Whether a given pinhole K can describe photos of one size: its principal point should lie near
/// their centre. A K made for larger photos (not scaled with them) or for the upright view of
/// photos stored rotated puts it far away, and poses estimated with it are wrong without any
/// other sign.
public enum IntrinsicsFit: Equatable, Sendable {
    /// The principal point lies within `maximumCentreOffset` of the centre.
    case fits
    /// The principal point lies inside the photo but far from its centre.
    case offCentre(Hint?)
    /// The principal point lies outside the photo: K cannot be for it.
    case outside(Hint?)

    /// What K seems to have been made for instead.
    public enum Hint: Equatable, Sendable {
        /// Photos `1 / factor` times as large: K fits once fx, fy, cx, cy are multiplied by `factor`.
        case scaled(factor: Double)
        /// The photos turned by 90°: K fits with cx and cy swapped.
        case rotated
    }

    /// Largest distance of the principal point from the centre, as a fraction of the photo's
    /// width (along x) and height (along y), that still fits. Real lenses are within a few percent.
    public static let maximumCentreOffset = 0.1

    /// How `k` fits photos of `width` × `height` pixels.
    public static func check(_ k: PinholeIntrinsics, width: Int, height: Int) -> IntrinsicsFit {
        let w = Double(width), h = Double(height)
        guard w > 0, h > 0 else { return .fits }
        if offset(cx: k.cx, cy: k.cy, width: w, height: h) <= maximumCentreOffset { return .fits }
        let inside = (0...w).contains(k.cx) && (0...h).contains(k.cy)
        return inside ? .offCentre(hint(k, width: w, height: h)) : .outside(hint(k, width: w, height: h))
    }

    private static func offset(cx: Double, cy: Double, width: Double, height: Double) -> Double {
        max(abs(cx - width / 2) / width, abs(cy - height / 2) / height)
    }

    private static func hint(_ k: PinholeIntrinsics, width: Double, height: Double) -> Hint? {
        if offset(cx: k.cy, cy: k.cx, width: width, height: height) <= maximumCentreOffset { return .rotated }
        guard k.cx > 0, k.cy > 0 else { return nil }
        // One factor must bring both coordinates to the centre. A principal point a little off the
        // centre (Strecha's: 1–1.7 %) makes the raw ratio as much off, while photos are scaled by
        // simple ratios: the nearest one within 2 % is taken.
        let factor = simpleRatio(near: (width / 2 / k.cx + height / 2 / k.cy) / 2)
        if abs(factor - 1) > maximumCentreOffset,
           offset(cx: k.cx * factor, cy: k.cy * factor, width: width, height: height) <= maximumCentreOffset / 2 {
            return .scaled(factor: factor)
        }
        return nil
    }

    /// The ratio p / q (q ≤ 10, so every tenth too) nearest to `value` when it lies within 2 % of
    /// it, else `value`.
    public static func simpleRatio(near value: Double) -> Double {
        var best = value, bestDistance = Double.infinity
        for q in 1...10 {
            let p = (value * Double(q)).rounded()
            guard p >= 1 else { continue }
            let distance = abs(p / Double(q) - value)
            if distance < bestDistance { (best, bestDistance) = (p / Double(q), distance) }
        }
        return bestDistance <= 0.02 * value ? best : value
    }
}
