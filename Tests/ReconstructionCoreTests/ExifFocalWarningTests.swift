import ReconstructionCore
import XCTest

/// Most photos with an EXIF focal length left unregistered: the warning says what to do.
final class ExifFocalWarningTests: XCTestCase {
    private func scene(_ photos: [(IntrinsicsSource, registered: Bool)]) -> SparseScene {
        let k = CameraIntrinsics(width: 64, height: 48, fx: 60, fy: 60, cx: 32, cy: 24)
        return SparseScene(images: photos.enumerated().map { i, photo in
            SparseScene.Image(name: "\(i).jpg", intrinsics: k, intrinsicsSource: photo.0,
                              cameraFromWorld: photo.registered ? RigidTransform(rotation: .identity, translation: .zero) : nil,
                              unregisteredReason: photo.registered ? nil : "too few inliers", keypoints: [], pointIndexOfKeypoint: [])
        }, points: [])
    }

    func testMostExifPhotosUnregisteredIsAWarning() throws {
        let warning = try XCTUnwrap(scene([(.exif, true), (.exif, true)] + Array(repeating: (.exif, false), count: 9)).exifFocalWarning)
        XCTAssertTrue(warning.hasPrefix("only 2 of the 11 photos whose focal length came from EXIF registered"), warning)
        XCTAssertTrue(warning.contains("--intrinsics"), warning)
        XCTAssertNil(scene(Array(repeating: (.exif, true), count: 6) + Array(repeating: (.exif, false), count: 5)).exifFocalWarning)
        XCTAssertNil(scene([(.exif, false), (.exif, false)]).exifFocalWarning, "two photos say too little")
        XCTAssertNil(scene(Array(repeating: (.defaultGuess, false), count: 9) + [(.defaultGuess, true)]).exifFocalWarning)
        XCTAssertNil(scene(Array(repeating: (.given, false), count: 9)).exifFocalWarning)
        // Photos registered in a separate model (another scene) do not count against the EXIF.
        var separate = scene(Array(repeating: (.exif, true), count: 4) + Array(repeating: (.exif, false), count: 7))
        for i in 4..<11 { separate.images[i].unregisteredReason = SparseScene.separateModelReasonStart + "1 (7 images): no verified pair" }
        XCTAssertNil(separate.exifFocalWarning)
    }

    func testTwoSelfCalibratedPhotosAreAWarning() throws {
        let warning = try XCTUnwrap(scene([(.defaultGuess, true), (.defaultGuess, true), (.defaultGuess, false)]).twoPhotoSelfCalibrationWarning)
        XCTAssertTrue(warning.hasPrefix("the focal length was self-calibrated from only 2 photos"), warning)
        XCTAssertTrue(warning.contains("(fx 60.0 px: take it as a guess; lens distortion held at k1 0)"), warning)
        // The values are the self-calibrated photo's, not a given one's.
        var mixed = scene([(.given, true), (.defaultGuess, true)])
        mixed.images[1].intrinsics.fx = 75
        XCTAssertTrue(mixed.twoPhotoSelfCalibrationWarning?.contains("fx 75.0 px") == true, mixed.twoPhotoSelfCalibrationWarning ?? "nil")
        XCTAssertNil(scene(Array(repeating: (.defaultGuess, true), count: 3)).twoPhotoSelfCalibrationWarning, "three photos determine it")
        XCTAssertNil(scene([(.given, true), (.given, true)]).twoPhotoSelfCalibrationWarning, "a given focal length is not calibrated")
        XCTAssertNil(scene([(.exif, true), (.exif, true)]).twoPhotoSelfCalibrationWarning)
    }

    /// Photos of one size found to have two focal lengths (two cameras or zoom settings) are named
    /// by focal length; one camera's photos, or sets under 3 photos, are not.
    func testSelfCalibratedPhotosOfTwoFocalLengthsAreNoted() throws {
        var two = scene(Array(repeating: (.defaultGuess, true), count: 7))
        for i in 4..<7 { two.images[i].intrinsics.fx = 80 }
        let note = try XCTUnwrap(two.separateFocalLengthsNote)
        XCTAssertEqual(note, "the 7 self-calibrated photos of 64×48 were taken at 2 focal lengths (two cameras or zoom "
                       + "settings?): 60 px (0.jpg, 1.jpg, 2.jpg, 3.jpg); 80 px (4.jpg, 5.jpg, 6.jpg); each set was self-calibrated as a camera of its own")
        XCTAssertNil(scene(Array(repeating: (.defaultGuess, true), count: 7)).separateFocalLengthsNote)
        var close = two
        for i in 4..<7 { close.images[i].intrinsics.fx = 62 }
        XCTAssertNil(close.separateFocalLengthsNote, "focal lengths 3 % apart are one camera's")
        var few = two
        few.images[6].intrinsics.fx = 60
        few.images[5].intrinsics.fx = 60
        XCTAssertNil(few.separateFocalLengthsNote, "one photo apart is no set")
    }
}
