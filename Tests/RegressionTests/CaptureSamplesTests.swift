import CaptureIO
import Foundation
import PhotogrammetryKit
import Reconstruction
import ReconstructionCore
import TestSupport
import XCTest

final class CaptureSamplesTests: XCTestCase {
    var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("capture-samples-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    func write(_ data: Data, _ name: String) throws {
        try data.write(to: folder.appendingPathComponent(name))
    }

    static func noise(width: Int = 96, height: Int = 64, seed: UInt64) -> RGBImage {
        var generator = SeededGenerator(seed: seed)
        return RGBImage(width: width, height: height, pixels: (0..<(width * height * 3)).map { _ in UInt8.random(in: 0...255, using: &generator) })
    }

    /// Runs a poses request and returns the session's invalidSample reasons by sample name.
    func invalidSamples(_ samples: [PhotogrammetrySample]) async throws -> [String: String] {
        let session = try PhotogrammetrySession(input: samples)
        try session.process(requests: [.poses])
        var reasons: [String: String] = [:]
        for await output in session.outputs {
            if case .invalidSample(let id, let reason) = output { reasons[samples[id].name] = reason }
            if case .processingComplete = output { break }
        }
        return reasons
    }

    func testAFolderBecomesSamplesInNameOrderWithMaskSidecarsAndGivenIntrinsics() throws {
        let photo = try ImageCodec.encode(RGBImage(width: 8, height: 6, fill: (10, 20, 30)))
        try write(photo, "b.png")
        try write(photo, "a.png")
        try write(ImageCodec.encode(GrayImage(width: 4, height: 3, fill: 255)), "b_mask.png")
        let k = PinholeIntrinsics(fx: 100, fy: 101, cx: 4, cy: 3)

        let samples = try CaptureSamples.load(imagesDirectory: folder, given: k)
        XCTAssertEqual(samples.map(\.id), [0, 1])
        XCTAssertEqual(samples.map(\.name), ["a.png", "b.png"])
        XCTAssertNil(samples[0].objectMask)
        XCTAssertEqual(samples[1].objectMask?.width, 4)
        XCTAssertEqual(samples[1].intrinsics, .given(fx: 100, fy: 101, cx: 4, cy: 3))
        XCTAssertEqual(samples[1].url, folder.appendingPathComponent("b.png"))
        XCTAssertNil(samples[1].rejection)

        let session = try PhotogrammetrySession(input: folder, intrinsics: k)
        XCTAssertEqual(session.samples.map(\.name), ["a.png", "b.png"])
    }

    func testAGivenKIsCheckedAgainstEachPhotoSize() throws {
        let landscape = try ImageCodec.encode(Self.noise(width: 96, height: 64, seed: 1))
        try write(landscape, "a.png")
        try write(landscape, "b.png")
        try write(ImageCodec.encode(Self.noise(width: 64, height: 96, seed: 2)), "c.png")

        // Made for the landscape photos: the one stored turned is left out, saying why (with it,
        // a portrait photo among fountain-P11's landscapes registered 1.2 m and 13° off).
        let fitting = try CaptureSamples.read(imagesDirectory: folder, given: PinholeIntrinsics(fx: 80, fy: 80, cx: 47.5, cy: 31.5))
        XCTAssertEqual(fitting.samples.map { $0.rejection == nil }, [true, true, false])
        let turned = try XCTUnwrap(fitting.samples[2].rejection)
        XCTAssertTrue(turned.contains("does not fit this 64×96 photo") && turned.contains("fits the photo turned by 90°"), turned)
        XCTAssertEqual(fitting.warnings, [])

        // Made for photos twice as large (or kept for photos cropped from the top-left corner, which
        // looks the same): one warning for the two of one size, with the scale.
        let doubled = try CaptureSamples.read(imagesDirectory: folder, given: PinholeIntrinsics(fx: 160, fy: 160, cx: 95, cy: 63))
        XCTAssertEqual(doubled.samples.prefix(2).compactMap(\.rejection), [])
        XCTAssertTrue(doubled.warnings.contains { $0.contains("2 photos of 96×64 (a.png, b.png)") && $0.contains("multiply fx, fy, cx and cy by 0.5") },
                      "\(doubled.warnings)")

        // Far from the centre for no reason a turn or a scale explains: one warning for the photos of that size.
        let offCentre = try CaptureSamples.read(imagesDirectory: folder, given: PinholeIntrinsics(fx: 80, fy: 80, cx: 60, cy: 32))
        XCTAssertEqual(offCentre.samples.prefix(2).compactMap(\.rejection), [])
        XCTAssertTrue(offCentre.warnings.contains { $0.contains("2 photos of 96×64 (a.png, b.png)") && $0.contains("will be wrong") },
                      "\(offCentre.warnings)")

        // A principal point outside every photo rejects each, naming the problem.
        let outside = try CaptureSamples.read(imagesDirectory: folder, given: PinholeIntrinsics(fx: 80, fy: 80, cx: 500, cy: 500))
        XCTAssertEqual(outside.samples.filter { $0.rejection?.contains("principal point (500.0, 500.0) lies outside it") == true }.count, 3)

        // A photo of another size among photos K fits (resized since) is left out: with K it
        // registers metres off. Its size against theirs is named.
        try write(ImageCodec.encode(Self.noise(width: 192, height: 128, seed: 4)), "d.png")
        let mixed = try CaptureSamples.read(imagesDirectory: folder, given: PinholeIntrinsics(fx: 80, fy: 80, cx: 47.5, cy: 31.5))
        XCTAssertEqual(mixed.samples.map { $0.rejection == nil }, [true, true, false, false])
        let resized = try XCTUnwrap(mixed.samples[3].rejection)
        XCTAssertTrue(resized.contains("K is for the other photos, of 96×64, and this one is 2× their size (resized?): its pose would be wrong, so it is left out"), resized)
        try FileManager.default.removeItem(at: folder.appendingPathComponent("d.png"))

        // The pose stage's inputs (reconstruct's) get the same checks.
        let sources = try CaptureSources.read(imagesDirectory: folder, given: PinholeIntrinsics(fx: 80, fy: 80, cx: 500, cy: 500)).sources
        XCTAssertEqual(sources.compactMap(\.rejection).count, 3)
        XCTAssertEqual(try CaptureSources.read(imagesDirectory: folder, given: PinholeIntrinsics(fx: 80, fy: 80, cx: 60, cy: 32)).warnings,
                       offCentre.warnings)
    }

