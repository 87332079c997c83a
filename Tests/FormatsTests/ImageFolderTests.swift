import CaptureIO
import Foundation
import XCTest

final class ImageFolderTests: XCTestCase {
    private func touch(_ directory: URL, _ name: String) throws {
        try Data([0xFF, 0xD8]).write(to: directory.appendingPathComponent(name))
    }

    func testListsOnlyVisibleImageFilesSortedByName() throws {
        let directory = try makeTemporaryDirectory(self)
        for name in ["z.heic", "b.png", "a.JPG", "m.TIFF", "notes.txt", ".hidden.jpg", "noextension", "w.webp", "p.jfif", "q.JPE"] {
            try touch(directory, name)
        }
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("folder.jpg"),
                                                withIntermediateDirectories: false)
        try touch(directory.appendingPathComponent("folder.jpg"), "inner.jpg")

        let names = try ImageFolder.listImages(in: directory).map(\.lastPathComponent)

        XCTAssertEqual(names, ["a.JPG", "b.png", "m.TIFF", "p.jfif", "q.JPE", "w.webp", "z.heic"])
    }

    func testSkipsObjectCaptureSidecarsButKeepsLookalikeNames() throws {
        let directory = try makeTemporaryDirectory(self)
        for name in ["0001.jpg", "0001_depth.png", "0001_depthConfidence.png", "0001_mask.png", "0001_Matte.PNG",
                     "depth.jpg", "mask_0002.jpg"] {
            try touch(directory, name)
        }
        XCTAssertEqual(try ImageFolder.listImages(in: directory).map(\.lastPathComponent), ["0001.jpg", "depth.jpg", "mask_0002.jpg"])
        XCTAssertTrue(ImageFolder.isSidecar("IMG_0001_depth.TIF"))
        XCTAssertFalse(ImageFolder.isSidecar("IMG_0001.HEIC"))
    }

    func testFollowsSymbolicLinksToImageFiles() throws {
        let directory = try makeTemporaryDirectory(self)
        try touch(directory, "a.jpg")
        try FileManager.default.createSymbolicLink(at: directory.appendingPathComponent("link.jpg"),
                                                   withDestinationURL: directory.appendingPathComponent("a.jpg"))
        XCTAssertEqual(try ImageFolder.listImages(in: directory).map(\.lastPathComponent), ["a.jpg", "link.jpg"])
    }

    func testListsABrokenSymbolicLinkSoThatReadingItReportsTheProblem() throws {
        let directory = try makeTemporaryDirectory(self)
        try touch(directory, "a.jpg")
        let link = directory.appendingPathComponent("gone.jpg")
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: "/no-such-folder-for-tests/photo.jpg")
        XCTAssertEqual(try ImageFolder.listImages(in: directory).map(\.lastPathComponent), ["a.jpg", "gone.jpg"])
        XCTAssertTrue(ImageFolder.isBrokenSymbolicLink(link))
        XCTAssertFalse(ImageFolder.isBrokenSymbolicLink(directory.appendingPathComponent("a.jpg")))
    }

    func testReturnedURLsPointIntoTheDirectory() throws {
        let directory = try makeTemporaryDirectory(self)
        try touch(directory, "a.jpeg")
        let urls = try ImageFolder.listImages(in: directory)
        XCTAssertEqual(urls.count, 1)
        XCTAssertTrue(FileManager.default.fileExists(atPath: urls[0].path))
    }

    func testEmptyDirectoryGivesNoImages() throws {
        XCTAssertEqual(try ImageFolder.listImages(in: try makeTemporaryDirectory(self)), [])
    }

    func testMissingDirectoryThrowsErrorNamingIt() throws {
        let missing = try makeTemporaryDirectory(self).appendingPathComponent("does-not-exist")
        XCTAssertThrowsError(try ImageFolder.listImages(in: missing)) { error in
            let text = String(describing: error)
            XCTAssertTrue(text.contains("does-not-exist"), text)
            XCTAssertTrue(text.contains("does not exist"), text)
        }
    }

    func testRegularFileInsteadOfDirectoryThrows() throws {
        let directory = try makeTemporaryDirectory(self)
        try touch(directory, "a.jpg")
        XCTAssertThrowsError(try ImageFolder.listImages(in: directory.appendingPathComponent("a.jpg"))) { error in
            XCTAssertTrue(String(describing: error).contains("not a directory"), "\(error)")
        }
    }

    func testImageExtensionsAreLowerCaseWithoutDots() {
        XCTAssertEqual(ImageFolder.imageExtensions,
                       ["jpg", "jpeg", "jpe", "jfif", "png", "tif", "tiff", "webp", "bmp", "heic", "heif"])
    }
}
