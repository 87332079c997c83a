import Foundation
import PhotogrammetryKit
import Reconstruction
import ReconstructionCore

/// What `reconstruct` made, printed at the end: text lines, or with `--json` one `complete` event.
struct ReconstructSummary {
    var output: String
    var scene: SparseScene
    var dense: DenseRun
    /// The model, when the output is one (not a `.ply` mesh).
    var model: (level: DetailLevel, output: ModelRun.Output)?
    var seconds = 0.0
    /// The side outputs written (--mesh, --point-cloud, …), as absolute paths.
    var alsoWritten: [String] = []

    init(output: String, scene: SparseScene, dense: DenseRun) {
        self.output = output
        self.scene = scene
        self.dense = dense
    }

    func print(to reporter: ProgressReporter) {
        if reporter.isJSON {
            reporter.complete(fields)
        } else {
            for line in lines { Swift.print(line) }
        }
    }

    var lines: [String] {
        var lines: [String] = []
        if let (level, model) = model {
            let r = model.report
            lines.append(String(format: "wrote %@ (%@): %d triangles (from %d), %d charts, atlas %.0f %%, photos cover %.1f %% of texels, model stage %.1f s",
                                output, level.rawValue, r.triangles, r.inputTriangles, r.chartCount, r.atlasUtilisation * 100,
                                r.photoCoverage * 100, model.seconds))
            if let fidelity = model.fidelity {
                for view in fidelity.views {
                    lines.append(String(format: "held-out %@: PSNR %.2f dB over %d pixels", view.name, view.psnr ?? .nan, view.pixels))
                }
                lines.append(String(format: "texture fidelity: mean PSNR %.2f dB over %d held-out photos", fidelity.meanPSNR ?? .nan, fidelity.views.count))
            }
        }
        let scale = dense.metresPerUnit.map {
            dense.trackedScaleCameras > 0
                ? String(format: "metric (%.4g m per pose unit, from %d tracked poses)", $0, dense.trackedScaleCameras)
                : dense.lidarViews == 0 ? "metric (known poses in metres)"
                : String(format: "metric (%.4g m per pose unit, from %d depth maps)", $0, dense.lidarViews)
        } ?? "pose units"
        lines.append(String(format: "%@ %@: %d triangles, %d vertices, voxel %.4g, %@; %@stereo %.1f s, fusion %.1f s%@, total %.1f s",
                            model == nil ? "wrote" : "dense mesh for", output, dense.surface.mesh.triangleCount, dense.surface.mesh.vertexCount,
                            dense.surface.voxelSize, scale, dense.isRestored ? "loaded from the checkpoint (" : "", dense.stereoSeconds,
                            dense.surface.seconds, dense.isRestored ? " when computed)" : "", seconds))
        return lines
    }

    /// The `complete` event's fields.
    var fields: [String: Any] {
        var fields: [String: Any] = [
            "output": URL(fileURLWithPath: output).path,
            "registered": scene.registeredCount,
            "images": scene.images.count,
            "unregistered": scene.unregisteredJSON,
            "dense_mesh": [
                "triangles": dense.surface.mesh.triangleCount,
                "vertices": dense.surface.mesh.vertexCount,
                "voxel_size": Double(dense.surface.voxelSize),
            ] as [String: Any],
            // The outputs are in metres when depth sidecars, known poses or tracked poses fixed the scale.
            "metric": dense.metresPerUnit != nil,
            "metres_per_pose_unit": Self.number(dense.metresPerUnit),
            "depth_sidecars": dense.lidarViews,
            "tracked_poses": dense.trackedScaleCameras,
            "also_written": alsoWritten,
            // Times of the run that computed them when they were loaded from the checkpoint.
            "dense_from_checkpoint": dense.isRestored,
            "stereo_seconds": dense.stereoSeconds,
            "fusion_seconds": dense.surface.seconds,
            "seconds": seconds,
        ]
        if let (level, model) = model {
            let r = model.report
            var entry: [String: Any] = [
                "detail": level.rawValue,
                "files": model.files.map(\.path),
                "triangles": r.triangles,
                "input_triangles": r.inputTriangles,
                "charts": r.chartCount,
                "atlas_utilisation": r.atlasUtilisation,
                "photo_coverage": r.photoCoverage,
                "seconds": model.seconds,
            ]
            if let fidelity = model.fidelity {
                entry["held_out"] = fidelity.views.map { view -> [String: Any] in
                    ["name": view.name, "psnr_db": Self.number(view.psnr), "pixels": view.pixels]
                }
                entry["mean_psnr_db"] = Self.number(fidelity.meanPSNR)
            }
            fields["model"] = entry
        }
        return fields
    }

    /// A JSON number, or null for a missing or non-finite value (JSON has no NaN or infinity).
    static func number(_ value: Double?) -> Any {
        guard let value, value.isFinite else { return NSNull() }
        return value
    }
}