    func testTheFolderSessionDeliversTheReadersWarningsFirstAndNamesAFolderWithoutPhotos() async throws {
        let landscape = try ImageCodec.encode(Self.noise(width: 96, height: 64, seed: 1))
        try write(landscape, "a.png")
        try write(landscape, "b.png")
        let session = try PhotogrammetrySession(input: folder, intrinsics: PinholeIntrinsics(fx: 80, fy: 80, cx: 60, cy: 32))
        XCTAssertEqual(session.inputWarnings.count, 1, "\(session.inputWarnings)")
        var iterator = session.outputs.makeAsyncIterator()
        guard case .inputWarning(let warning) = await iterator.next() else { return XCTFail("the first message is not the warning") }
        XCTAssertTrue(warning.contains("is far from their centre"), warning)

        let empty = folder.appendingPathComponent("empty")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        XCTAssertThrowsError(try PhotogrammetrySession(input: empty)) { error in
            XCTAssertEqual("\(error)", "\(empty.path): has no photos (JPEG, PNG, TIFF, WebP, BMP or HEIC/HEIF directly inside it)")
        }
    }

    func testModelRequestsTheFolderStagesCannotHonourAreRefusedByProcess() throws {
        let photo = try ImageCodec.encode(Self.noise(seed: 4))
        try write(photo, "a.png")
        try write(photo, "b.png")
        let model = folder.appendingPathComponent("model.glb")

        // A custom detail set field by field is checked as the checking initialiser checks it.
        for (change, expected) in [({ (c: inout CustomDetailSpecification) in c.maximumPolygonCount = 10 }, "below 100"),
                                   ({ $0.textureFormat = .jpeg(compressionQuality: 5) }, "JPEG quality 5.0 must be between 0 and 1"),
                                   ({ $0.outputTextureMaps = [] }, "at least one texture map")] {
            var configuration = PhotogrammetrySession.Configuration()
            change(&configuration.customDetailSpecification)
            let session = try PhotogrammetrySession(input: folder, configuration: configuration)
            XCTAssertThrowsError(try session.process(requests: [.poses, .modelFile(url: model, detail: .custom)])) { error in
                XCTAssertTrue("\(error)".contains(expected), "\(error)")
            }
            XCTAssertFalse(session.isProcessing)
            XCTAssertNoThrow(try session.process(requests: [.modelFile(url: model, detail: .preview)]), "other levels ignore it")
            session.cancel()
        }

        // Samples given as pixels have no folder for the dense stage: refused before any work.
        let pixels = try [0, 1].map { PhotogrammetrySample(id: $0, image: .pixels(try ImageCodec.decodeRGB(photo)), name: "p\($0)") }
        let session = try PhotogrammetrySession(input: pixels, modelStages: FolderModelStages())
        XCTAssertThrowsError(try session.process(requests: [.modelFile(url: model, detail: .preview)])) { error in
            XCTAssertTrue("\(error)".contains("need every sample to be a photo file in one folder"), "\(error)")
        }
        XCTAssertFalse(session.isProcessing)
    }

