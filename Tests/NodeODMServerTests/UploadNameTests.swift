import NodeODMServer
import XCTest

final class UploadNameTests: XCTestCase {
    func testPhotoNamesAreKeptAndOddCharactersReplaced() throws {
        XCTAssertEqual(try UploadName.sanitize("IMG_0001.JPG"), "IMG_0001.JPG")
        XCTAssertEqual(try UploadName.sanitize("photo (2).heic"), "photo (2).heic")
        XCTAssertEqual(try UploadName.sanitize("café*?.jpg"), "caf___.jpg")
        XCTAssertEqual(try UploadName.sanitize("k.TXT"), "K.txt")
    }

    func testSidecarsAreAcceptedButAreNotPhotos() throws {
        XCTAssertEqual(try UploadName.sanitize("0001_depth.png"), "0001_depth.png")
        XCTAssertTrue(UploadName.isPhoto("0001.jpg"))
        XCTAssertFalse(UploadName.isPhoto("0001_depth.png"))
        XCTAssertFalse(UploadName.isPhoto("0001_mask.png"))
        XCTAssertFalse(UploadName.isPhoto("K.txt"))
    }

    func testPathsHiddenNamesAndNonPhotosAreRefused() {
        for name in ["../etc/passwd.jpg", "..\\x.jpg", "a/b.jpg", "/abs.jpg", "..", ".hidden.jpg", "", "a\u{0}.jpg",
                     "x..jpg", "script.sh", "noextension", "model.usdz"] {
            XCTAssertThrowsError(try UploadName.sanitize(name), name) { error in
                XCTAssertEqual((error as? NodeODMError)?.statusCode, 403, name)
            }
        }
    }
}
