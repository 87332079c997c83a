import Foundation
import Reconstruction
import ReconstructionCore

extension DepthSidecar {
    /// Median depths, metres, that a capture's depth sensor gives (LiDAR reads about 0.1–5 m). A
    /// map whose median lies outside was written in other units: millimetres in a float TIFF
    /// read as metres (1000 times too far), metres in a 16-bit PNG read as millimetres.
    public static let plausibleMedianDepth: ClosedRange<Float> = 0.05...50

    /// The median of the map's depth as read (metres; every 4th pixel), nil when it has none.
    public var medianDepth: Float? {
        var values: [Float] = []
        values.reserveCapacity(depth.metres.count / 4 + 1)
        for value in Swift.stride(from: 0, to: depth.metres.count, by: 4).lazy.map({ self.depth.metres[$0] })
        where value > 0 && value.isFinite { values.append(value) }
        guard !values.isEmpty else { return nil }
        values.sort()
        return values[values.count / 2]
    }

    /// Of `named` sidecars (photo name, sidecar), those whose median depth is plausible; a warning
    /// naming the others (their depth is not used: with estimated poses nothing else would tell
    /// that the scale they give is 1000 times off), or nil when all are.
    public static func plausibleUnits(_ named: [(name: String, sidecar: DepthSidecar)]) -> (kept: [Int], warning: String?) {
        var kept: [Int] = [], refused: [(String, Float)] = []
        for (i, entry) in named.enumerated() {
            if let median = entry.sidecar.medianDepth, !plausibleMedianDepth.contains(median) {
                refused.append((entry.name, median))
            } else {
                kept.append(i)
            }
        }
        guard !refused.isEmpty else { return (kept, nil) }
        let medians = refused.map(\.1).sorted()
        let range = medians.first == medians.last ? metres(medians[0]) : "\(metres(medians.first!))–\(metres(medians.last!))"
        let names = CaptureSamples.listed(refused.map(\.0))
        let warning = "the depth sidecars of \(refused.count) photo\(refused.count == 1 ? "" : "s") (\(names)) have a median depth of "
            + "\(range), which no capture's depth sensor gives (LiDAR reads about 0.1–5 m): other units? (16-bit PNG depth is read as "
            + "millimetres, float TIFF as metres); \(refused.count == 1 ? "that photo is" : "those photos are") used without depth"
        return (kept, warning)
    }

    private static func metres(_ value: Float) -> String { String(format: value < 0.01 ? "%.2g m" : "%.3g m", value) }
}