    func testPhotosTaggedToBeShownTurnedAreNamedInAWarning() throws {
        let jpeg = try ImageCodec.encode(Self.noise(seed: 3), as: .jpeg(quality: 90))
        try write(ExifFixture.withOrientation(6, jpeg), "turned.jpg")
        try write(ExifFixture.withOrientation(1, jpeg), "upright.jpg")
        try write(jpeg, "plain.jpg")
        let read = try CaptureSamples.read(imagesDirectory: folder)
        XCTAssertEqual(read.samples.count, 3)
        XCTAssertEqual(read.warnings.count, 1, "\(read.warnings)")
        XCTAssertTrue(read.warnings[0].hasPrefix("1 photo (turned.jpg) is tagged in EXIF to be shown turned"), read.warnings[0])
    }

    /// A focal length in millimetres with nothing to turn it into pixels is noted (the photos are
    /// self-calibrated); with a known K it does not matter, and the note is not given.
    func testAFocalLengthInMillimetresAloneIsNoted() throws {
        let jpeg = try ImageCodec.encode(Self.noise(seed: 3), as: .jpeg(quality: 90))
        try write(ExifFixture.withFocalLengthOnly(millimetres: 20.39, jpeg), "a.jpg")
        try write(ExifFixture.withFocalLengthOnly(millimetres: 20.39, jpeg), "b.jpg")
        try write(ExifFixture.withFocalPlane(focalMillimetres: 20, pixelsPerMillimetre: 100, cameraWidth: 96, cameraHeight: 64, jpeg), "c.jpg")
        let read = try CaptureSamples.read(imagesDirectory: folder)
        XCTAssertEqual(read.samples.map(\.intrinsics), [.unknown, .unknown, .focalLengthAtCameraSize(pixels: 2000, cameraWidth: 96, cameraHeight: 64)])
        XCTAssertTrue(read.notes.contains { $0.hasPrefix("2 photos (e.g. a.jpg: 20.39 mm) give a focal length in millimetres but not what turns it into pixels") },
                      "\(read.notes)")
        let given = try CaptureSamples.read(imagesDirectory: folder, given: PinholeIntrinsics(fx: 100, fy: 100, cx: 48, cy: 32))
        XCTAssertFalse(given.notes.contains { $0.contains("millimetres") }, "\(given.notes)")
    }

    /// An EXIF focal length no lens has (a 35 mm equivalent of 65535 mm, the placeholder some
    /// software writes; 1 mm) is not used: such a photo had registered 10 m off without a word.
    /// It is named in a warning; a plausible one is used.
    func testAnEXIFFocalLengthNoLensHasIsNotUsedAndNamed() throws {
        let jpeg = try ImageCodec.encode(Self.noise(seed: 3), as: .jpeg(quality: 90))
        try write(ExifFixture.with35mmEquivalent(28, jpeg), "a.jpg")
        try write(ExifFixture.with35mmEquivalent(65535, jpeg), "b.jpg")
        try write(ExifFixture.with35mmEquivalent(1, jpeg), "c.jpg")
        let read = try CaptureSamples.read(imagesDirectory: folder)
        XCTAssertEqual(read.samples.map(\.intrinsics), [.focalLength35mmEquivalent(millimetres: 28), .unknown, .unknown])
        XCTAssertTrue(read.warnings.contains { $0.hasPrefix("2 photos (b.jpg, c.jpg) give an EXIF focal length no lens has (e.g. b.jpg: a 35 mm equivalent of 65535 mm; ") },
                      "\(read.warnings)")
        let given = try CaptureSamples.read(imagesDirectory: folder, given: PinholeIntrinsics(fx: 100, fy: 100, cx: 48, cy: 32))
        XCTAssertFalse(given.warnings.contains { $0.contains("no lens has") }, "with K given, EXIF does not matter: \(given.warnings)")
    }

