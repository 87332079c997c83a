import ArgumentParser
import CaptureIO
import Foundation
import ModelExport
import ReconstructionCore
import Regression

struct EvaluateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "evaluate",
        abstract: "Score poses and surfaces against ground truth (Strecha scene or synthetic capture).",
        discussion: """
            Poses: as evaluate-poses (similarity alignment of camera centres; registered count, median \
            and max position and rotation errors). Surface (--surface MESH.ply, needs --poses and a \
            ground-truth mesh): the mesh is brought into the ground truth's frame by the pose \
            alignment, cropped to the true object's box (+5 %), and scored by precision, recall and \
            F-score at a distance threshold of --threshold × the true bounding-box diagonal \
            (default 1 %), plus the chamfer distance.
            """
    )

    @Option(help: "Scene folder with gt_dense_cameras/ (Strecha) or ground_truth/ (synth).")
    var groundTruth: String

    @Option(help: "poses.json (or its folder) of the reconstruction, in the mesh's frame.")
    var poses: String

    @Option(help: "Reconstructed mesh (.ply) to score against the true surface.")
    var surface: String?

    @Option(help: "Distance threshold as a fraction of the true bounding-box diagonal.")
    var threshold = 0.01

    @Flag(help: "Print JSON.")
    var json = false

    struct Report: Encodable {
        var poses: PoseAccuracyReport
        var surface: SurfaceAccuracy?
    }

    func run() throws {
        var posesURL = URL(fileURLWithPath: poses)
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: posesURL.path, isDirectory: &isDirectory), isDirectory.boolValue {
            posesURL = posesURL.appendingPathComponent("poses.json")
        }
        let truth = try GroundTruth.load(URL(fileURLWithPath: groundTruth))
        let estimated = try PosesJSONReader.load(posesURL)
        let report = Report(
            poses: try PoseAccuracyReport.evaluate(estimated: estimated, groundTruth: truth.poses),
            surface: try surface.map { try SurfaceEvaluation.evaluate(mesh: PLYReader.readMesh(URL(fileURLWithPath: $0)),
                                                                      estimated: estimated, groundTruth: truth, thresholdFraction: threshold) })
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            print(String(decoding: try encoder.encode(report), as: UTF8.self))
            return
        }
        let p = report.poses
        print("registered \(p.registeredCount)/\(p.cameraCount)")
        print(String(format: "position error: median %.3f mm, max %.3f mm (%.4f %% of the scene size)", p.medianPositionError * 1000,
                     p.maxPositionError * 1000, p.medianPositionError / p.sceneSize * 100))
        print(String(format: "rotation error: median %.4f°, max %.4f°", p.medianRotationErrorDegrees, p.maxRotationErrorDegrees))
        if let s = report.surface {
            print(String(format: "surface at τ = %.2f mm: precision %.4f, recall %.4f, F-score %.4f, chamfer %.3f mm",
                         s.thresholdMetres * 1000, s.precision, s.recall, s.fScore, s.chamferDistanceMetres * 1000))
        }
    }
}
