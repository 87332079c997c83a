import ArgumentParser
import CaptureIO
import Foundation
import ModelExport
import PhotogrammetryKit
import ReconstructionCore
import Regression

struct EvaluateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "evaluate",
        abstract: "Score poses and textures (Strecha scene or synthetic capture) and surfaces (synthetic capture, which has a true mesh) against ground truth.",
        discussion: """
            Poses: as evaluate-poses (similarity alignment of camera centres; registered count, median \
            and max position and rotation errors). Surface (--surface MESH.ply, needs --poses and a \
            ground-truth mesh): the mesh is brought into the ground truth's frame by the pose \
            alignment, cropped to the true object's box (+5 %), and scored by precision, recall and \
            F-score at a distance threshold of --threshold × the true bounding-box diagonal \
            (default 1 %), plus the chamfer distance. Texture (--model MODEL.glb with --model-poses, \
            the poses.json that `reconstruct --poses-output` wrote in the model's frame, and \
            --held-out, the photos kept out of texturing — or --model-report, the JSON that \
            `reconstruct --hold-out-every N --model-report` wrote, which names them): the model's \
            base colour rendered unlit through each held-out camera against its photo; PSNR over \
            the pixels that show the model and lie in the photo's object mask.
            """
    )

    @Option(help: "Scene folder with gt_dense_cameras/ (Strecha) or ground_truth/ (synth).")
    var groundTruth: String

    @Option(help: "poses.json (or its folder) of the reconstruction, in the mesh's frame.")
    var poses: String?

    @Option(help: "Reconstructed mesh (.ply) to score against the true surface.")
    var surface: String?

    @Option(help: "Textured model (.glb) to score against held-out photos.")
    var model: String?

    @Option(help: "poses.json (or its folder) in the model's frame (reconstruct --poses-output with a model output).")
    var modelPoses: String?

    @Option(help: "Comma-separated photo names kept out of texturing.")
    var heldOut: String?

    @Option(help: "The model report JSON of reconstruct --hold-out-every (names the held-out photos).")
    var modelReport: String?

    @Option(help: "Distance threshold as a fraction of the true bounding-box diagonal.")
    var threshold = 0.01

    @Flag(help: "Print JSON.")
    var json = false

    struct Report: Encodable {
        var poses: PoseAccuracyReport?
        var surface: SurfaceAccuracy?
        var texture: TextureFidelity.Result?
        var meanTexturePSNR: Double?
    }

    func validate() throws {
        if surface != nil && poses == nil { throw ValidationError("--surface needs --poses (the reconstruction's poses.json, to align the mesh to the ground truth)") }
        if poses == nil && model == nil { throw ValidationError("give --poses (poses and surface) or --model (texture), or both") }
        if model != nil && modelPoses == nil { throw ValidationError("--model needs --model-poses") }
        if model != nil && heldOut == nil && modelReport == nil { throw ValidationError("--model needs --held-out or --model-report") }
        if heldOut != nil && modelReport != nil {
            throw ValidationError("--held-out and --model-report both name the held-out photos; give one")
        }
        if !(threshold > 0 && threshold < 1) {
            throw ValidationError("--threshold is a fraction of the true bounding-box diagonal, above 0 and below 1 (default 0.01), got \(threshold)")
        }
    }

    static func posesFile(_ path: String) -> URL {
        let url = URL(fileURLWithPath: path)
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), isDirectory.boolValue {
            return url.appendingPathComponent("poses.json")
        }
        return url
    }

    func run() throws {
        let scene = URL(fileURLWithPath: groundTruth)
        let truth = try GroundTruth.load(scene)
        if surface != nil && truth.meshURL == nil {
            throw CommandFailure("--surface: \(groundTruth) has no ground-truth mesh (ground_truth/mesh.ply, as `synth` writes); "
                + "a Strecha scene's ground truth here is its cameras only")
        }
        var report = Report()
        if let poses {
            let estimated = try PosesJSONReader.load(Self.posesFile(poses))
            report.poses = try PoseAccuracyReport.evaluate(estimated: estimated, groundTruth: truth.poses)
            report.surface = try surface.map { try SurfaceEvaluation.evaluate(mesh: PLYReader.readMesh(URL(fileURLWithPath: $0)),
                                                                              estimated: estimated, groundTruth: truth, thresholdFraction: threshold) }
        }
        if let model, let modelPoses {
            var names = heldOut.map { $0.split(separator: ",").map { String($0).trimmingCharacters(in: .whitespaces) } } ?? []
            if names.isEmpty, let modelReport {
                let report: ModelStageReport
                let data: Data
                let reportURL = URL(fileURLWithPath: modelReport)
                do { data = try Data(contentsOf: reportURL) } catch {
                    throw CommandFailure("--model-report \(modelReport) cannot be read: \(FileReadFailure.reason(reportURL, error))")
                }
                do {
                    report = try JSONDecoder().decode(ModelStageReport.self, from: data)
                } catch {
                    throw CommandFailure("--model-report \(modelReport): not a model report written by reconstruct --model-report "
                                         + "(\(Self.reason(error)))")
                }
                names = report.fidelity?.views.map(\.name) ?? []
                if names.isEmpty {
                    throw CommandFailure("--model-report \(modelReport) names no held-out photos (run reconstruct with --hold-out-every)")
                }
            }
            let nested = scene.appendingPathComponent("images")
            let images = FileManager.default.fileExists(atPath: nested.path) ? nested : scene
            report.texture = try TextureFidelity.evaluate(modelFile: URL(fileURLWithPath: model), posesFile: Self.posesFile(modelPoses),
                                                          imagesDirectory: images, heldOut: names)
            report.meanTexturePSNR = report.texture?.meanPSNR
        }
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            print(String(decoding: try encoder.encode(report), as: UTF8.self))
            return
        }
        if let p = report.poses {
            print("registered \(p.registeredCount)/\(p.cameraCount)")
            print(String(format: "position error: median %.3f mm, max %.3f mm (%.4f %% of the scene size)", p.medianPositionError * 1000,
                         p.maxPositionError * 1000, p.medianPositionError / p.sceneSize * 100))
            print(String(format: "rotation error: median %.4f°, max %.4f°", p.medianRotationErrorDegrees, p.maxRotationErrorDegrees))
        }
        if let s = report.surface {
            print(String(format: "surface at τ = %.2f mm: precision %.4f, recall %.4f, F-score %.4f, chamfer %.3f mm",
                         s.thresholdMetres * 1000, s.precision, s.recall, s.fScore, s.chamferDistanceMetres * 1000))
            if s.cropBox != nil {
                print(String(format: "surface outside the true mesh's grown box (not scored): %.1f %% of its area",
                             100 * s.outsideCropFraction))
            }
        }
        if let texture = report.texture {
            for view in texture.views { print(String(format: "held-out %@: PSNR %.2f dB over %d pixels", view.name, view.psnr ?? .nan, view.pixels)) }
            print(String(format: "texture fidelity: mean PSNR %.2f dB over %d held-out photos", texture.meanPSNR ?? .nan, texture.views.count))
        }
    }

    /// Why a file did not read as JSON of the expected shape, in words.
    static func reason(_ error: any Error) -> String {
        switch error {
        case DecodingError.keyNotFound(let key, _): return "it has no \"\(key.stringValue)\""
        case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context):
            return "\(context.codingPath.map(\.stringValue).joined(separator: ".")) has the wrong type"
        case DecodingError.dataCorrupted: return "it is not valid JSON"
        default: return error.localizedDescription
        }
    }
}