    /// A photo stored mirrored (a front camera's, tagged 2, 4, 5 or 7) has no camera pose: it is
    /// rejected, named, with what to do; photos only turned stay in, with the warning.
    func testPhotosStoredMirroredAreRejectedWithTheReason() throws {
        let jpeg = try ImageCodec.encode(Self.noise(seed: 4), as: .jpeg(quality: 90))
        for (orientation, name) in [(UInt8(2), "selfie.jpg"), (7, "selfie-turned.jpg"), (8, "turned.jpg"), (1, "upright.jpg")] {
            try write(ExifFixture.withOrientation(orientation, jpeg), name)
        }
        let read = try CaptureSamples.read(imagesDirectory: folder)
        let rejections = Dictionary(uniqueKeysWithValues: read.samples.map { ($0.name, $0.rejection) })
        XCTAssertEqual(rejections.count, 4)
        XCTAssertTrue(rejections["selfie.jpg"]??.contains("EXIF orientation (2) asks for it to be shown mirrored") == true, "\(rejections)")
        XCTAssertTrue(rejections["selfie-turned.jpg"]??.contains("EXIF orientation (7) asks for it to be shown mirrored") == true, "\(rejections)")
        XCTAssertNil(rejections["turned.jpg"] ?? nil)
        XCTAssertNil(rejections["upright.jpg"] ?? nil)
        XCTAssertEqual(read.warnings.count, 1, "\(read.warnings)")
        XCTAssertTrue(read.warnings[0].hasPrefix("1 photo (turned.jpg) is tagged in EXIF to be shown turned"), read.warnings[0])
        // The pose stage's reader (reconstruct's) rejects them too.
        let sources = try CaptureSources.read(imagesDirectory: folder, given: nil).sources
        XCTAssertEqual(sources.filter { $0.rejection != nil }.map(\.name).sorted(), ["selfie-turned.jpg", "selfie.jpg"])
    }

    /// A photo scaled down after it was taken often keeps its camera's EXIF, image size included:
    /// a focal length from the focal-plane resolution is for the camera's size and is scaled to the
    /// decoded photo's (taken as it was, it was 3× too long here, and the poses of three such
    /// photos wrong).
    func testAFocalLengthFromTheFocalPlaneFollowsThePhotosOwnSize() throws {
        let jpeg = try ImageCodec.encode(Self.noise(width: 128, height: 85, seed: 5), as: .jpeg(quality: 90))
        try write(ExifFixture.withFocalPlane(focalMillimetres: 32.34, pixelsPerMillimetre: 85.33, cameraWidth: 3072,
                                             cameraHeight: 2048, jpeg), "scaled.jpg")
        let read = try CaptureSamples.read(imagesDirectory: folder)
        let sources = try CaptureSources.load(imagesDirectory: folder, given: nil)
        for prior in [read.samples.first?.intrinsics, sources.first?.prior] {
            let unwrapped = try XCTUnwrap(prior)
            XCTAssertEqual(unwrapped, .focalLengthAtCameraSize(pixels: 32.34 * 85.33, cameraWidth: 3072, cameraHeight: 2048))
            let (k, source) = unwrapped.intrinsics(width: 128, height: 85)
            XCTAssertEqual(k.fx, 32.34 * 85.33 * 128 / 3072, accuracy: 1e-6)
            XCTAssertEqual(k.cx, 64)
            XCTAssertEqual(source, .exif)
        }
        // Without the camera's size the focal-plane value has nothing to be scaled from: unused.
        XCTAssertEqual(CaptureSources.prior(exif: ExifCameraInfo(focalLengthMillimetres: 32.34, focalPlaneXResolution: 85.33,
                                                                 focalPlaneResolutionUnit: 4), given: nil), .unknown)
    }

    /// A Latin-1 file name cannot be opened through a Swift string: the photo is named in a warning
    /// instead of vanishing.
    func testAPhotoWhoseNameIsNotUTF8IsNamedInAWarning() throws {
        let jpeg = try ImageCodec.encode(Self.noise(seed: 4), as: .jpeg(quality: 90))
        try write(jpeg, "plain.jpg")
        let path = Array(folder.path.utf8) + Array("/K".utf8) + [0xE4] + Array("se.jpg".utf8) + [0]  // "Käse.jpg" in Latin-1
        let descriptor = path.withUnsafeBufferPointer { bytes in
            bytes.baseAddress!.withMemoryRebound(to: CChar.self, capacity: bytes.count) { open($0, O_CREAT | O_WRONLY, 0o644) }
        }
        XCTAssertGreaterThanOrEqual(descriptor, 0)
        _ = jpeg.withUnsafeBytes { Foundation.write(descriptor, $0.baseAddress, $0.count) }
        close(descriptor)

        for warnings in [try CaptureSamples.read(imagesDirectory: folder).warnings, try CaptureSources.read(imagesDirectory: folder, given: nil).warnings] {
            XCTAssertEqual(warnings.count, 1, "\(warnings)")
            XCTAssertTrue(warnings.first?.hasPrefix("1 photo in \(folder.path) (K\u{FFFD}se.jpg, invalid bytes shown as \u{FFFD}) has a name that is not valid UTF-8") == true,
                          "\(warnings)")
        }
        XCTAssertEqual(try CaptureSamples.load(imagesDirectory: folder).map(\.name), ["plain.jpg"])
    }

