import Foundation
import ReconstructionCore

/// The model stage's outcome as JSON: level, triangles, atlas, photo coverage, step timings and
/// texture fidelity. What benchmarks and the regression report read.
public struct ModelStageReport: Codable, Sendable, Equatable {
    public var level: String
    public var files: [String]
    public var inputTriangles: Int
    public var triangles: Int
    public var charts: Int
    public var atlasUtilisation: Double
    public var photoCoverage: Double
    public var detailHitFraction: Double
    public var maps: [String: Int]
    public var stepSeconds: [String: Double]
    public var seconds: Double
    public var fidelity: TextureFidelity.Result?
    public var meanPSNR: Double?

    public init(level: DetailLevel, output: ModelRun.Output) {
        let r = output.report
        self.level = level.rawValue
        files = output.files.map(\.path)
        inputTriangles = r.inputTriangles
        triangles = r.triangles
        charts = r.chartCount
        atlasUtilisation = r.atlasUtilisation
        photoCoverage = r.photoCoverage
        detailHitFraction = r.detailHitFraction
        let t = output.model.textures
        var maps: [String: Int] = [:]
        if let m = t.diffuseColor { maps["diffuseColor"] = m.width }
        if let m = t.normal { maps["normal"] = m.width }
        if let m = t.ambientOcclusion { maps["ambientOcclusion"] = m.width }
        if let m = t.roughness { maps["roughness"] = m.width }
        if let m = t.displacement { maps["displacement"] = m.width }
        self.maps = maps
        stepSeconds = r.seconds
        seconds = output.seconds
        fidelity = output.fidelity
        meanPSNR = output.fidelity?.meanPSNR
    }

    public func json() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return try encoder.encode(self)
    }
}
