import Foundation
import ReconstructionCore
import XCTest

final class FileReadFailureTests: XCTestCase {
    func testAFolderAMissingFileAndAnUnreadableOneAreNamedForWhatTheyAre() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("read-failure-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        XCTAssertThrowsError(try Data(contentsOf: folder)) { XCTAssertEqual(FileReadFailure.reason(folder, $0), "it is a folder, not a file") }
        let missing = folder.appendingPathComponent("missing.json")
        XCTAssertThrowsError(try Data(contentsOf: missing)) { XCTAssertEqual(FileReadFailure.reason(missing, $0), "it does not exist") }
        let locked = folder.appendingPathComponent("locked.json")
        try Data("{}".utf8).write(to: locked)
        try FileManager.default.setAttributes([.posixPermissions: 0], ofItemAtPath: locked.path)
        if FileManager.default.isReadableFile(atPath: locked.path) { return }  // root reads everything
        XCTAssertThrowsError(try Data(contentsOf: locked)) { XCTAssertEqual(FileReadFailure.reason(locked, $0), "permission denied") }
    }
}