    func testAMatteIsAnObjectMaskAtHalfLevelAndIntersectsAMask() throws {
        try write(ImageCodec.encode(Self.noise(seed: 1)), "a.png")
        try write(ImageCodec.encode(Self.noise(seed: 2)), "b.png")
        // A half-size matte with a soft edge, ramping from 0 to 255 over columns 20…27: object from level 128 on.
        let ramp = GrayImage(width: 48, height: 32, pixels: (0..<(48 * 32)).map { (i: Int) -> UInt8 in
            let level: Int = (i % 48 - 20) * 255 / 7
            return UInt8(min(255, max(0, level)))
        })
        try write(ImageCodec.encode(ramp), "a_matte.png")
        try write(ImageCodec.encode(ramp), "b_matte.png")
        var top = GrayImage(width: 48, height: 32, fill: 0)
        for i in 0..<(48 * 16) { top.pixels[i] = 255 }
        try write(ImageCodec.encode(top), "b_mask.png")

        let samples = try CaptureSamples.load(imagesDirectory: folder)
        XCTAssertEqual(samples.map(\.name), ["a.png", "b.png"], "mattes are sidecars, not photos")
        let matte = try XCTUnwrap(samples[0].objectMask)
        XCTAssertEqual([matte.width, matte.height], [48, 32])
        let firstRow = Array(matte.pixels.prefix(48))
        XCTAssertEqual(firstRow.firstIndex(of: 255), ramp.pixels.prefix(48).firstIndex { $0 >= 128 })
        XCTAssertTrue(Set(matte.pixels).isSubset(of: [0, 255]))
        let both = try XCTUnwrap(samples[1].objectMask)
        XCTAssertEqual(both.pixels[10 * 48 + 40], 255, "object in mask and matte")
        XCTAssertEqual(both.pixels[20 * 48 + 40], 0, "outside the mask")
        XCTAssertEqual(both.pixels[10 * 48 + 2], 0, "outside the matte")
    }

    func testJPEGMasksLoseTheirNoiseLabelMasksKeepTheirObjectAndPhotosNamedAsMasksAreRefused() throws {
        // A 0/255 mask saved as JPEG: compression leaves faint non-zero levels around the object.
        var disc = GrayImage(width: 96, height: 64, fill: 0)
        for y in 0..<64 { for x in 0..<96 where (x - 48) * (x - 48) + (y - 32) * (y - 32) < 400 { disc.pixels[y * 96 + x] = 255 } }
        let jpeg = try ImageCodec.encode(disc, as: .jpeg(quality: 60))
        let decoded = try ImageCodec.decodeGray(jpeg)
        let faint = decoded.pixels.indices.filter { decoded.pixels[$0] > 0 && decoded.pixels[$0] < 32 && disc.pixels[$0] == 0 }
        XCTAssertFalse(faint.isEmpty, "the fixture has JPEG noise near 0 outside the disc")
        try write(ImageCodec.encode(Self.noise(seed: 1)), "a.png")
        try write(jpeg, "a_mask.jpg")
        // A label image: 0 background, 1 object.
        try write(ImageCodec.encode(Self.noise(seed: 2)), "b.png")
        try write(ImageCodec.encode(GrayImage(width: 96, height: 64, pixels: disc.pixels.map { $0 == 0 ? 0 : 1 })), "b_mask.png")
        // Instance ids 1 and 2 (two objects), and a JPEG of an empty mask (noise only).
        try write(ImageCodec.encode(Self.noise(seed: 7)), "e.png")
        try write(ImageCodec.encode(GrayImage(width: 96, height: 64, pixels: disc.pixels.indices.map { i in
            disc.pixels[i] == 0 ? 0 : (i % 96 < 48 ? 1 : 2)
        })), "e_mask.png")
        var speckled = GrayImage(width: 96, height: 64, fill: 0)
        for i in Swift.stride(from: 0, to: speckled.pixels.count, by: 97) { speckled.pixels[i] = 3 }
        try write(ImageCodec.encode(Self.noise(seed: 8)), "f.png")
        try write(ImageCodec.encode(speckled, as: .jpeg(quality: 60)), "f_mask.jpg")
        // Photos named as a mask and as a matte.
        try write(ImageCodec.encode(Self.noise(seed: 3)), "c.png")
        try write(ImageCodec.encode(Self.noise(seed: 4)), "c_mask.png")
        try write(ImageCodec.encode(Self.noise(seed: 5)), "d.png")
        try write(ImageCodec.encode(Self.noise(seed: 6)), "d_matte.png")

        let samples = try CaptureSamples.load(imagesDirectory: folder)
        XCTAssertEqual(samples.map(\.name), ["a.png", "b.png", "c.png", "d.png", "e.png", "f.png"])
        let fromJPEG = try XCTUnwrap(samples[0].objectMask)
        let wrong = zip(fromJPEG.pixels, disc.pixels).filter { $0 != $1 }.count
        XCTAssertLessThan(wrong, 40, "a JPEG mask's object is the disc, up to its outline (\(wrong) pixels differ)")
        XCTAssertTrue(faint.allSatisfy { fromJPEG.pixels[$0] == 0 }, "faint noise is background")
        XCTAssertEqual(try XCTUnwrap(samples[1].objectMask).pixels, disc.pixels, "label 1 is object")
        XCTAssertEqual(try XCTUnwrap(samples[4].objectMask).pixels, disc.pixels, "instance ids 1 and 2 are both object")
        // JPEG noise alone is no object: the mask marks nothing, which leaves its photo no features.
        XCTAssertNil(samples[5].objectMask)
        XCTAssertTrue(samples[5].rejection?.hasPrefix("its object mask f_mask.jpg marks no pixel as the object (the object is non-zero in a "
                                                      + "label mask, above half the brightest level in any other mask") ?? false,
                      samples[5].rejection ?? "nil")
        XCTAssertNil(samples[2].objectMask)
        XCTAssertTrue(samples[2].rejection?.contains("mask c_mask.png is not black and white") ?? false, samples[2].rejection ?? "nil")
        XCTAssertTrue(samples[3].rejection?.contains("matte d_matte.png is not black and white") ?? false, samples[3].rejection ?? "nil")
    }

