import BatchRunner
import Foundation
import XCTest

/// Small synthetic captures for the batch command's tests (30 views of 320×240 register
/// reliably with the K file; 8 or 16 views at that size do not), made once by the CLI and kept in
/// the temporary folder (`synth` is deterministic), and checks of a batch output folder.
enum BatchCaptures {
    static let views = 30

    /// Capture folders for seeds 1…`count`.
    static func make(_ count: Int) throws -> [URL] {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("photogrammetry-batch-captures", isDirectory: true)
        return try (1...count).map { seed in
            let folder = root.appendingPathComponent("vase-\(views)-320x240-seed\(seed)", isDirectory: true)
            if !FileManager.default.fileExists(atPath: folder.appendingPathComponent("capture.json").path) {
                let result = try CLIRunner.run(["synth", "textured-vase", "-o", folder.path, "--views", "\(views)",
                                                "--size", "320x240", "--seed", "\(seed)"])
                guard result.status == 0 else { throw XCTSkip("synth failed: \(result.output)") }
            }
            return folder
        }
    }

    /// A job on `capture` asking for poses and bounds (and a preview GLB when `model`).
    static func job(_ id: String, capture: URL, model: Bool = false) -> [String: Any] {
        var requests: [Any] = ["poses", "bounds"]
        if model { requests.append(["type": "model", "detail": "preview", "format": "glb"]) }
        return ["id": id, "input": capture.path, "intrinsicsFile": "images/K.txt", "requests": requests]
    }

    static func writeJobs(_ jobs: [Any], to url: URL) throws {
        try JSONSerialization.data(withJSONObject: jobs, options: [.prettyPrinted]).write(to: url)
    }

    /// Problems with a completed job's outputs: the manifest must verify every file, poses.json
    /// must parse with every photo, bounds.json must parse with a centre.
    static func outputProblems(_ job: JobRecord) -> [String] {
        guard let path = job.outputDirectory else { return ["\(job.id): no output folder recorded"] }
        let folder = URL(fileURLWithPath: path)
        guard let manifest = OutputManifest.read(in: folder) else { return ["\(job.id): no manifest in \(path)"] }
        var problems: [String] = []
        if manifest.jobID != job.id { problems.append("\(job.id): the manifest names job \(manifest.jobID)") }
        if let mismatch = manifest.mismatch(in: folder) { problems.append("\(job.id): \(mismatch)") }
        let poses = (try? Data(contentsOf: folder.appendingPathComponent("poses.json")))
            .flatMap { try? JSONSerialization.jsonObject(with: $0) as? [String: Any] }
        if (poses?["images"] as? [Any])?.count != views { problems.append("\(job.id): poses.json does not list \(views) images") }
        let bounds = (try? Data(contentsOf: folder.appendingPathComponent("bounds.json")))
            .flatMap { try? JSONSerialization.jsonObject(with: $0) as? [String: Any] }
        if bounds?["centre"] == nil { problems.append("\(job.id): bounds.json does not parse") }
        return problems
    }

    /// Staging folders left in the batch folder's job folders (there must be none after a run).
    static func leftovers(in out: URL) -> [String] {
        let jobs = out.appendingPathComponent("jobs")
        return ((try? FileManager.default.contentsOfDirectory(atPath: jobs.path)) ?? []).flatMap { id in
            ((try? FileManager.default.contentsOfDirectory(atPath: jobs.appendingPathComponent(id).path)) ?? [])
                .filter { $0.hasSuffix(".partial") || $0.hasSuffix(".replaced") }.map { "\(id)/\($0)" }
        }
    }

    static func temporaryDirectory(_ test: XCTestCase) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("batch-cli-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        test.addTeardownBlock { try? FileManager.default.removeItem(at: url) }
        return url
    }
}
