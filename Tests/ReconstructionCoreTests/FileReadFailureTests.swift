import Foundation
import ReconstructionCore
import XCTest

final class FileReadFailureTests: XCTestCase {
    var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("read-failure-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder.path)
        try? FileManager.default.removeItem(at: folder)
    }

    func testAFolderAndAMissingFileAreNamedForWhatTheyAre() throws {
        XCTAssertThrowsError(try Data(contentsOf: folder)) { XCTAssertEqual(FileReadFailure.reason(self.folder, $0), "it is a folder, not a file") }
        let missing = folder.appendingPathComponent("missing.json")
        XCTAssertThrowsError(try Data(contentsOf: missing)) { XCTAssertEqual(FileReadFailure.reason(missing, $0), "it does not exist") }
    }

    func testAnUnreadableFileIsPermissionDenied() throws {
        let locked = folder.appendingPathComponent("locked.json")
        try Data("{}".utf8).write(to: locked)
        try FileManager.default.setAttributes([.posixPermissions: 0], ofItemAtPath: locked.path)
        guard !FileManager.default.isReadableFile(atPath: locked.path) else { throw XCTSkip("running as root, which reads every file") }
        XCTAssertThrowsError(try Data(contentsOf: locked)) { XCTAssertEqual(FileReadFailure.reason(locked, $0), "permission denied") }
    }
}