    func testBadMasksAndMattesRejectTheirSampleNamingTheFileAndTheSessionGoesOn() async throws {
        try write(ImageCodec.encode(Self.noise(seed: 1)), "a.png")
        try write(Data("junk".utf8), "a_mask.png")
        try write(ImageCodec.encode(Self.noise(seed: 2)), "b.png")
        try write(ImageCodec.encode(GrayImage(width: 50, height: 50, fill: 200)), "b_matte.png")
        try write(ImageCodec.encode(Self.noise(seed: 3)), "c.png")
        try write(Data("not a png".utf8), "c_matte.png")
        try write(ImageCodec.encode(Self.noise(seed: 4)), "d.png")
        try write(ImageCodec.encode(GrayImage(width: 192, height: 128, fill: 255)), "d_matte.png")
        try write(ImageCodec.encode(Self.noise(seed: 5)), "e.png")
        try write(ImageCodec.encode(GrayImage(width: 96, height: 64, fill: 255)), "e_matte.png")

        let samples = try CaptureSamples.load(imagesDirectory: folder)
        XCTAssertEqual(samples.map(\.name), ["a.png", "b.png", "c.png", "d.png", "e.png"])
        XCTAssertTrue(samples[0].rejection?.contains("mask a_mask.png does not decode") ?? false, "\(samples[0])")
        XCTAssertTrue(samples[1].rejection?.contains("matte b_matte.png is 50×50, which does not fit its 96×64 photo b.png") ?? false,
                      samples[1].rejection ?? "nil")
        XCTAssertTrue(samples[2].rejection?.contains("matte c_matte.png does not decode") ?? false, samples[2].rejection ?? "nil")
        XCTAssertTrue(samples[3].rejection?.contains("d_matte.png is 192×128") ?? false, "larger than the photo: \(samples[3].rejection ?? "nil")")
        XCTAssertNil(samples[4].rejection)
        XCTAssertNotNil(samples[4].objectMask)

        let reasons = try await invalidSamples(samples)
        XCTAssertEqual(Set(reasons.keys), ["a.png", "b.png", "c.png", "d.png"])
        XCTAssertEqual(reasons["b.png"], "b.png: " + (samples[1].rejection ?? "nil"))
    }

    /// The pose-stage sources (`reconstruct`'s and the regression runs') read masks as the
    /// session's samples do; without object masking no sidecar is read, so a bad one rejects nothing.
    func testSourcesCarryTheSamplesMasksAndWithoutMaskingNoSidecarIsRead() throws {
        try write(ImageCodec.encode(Self.noise(seed: 1)), "a.png")
        try write(Data("junk".utf8), "a_mask.png")
        try write(ImageCodec.encode(Self.noise(seed: 2)), "b.png")
        try write(ImageCodec.encode(GrayImage(width: 48, height: 32, fill: 255)), "b_mask.png")
        try write(ImageCodec.encode(Self.noise(seed: 3)), "c.png")

        let sources = try CaptureSources.load(imagesDirectory: folder, given: nil)
        let samples = try CaptureSamples.load(imagesDirectory: folder)
        XCTAssertEqual(sources.map(\.name), ["a.png", "b.png", "c.png"])
        XCTAssertEqual(sources.map(\.rejection), samples.map(\.rejection))
        XCTAssertTrue(sources[0].rejection?.contains("mask a_mask.png does not decode") ?? false, sources[0].rejection ?? "nil")
        XCTAssertEqual(sources[1].objectMask, samples[1].objectMask)
        XCTAssertEqual(sources[1].objectMask?.width, 48)
        XCTAssertNil(sources[2].objectMask)

        let unmaskedSources = try CaptureSources.load(imagesDirectory: folder, given: nil, objectMasks: false)
        let unmaskedSamples = try CaptureSamples.read(imagesDirectory: folder, objectMasks: false).samples
        XCTAssertEqual(unmaskedSources.map(\.rejection), [nil, nil, nil])
        XCTAssertEqual(unmaskedSamples.map(\.rejection), [nil, nil, nil])
        XCTAssertEqual(unmaskedSources.compactMap(\.objectMask).count + unmaskedSamples.compactMap(\.objectMask).count, 0)

        var configuration = PhotogrammetrySession.Configuration()
        configuration.isObjectMaskingEnabled = false
        XCTAssertNil(try PhotogrammetrySession(input: folder, configuration: configuration).samples[0].rejection)
    }

