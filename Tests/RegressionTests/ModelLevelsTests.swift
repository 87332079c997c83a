import Foundation
import ModelExport
import PhotogrammetryKit
import Reconstruction
import ReconstructionCore
import Regression
import SyntheticCapture
import TestSupport
import XCTest

/// Models at every detail level from one synthetic capture, through the session API: one dense run
/// shared by all model requests, each USDZ valid under usd-core's ARKit rules, within its level's
/// triangle cap and with its level's maps at its level's size.
final class ModelLevelsTests: XCTestCase {
    typealias Session = PhotogrammetrySession

    static func capture(views: Int, into folder: URL) throws -> URL {
        let capture = SyntheticCapture(scene: .texturedVase, views: views, seed: 3, imageWidth: 640, imageHeight: 480)
        return try SyntheticCaptureWriter.write(capture, to: folder)
    }

    static func usdzTriangles(_ url: URL, checker: URL) throws -> Int {
        let result = try PythonTool.run(file: checker, [url.path, "--json"])
        let report = try XCTUnwrap(result.output.split(separator: "\n").last.flatMap {
            try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        })
        return try XCTUnwrap(report["triangles"] as? Int)
    }

    func testEveryLevelFromOneSessionPassesTheUSDZValidatorWithinItsBudget() async throws {
        let checker = try PythonTool.usdzCheckScript()
        try PythonTool.requireModule("pxr", pipPackage: "usd-core")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("model-levels-\(UUID())")
        defer { try? FileManager.default.removeItem(at: folder) }
        let images = try Self.capture(views: 20, into: folder.appendingPathComponent("capture"))

        var configuration = Session.Configuration()
        var custom = CustomDetailSpecification()
        custom.maximumPolygonCount = 8_000
        custom.maximumTextureDimension = .oneK
        custom.textureFormat = .jpeg(compressionQuality: 0.8)
        custom.outputTextureMaps = [.diffuseColor, .normal]
        configuration.customDetailSpecification = custom
        let session = try Session(input: images, configuration: configuration)
        let levels: [DetailLevel] = [.preview, .reduced, .medium, .full, .custom]
        let models = levels.map { Session.Request.modelFile(url: folder.appendingPathComponent("\($0.rawValue).usdz"), detail: $0) }
        let glb = folder.appendingPathComponent("preview.glb")
        let objFolder = folder.appendingPathComponent("preview-obj", isDirectory: true)
        try session.process(requests: [.poses] + models + [.modelFile(url: glb, detail: .preview), .modelFile(url: objFolder, detail: .preview)])

        var outputs: [Session.Output] = []
        for await output in session.outputs {
            outputs.append(output)
            if case .processingComplete = output { break }
            if case .processingCancelled = output { break }
        }
        for case .requestError(let request, let error) in outputs { XCTFail("\(request): \(error)") }
        let denseStages = outputs.filter { if case .stageComplete(let r) = $0 { return r.stage == .dense } else { return false } }
        XCTAssertEqual(denseStages.count, 1, "the model requests share one dense stage")
        let posesIndex = try XCTUnwrap(outputs.firstIndex { if case .requestComplete(.poses, _) = $0 { return true } else { return false } })
        let firstModel = try XCTUnwrap(outputs.firstIndex { if case .requestComplete(_, .modelFile) = $0 { return true } else { return false } })
        XCTAssertLessThan(posesIndex, firstModel, "poses arrive before the models")
        XCTAssertTrue(outputs.contains { if case .requestProgressInfo(_, let info) = $0 { return info.stage == .model } else { return false } })
        // The dense stage reports as stereo and fusion go, not only its start and end.
        let denseFractions = Set(outputs.compactMap { output -> Double? in
            if case .requestProgressInfo(_, let info) = output, info.stage == .dense { return info.stageFraction } else { return nil }
        })
        XCTAssertGreaterThan(denseFractions.filter { $0 > 0 && $0 < 1 }.count, 10, "intermediate dense progress")

        // The same preview model as GLB and as an OBJ folder: trimesh loads each with the USDZ's
        // triangle count and the base-colour texture attached.
        try PythonTool.requireModule("trimesh", pipPackage: "trimesh")
        let previewTriangles = try Self.usdzTriangles(folder.appendingPathComponent("preview.usdz"), checker: checker)
        let obj = try XCTUnwrap(try FileManager.default.contentsOfDirectory(atPath: objFolder.path).first { $0.hasSuffix(".obj") })
        for (path, texture) in [(glb.path, "m.visual.material.baseColorTexture"), (objFolder.appendingPathComponent(obj).path, "m.visual.material.image")] {
            let script = "import sys, trimesh; m = trimesh.load(sys.argv[1], force='mesh'); "
                + "t = \(texture); print(len(m.faces), t is not None and t.size[0] > 0)"
            let result = try PythonTool.run(script, [path])
            XCTAssertEqual(result.status, 0, result.output)
            XCTAssertEqual(result.output.split(separator: "\n").last.map(String.init), "\(previewTriangles) True", path)
        }

        for (level, request) in zip(levels, models) {
            guard case .modelFile(let url, _, _) = request else { continue }
            let result = try PythonTool.run(file: checker, [url.path, "--json"])
            XCTAssertEqual(result.status, 0, "\(level.rawValue): \(result.output)")
            let report = try XCTUnwrap(result.output.split(separator: "\n").last.flatMap {
                try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
            })
            let budget = level.budget(custom: custom)
            let triangles = try XCTUnwrap(report["triangles"] as? Int)
            XCTAssertGreaterThan(triangles, 1000, level.rawValue)
            XCTAssertLessThanOrEqual(triangles, budget.maximumTriangleCount, level.rawValue)
            let maps = try XCTUnwrap(report["maps"] as? [String: [String: Any]])
            var expected: Set<String> = []
            if budget.textureMaps.contains(.diffuseColor) { expected.insert("diffuseColor") }
            if budget.textureMaps.contains(.normal) { expected.insert("normal") }
            if budget.textureMaps.contains(.ambientOcclusion) { expected.insert("occlusion") }
            if budget.textureMaps.contains(.roughness) { expected.insert("roughness") }
            if budget.textureMaps.contains(.displacement) { expected.insert("displacement") }
            XCTAssertEqual(Set(maps.keys), expected, level.rawValue)
            for (name, map) in maps {
                XCTAssertEqual(map["size"] as? [Int], [budget.textureDimension.rawValue, budget.textureDimension.rawValue], "\(level.rawValue) \(name)")
            }
            if level == .custom {
                XCTAssertTrue((maps["diffuseColor"]?["file"] as? String)?.hasSuffix(".jpg") == true, "custom asks for a JPEG base colour")
            }
        }
    }
}
