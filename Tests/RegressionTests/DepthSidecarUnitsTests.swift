import Foundation
import PhotogrammetryKit
import Reconstruction
import ReconstructionCore
import XCTest

/// Depth sidecars in other units, with estimated poses (whose scale they give): metres written
/// into a 16-bit millimetre PNG, or millimetres into a float TIFF, made a "metric" model 1000
/// times off without a word.
final class DepthSidecarUnitsTests: XCTestCase {
    private func sidecar(metres: Float) -> DepthSidecar {
        var values = [Float](repeating: metres, count: 40 * 30)
        for i in Swift.stride(from: 0, to: values.count, by: 7) { values[i] = 0 }  // holes are not depth
        return DepthSidecar(depth: DepthMap(width: 40, height: 30, metres: values), confidence: nil)
    }

    func testDepthNoSensorGivesIsNamedAndNotUsed() throws {
        let named = [("a.jpg", sidecar(metres: 0.6)), ("b.jpg", sidecar(metres: 600)), ("c.jpg", sidecar(metres: 0.0006)),
                     ("d.jpg", sidecar(metres: 4.5))]
        let checked = DepthSidecar.plausibleUnits(named.map { (name: $0.0, sidecar: $0.1) })
        XCTAssertEqual(checked.kept, [0, 3])
        let warning = try XCTUnwrap(checked.warning)
        XCTAssertTrue(warning.hasPrefix("the depth sidecars of 2 photos (b.jpg, c.jpg) have a median depth of 0.0006 m–600 m"), warning)
        XCTAssertTrue(warning.contains("16-bit PNG depth is read as millimetres, float TIFF as metres"), warning)
        XCTAssertNil(DepthSidecar.plausibleUnits([(name: "a.jpg", sidecar: sidecar(metres: 1.2))]).warning)
    }
}