    /// Masks checked one by one when the photos are read: one of another aspect ratio (the
    /// features would be cut by it stretched) or marking nothing rejects its photo, saying so; photos
    /// without a mask among photos with one are a warning (their background is not masked out).
    func testMasksOfAnotherShapeOrMarkingNothingRejectTheirPhotoAndMissingMasksAreAWarning() throws {
        for (index, name) in ["a", "b", "c", "d"].enumerated() {
            try write(ImageCodec.encode(Self.noise(seed: UInt64(index + 1))), "\(name).png")
        }
        try write(ImageCodec.encode(GrayImage(width: 48, height: 32, fill: 255)), "a_mask.png")
        try write(ImageCodec.encode(GrayImage(width: 40, height: 40, fill: 255)), "b_mask.png")
        try write(ImageCodec.encode(GrayImage(width: 96, height: 64, fill: 0)), "c_mask.png")

        let folder = try CaptureSamples.read(imagesDirectory: self.folder)
        let reasons = folder.samples.map(\.rejection)
        XCTAssertNil(reasons[0])
        XCTAssertEqual(reasons[1], "its object mask b_mask.png is 40×40, which does not have the shape of its 96×64 photo "
                       + "(a mask may have any size, not another aspect ratio)")
        XCTAssertTrue(reasons[2]?.hasPrefix("its object mask c_mask.png marks no pixel as the object") ?? false, reasons[2] ?? "nil")
        XCTAssertNil(reasons[3])
        XCTAssertEqual(folder.samples.compactMap(\.objectMask).count, 1, "a rejected photo keeps no mask")
        XCTAssertTrue(folder.warnings.contains { $0.hasPrefix("1 of 4 photos have no object mask (e.g. d.png) while the others have one") },
                      "\(folder.warnings)")
        // The same from the pose-stage reader; with masking off, nothing of it.
        XCTAssertEqual(try CaptureSources.read(imagesDirectory: self.folder, given: nil).sources.map(\.rejection), reasons)
        let unmasked = try CaptureSamples.read(imagesDirectory: self.folder, objectMasks: false)
        XCTAssertEqual(unmasked.samples.compactMap(\.rejection), [])
        XCTAssertFalse(unmasked.warnings.contains { $0.contains("object mask") }, "\(unmasked.warnings)")

        // Files that are not images (empty, text named .jpg) are not photos without a mask: they
        // are reported when they fail to decode.
        try write(Data(), "e.jpg")
        try write(Data("not a photo".utf8), "f.jpg")
        let withJunk = try CaptureSamples.read(imagesDirectory: self.folder)
        XCTAssertTrue(withJunk.warnings.contains { $0.hasPrefix("1 of 4 photos have no object mask (e.g. d.png)") }, "\(withJunk.warnings)")
    }

