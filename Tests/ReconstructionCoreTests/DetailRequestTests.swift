import ReconstructionCore
import XCTest

final class DetailRequestTests: XCTestCase {
    func testLevelsFollowApplesBudgets() throws {
        XCTAssertEqual(try DetailLevel.named("Reduced").budget().maximumTriangleCount, 50_000)
        XCTAssertEqual(DetailLevel.preview.budget().textureDimension.rawValue, 1024)
        XCTAssertEqual(DetailLevel.full.budget().textureMaps, .all)
        XCTAssertEqual(DetailLevel.raw.budget().textureMaps, [.diffuseColor])
        XCTAssertThrowsError(try DetailLevel.named("ultra")) { error in
            XCTAssertTrue("\(error)".contains("unknown detail level 'ultra'"), "\(error)")
        }
    }

    func testCustomSpecificationRejectsBadValuesWithClearMessages() throws {
        let custom = try CustomDetailSpecification(maximumPolygonCount: 30_000, textureSize: 4096, jpegQuality: 0.8,
                                                   maps: try TextureMaps.parse("diffuse, ao"))
        XCTAssertEqual(DetailLevel.custom.budget(custom: custom).maximumTriangleCount, 30_000)
        XCTAssertEqual(custom.maximumTextureDimension, .fourK)
        XCTAssertEqual(custom.textureFormat, .jpeg(compressionQuality: 0.8))
        XCTAssertEqual(custom.outputTextureMaps, [.diffuseColor, .ambientOcclusion])
        XCTAssertThrowsError(try CustomDetailSpecification(maximumPolygonCount: 1000, textureSize: 3000, jpegQuality: nil, maps: .all)) {
            XCTAssertEqual($0 as? DetailRequestError, .textureSizeNotPowerOfTwo(3000))
        }
        XCTAssertThrowsError(try CustomDetailSpecification(maximumPolygonCount: 1000, textureSize: 512, jpegQuality: nil, maps: .all)) {
            XCTAssertEqual($0 as? DetailRequestError, .textureSizeOutOfRange(512))
        }
        // Caps below 100 left too little to texture (12 left no triangles), and failed only at the end.
        for cap in [0, 12, 99] {
            XCTAssertThrowsError(try CustomDetailSpecification(maximumPolygonCount: cap, textureSize: 1024, jpegQuality: nil, maps: .all)) {
                XCTAssertEqual($0 as? DetailRequestError, .polygonCountTooSmall(cap))
            }
        }
        XCTAssertEqual(try CustomDetailSpecification(maximumPolygonCount: 100, textureSize: 1024, jpegQuality: nil, maps: .all).maximumPolygonCount, 100)
        XCTAssertThrowsError(try CustomDetailSpecification(maximumPolygonCount: 1000, textureSize: 1024, jpegQuality: 1.5, maps: .all))
        XCTAssertThrowsError(try TextureMaps.parse("diffuse,specular")) {
            XCTAssertEqual($0 as? DetailRequestError, .unknownTextureMap("specular"))
        }
        XCTAssertThrowsError(try TextureMaps.parse(" , "))
    }

    func testStereoSizeGrowsWithTheTriangleBudgetAndServesTheLargestRequest() throws {
        let sizes = DetailLevel.allCases.filter { $0 != .custom }.map { $0.budget().stereoImageDimension }
        XCTAssertEqual(sizes, [768, 768, 1024, 1536, 1536], "preview, reduced, medium, full, raw")
        let custom = try CustomDetailSpecification(maximumPolygonCount: 80_000, textureSize: 2048, jpegQuality: nil, maps: .all)
        XCTAssertEqual(DetailLevel.custom.budget(custom: custom).stereoImageDimension, 1024)
        XCTAssertEqual(DetailBudget.stereoImageDimension(serving: [DetailLevel.preview, .full, .reduced].map { $0.budget() }), 1536)
        XCTAssertEqual(DetailBudget.stereoImageDimension(serving: [DetailLevel.preview.budget()]), 768)
        XCTAssertNil(DetailBudget.stereoImageDimension(serving: [DetailBudget]()))
    }
}
