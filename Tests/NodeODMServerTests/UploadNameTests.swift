import NodeODMServer
import XCTest

final class UploadNameTests: XCTestCase {
    /// Names are kept as sent: replacing characters made 写真1.jpg and 画像1.jpg both `__1.jpg`,
    /// and the second replaced the first.
    func testPhotoNamesAreKeptAsSentInOneUnicodeSpelling() throws {
        XCTAssertEqual(try UploadName.sanitize("IMG_0001.JPG"), "IMG_0001.JPG")
        XCTAssertEqual(try UploadName.sanitize("photo (2).heic"), "photo (2).heic")
        XCTAssertEqual(try UploadName.sanitize("café*?.jpg"), "café*?.jpg")
        let names = ["写真1.jpg", "画像1.jpg", "photo é.jpg", "photo è.jpg", "a#1.jpg", "a&1.jpg"]
        XCTAssertEqual(Set(try names.map(UploadName.sanitize)).count, names.count)
        XCTAssertEqual(try UploadName.sanitize("cafe\u{301}.jpg"), "caf\u{E9}.jpg")
        XCTAssertThrowsError(try UploadName.sanitize(String(repeating: "é", count: 119) + ".jpg"), "stored as N-name, within 255 bytes")
        XCTAssertEqual(try UploadName.sanitize("k.TXT"), "K.txt")
    }

    func testSidecarsAreAcceptedButAreNotPhotos() throws {
        XCTAssertEqual(try UploadName.sanitize("0001_depth.png"), "0001_depth.png")
        XCTAssertTrue(UploadName.isPhoto("0001.jpg"))
        XCTAssertFalse(UploadName.isPhoto("0001_depth.png"))
        XCTAssertFalse(UploadName.isPhoto("0001_mask.png"))
        XCTAssertFalse(UploadName.isPhoto("K.txt"))
        XCTAssertEqual(try UploadName.sanitize("0001_gravity.txt"), "0001_gravity.txt")
        XCTAssertEqual(try UploadName.sanitize("0002_gravity.TXT"), "0002_gravity.txt", "the name the folder reader looks for")
        XCTAssertFalse(UploadName.isPhoto("0001_gravity.txt"))
        XCTAssertEqual(try UploadName.sanitize("Tracked_Poses.JSON"), "tracked_poses.json")
        XCTAssertFalse(UploadName.isPhoto("tracked_poses.json"))
    }

    func testPathsHiddenNamesAndNonPhotosAreRefused() {
        for name in ["../etc/passwd.jpg", "..\\x.jpg", "a/b.jpg", "/abs.jpg", "..", ".hidden.jpg", "", "a\u{0}.jpg",
                     "x..jpg", "script.sh", "noextension", "model.usdz", "notes.txt", "poses.json", "_gravity.jpg.sh"] {
            XCTAssertThrowsError(try UploadName.sanitize(name), name) { error in
                XCTAssertEqual((error as? NodeODMError)?.statusCode, 403, name)
            }
        }
    }
}