    func testImageSignaturesAreRecognisedAndJunkIsNot() {
        XCTAssertTrue(ImageSignature.isImage(header: [0xFF, 0xD8, 0xFF, 0xE0]))
        XCTAssertTrue(ImageSignature.isImage(header: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A]))
        XCTAssertTrue(ImageSignature.isImage(header: [0, 0, 0, 24] + Array("ftypheic".utf8)))
        XCTAssertTrue(ImageSignature.isImage(header: Array("RIFF".utf8) + [1, 2, 3, 4] + Array("WEBP".utf8)))
        XCTAssertFalse(ImageSignature.isImage(header: []))
        XCTAssertFalse(ImageSignature.isImage(header: Array("not a photo".utf8)))
        XCTAssertFalse(ImageSignature.isImage(header: Array("RIFF".utf8) + [1, 2, 3, 4] + Array("WAVE".utf8)))
    }

    /// A mask is checked as decoded, then kept subsampled: an object thinner than the step is
    /// still an object (its photo is not rejected as marking nothing).
    func testMasksAreCheckedAsDecodedAndKeptSubsampled() throws {
        try write(ImageCodec.encode(RGBImage(width: 4096, height: 64, fill: (90, 90, 90))), "a.png")
        var thin = GrayImage(width: 4096, height: 64, fill: 0)
        thin.pixels[3 * 4096 + 1] = 255
        try write(ImageCodec.encode(thin), "a_mask.png")
        let sample = try XCTUnwrap(try CaptureSamples.load(imagesDirectory: folder).first)
        XCTAssertNil(sample.rejection)
        XCTAssertEqual(sample.objectMask?.width, 2048)
        XCTAssertEqual(sample.objectMask?.height, 32)
    }

    /// A photo whose header gives no size (HEIC, or pixels in memory) has its mask's shape
    /// checked when the photo is decoded for its features.
    func testAMaskOfAnotherShapeOnAPhotoInMemoryIsAnInvalidSample() async throws {
        var samples = (0..<2).map { PhotogrammetrySample(id: $0, image: .pixels(Self.noise(seed: UInt64($0 + 1))), name: "p\($0).png") }
        samples[0].objectMask = GrayImage(width: 50, height: 50, fill: 255)
        let reasons = try await invalidSamples(samples)
        XCTAssertEqual(reasons["p0.png"], "p0.png: its object mask's aspect ratio (1.000) is not its photo's (1.500): a mask may have any size, "
                       + "not another aspect ratio")
    }

    func testHEICPhotosLoadWithTheirMetricEmbeddedDepthAndNotesForTheRest() throws {
        guard HEIFFixture.encoder != nil else { throw HEIFFixture.EncoderMissing() }
        let photo = try HEIFFixture.encode(png: ImageCodec.encode(Self.noise(seed: 1)), quality: 95)
        let levels = GrayImage(width: 64, height: 64, pixels: (0..<(64 * 64)).map { UInt8(($0 % 64) * 4) })
        let depth = try HEIFFixture.encode(png: ImageCodec.encode(levels), lossless: true)
        try write(HEIFFixture.withDepth(photo: photo, depth: depth, representation: .init(type: 0, zNear: 0.5, zFar: 2)), "a.heic")
        try write(HEIFFixture.withDepth(photo: photo, depth: depth, representation: nil), "b.heic")
        try write(photo, "c.heif")

        let folder = try CaptureSamples.read(imagesDirectory: self.folder)
        XCTAssertEqual(folder.samples.map(\.name), ["a.heic", "b.heic", "c.heif"])
        let metres = try XCTUnwrap(folder.samples[0].depth)
        XCTAssertEqual([metres.width, metres.height], [64, 64])
        XCTAssertEqual(Double(metres[0, 0]), 2, accuracy: 0.02)
        XCTAssertNil(folder.samples[1].depth)
        XCTAssertNil(folder.samples[2].depth)
        XCTAssertEqual(folder.notes.count, 1)
        XCTAssertTrue(folder.notes[0].contains("b.heic: its embedded depth is not used"), folder.notes[0])
    }

    func testTruncatedAndFakeHEICAreInvalidSamplesAndTheOthersGoOn() async throws {
        guard HEIFFixture.encoder != nil else { throw HEIFFixture.EncoderMissing() }
        let good = try HEIFFixture.encode(png: ImageCodec.encode(Self.noise(width: 256, height: 192, seed: 1)), quality: 95)
        try write(good, "a.heic")
        try write(ImageCodec.encode(Self.noise(width: 256, height: 192, seed: 2)), "b.png")
        try write(good.prefix(good.count / 2), "c.heic")
        try write(Data("a text file with a .heic name".utf8), "d.heic")
        try write(ImageCodec.encode(Self.noise(width: 256, height: 192, seed: 3)), "e.heic")  // a PNG called .heic: read by content

        // Depth is looked for in HEIF content only: the text and the PNG called .heic get no note
        // that their "embedded depth" does not decode (the PNG was told so, then read fine).
        let read = try CaptureSamples.read(imagesDirectory: folder)
        XCTAssertFalse(read.notes.contains { $0.contains("d.heic") || $0.contains("e.heic") }, "\(read.notes)")
        // The truncated one is skipped as a photo: no note says it "is used without depth".
        XCTAssertFalse(read.notes.contains { $0.contains("c.heic") }, "\(read.notes)")
        let reasons = try await invalidSamples(read.samples)
        XCTAssertEqual(Set(reasons.keys), ["c.heic", "d.heic"])
        XCTAssertTrue(reasons["c.heic"]?.contains("HEIF") ?? false, reasons["c.heic"] ?? "")
        XCTAssertTrue(reasons["d.heic"]?.contains("not a decodable image") ?? false, reasons["d.heic"] ?? "")
    }
}
