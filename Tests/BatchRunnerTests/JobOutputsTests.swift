import BatchRunner
import Foundation
import XCTest

/// Output folders are staged and committed whole: readers see all of an attempt's files or none.
final class JobOutputsTests: XCTestCase {
    func write(_ text: String, _ path: String, in directory: URL) throws {
        let url = directory.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
    }

    func testCommitMovesTheStagedFilesIntoPlaceWithAManifest() throws {
        let final = try BatchFixtures.temporaryDirectory(self).appendingPathComponent("jobs/a/output")
        let enqueued = Date().timeIntervalSince1970
        let outputs = JobOutputs(finalDirectory: final, attempt: 1)
        try outputs.prepare()
        try write("{}", "poses.json", in: outputs.stagingDirectory)
        try write("# cameras", "colmap/cameras.txt", in: outputs.stagingDirectory)
        XCTAssertFalse(FileManager.default.fileExists(atPath: final.path), "nothing is visible before the commit")
        let manifest = try outputs.commit(jobID: "a", specDigest: "d1", enqueuedAt: enqueued)
        XCTAssertEqual(manifest.files.map(\.path), ["colmap/cameras.txt", "poses.json"])
        XCTAssertEqual(manifest.files.map(\.bytes), [9, 2])
        XCTAssertFalse(FileManager.default.fileExists(atPath: outputs.stagingDirectory.path))
        XCTAssertEqual(try String(contentsOf: final.appendingPathComponent("poses.json"), encoding: .utf8), "{}")
        XCTAssertEqual(OutputManifest.read(in: final), manifest)
        XCTAssertNil(manifest.mismatch(in: final))
        XCTAssertEqual(JobOutputs.committed(at: final, jobID: "a", specDigest: "d1", enqueuedAt: enqueued), manifest)
        XCTAssertNil(JobOutputs.committed(at: final, jobID: "a", specDigest: "other spec", enqueuedAt: enqueued))
        XCTAssertNil(JobOutputs.committed(at: final, jobID: "b", specDigest: "d1", enqueuedAt: enqueued))
        // A job of the same name and spec enqueued after the commit (removed and added again, its
        // photos perhaps changed) computes its outputs again.
        XCTAssertNil(JobOutputs.committed(at: final, jobID: "a", specDigest: "d1", enqueuedAt: enqueued + 1))
        XCTAssertNil(JobOutputs.committed(at: final, jobID: "a", specDigest: "d1", enqueuedAt: enqueued - 1),
                     "another enqueue time, whatever the clocks")
    }

    func testANewAttemptRemovesWhatAnInterruptedOneLeft() throws {
        let final = try BatchFixtures.temporaryDirectory(self).appendingPathComponent("output")
        let first = JobOutputs(finalDirectory: final, attempt: 1)
        try first.prepare()
        try write("half a fi", "model.glb", in: first.stagingDirectory)
        let second = JobOutputs(finalDirectory: final, attempt: 2)
        try second.prepare()
        XCTAssertFalse(FileManager.default.fileExists(atPath: first.stagingDirectory.path))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: second.stagingDirectory.path), [])
        XCTAssertFalse(FileManager.default.fileExists(atPath: final.path))
    }

    /// A file where a folder of the output path must be is named, not reported as a failure to
    /// make the attempt's staging folder.
    func testAFileInTheOutputPathIsNamed() throws {
        let dir = try BatchFixtures.temporaryDirectory(self)
        try write("", "rt", in: dir)
        let final = dir.appendingPathComponent("rt/sub/out")
        XCTAssertThrowsError(try JobOutputs(finalDirectory: final, attempt: 1).prepare()) { error in
            XCTAssertEqual("\(error)", "\(BatchError.outputs("cannot make the output folder \(final.path): \(dir.appendingPathComponent("rt").path) is a file, not a folder"))")
        }
        XCTAssertNil(JobOutputs.fileInTheWay(of: dir.appendingPathComponent("new/deeper")), "folders yet to be made are not in the way")
    }

    func testARecommitReplacesTheJobsEarlierOutputsWhole() throws {
        let final = try BatchFixtures.temporaryDirectory(self).appendingPathComponent("output")
        let first = JobOutputs(finalDirectory: final, attempt: 1)
        try first.prepare()
        try write("old", "old-only.txt", in: first.stagingDirectory)
        try first.commit(jobID: "a", specDigest: "d1")
        let second = JobOutputs(finalDirectory: final, attempt: 2)
        try second.prepare()
        try write("new", "poses.json", in: second.stagingDirectory)
        try second.commit(jobID: "a", specDigest: "d2")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: final.path).sorted(), ["job-manifest.json", "poses.json"])
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: final.deletingLastPathComponent().path), ["output"])
    }

    func testFoldersThatNoJobOrAnotherJobWroteAreNotReplaced() throws {
        let base = try BatchFixtures.temporaryDirectory(self)
        let final = base.appendingPathComponent("home")
        try write("precious", "notes.txt", in: final)
        let outputs = JobOutputs(finalDirectory: final, attempt: 1)
        try outputs.prepare()
        XCTAssertThrowsError(try outputs.commit(jobID: "a", specDigest: "d")) {
            XCTAssertTrue("\($0)".contains("no batch job wrote"), "\($0)")
        }
        XCTAssertEqual(try String(contentsOf: final.appendingPathComponent("notes.txt"), encoding: .utf8), "precious")

        let shared = base.appendingPathComponent("shared")
        let other = JobOutputs(finalDirectory: shared, attempt: 1)
        try other.prepare()
        try other.commit(jobID: "other", specDigest: "d")
        XCTAssertNotNil(JobOutputs.problemReplacing(shared, jobID: "a"))
        XCTAssertNil(JobOutputs.problemReplacing(shared, jobID: "other"))
    }

    func testTheManifestTellsATruncatedFile() throws {
        let final = try BatchFixtures.temporaryDirectory(self).appendingPathComponent("output")
        let outputs = JobOutputs(finalDirectory: final, attempt: 1)
        try outputs.prepare()
        try write("0123456789", "points.ply", in: outputs.stagingDirectory)
        let manifest = try outputs.commit(jobID: "a", specDigest: "d")
        try Data("01234".utf8).write(to: final.appendingPathComponent("points.ply"))
        XCTAssertEqual(manifest.mismatch(in: final), "points.ply has 5 bytes, the manifest says 10")
        XCTAssertNil(JobOutputs.committed(at: final, jobID: "a", specDigest: "d", enqueuedAt: 0))
    }
}
