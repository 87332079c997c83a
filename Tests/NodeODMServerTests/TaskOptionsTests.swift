import BatchRunner
import Foundation
import NodeODMServer
import XCTest

final class TaskOptionsTests: XCTestCase {
    func testDefaultsAskForPosesPointsAndAReducedUSDZ() throws {
        let options = try TaskOptions.parse(nil)
        XCTAssertEqual(options.requests, [.poses, .pointCloud, .model(.init(detail: .reduced, format: .usdz, path: "model.usdz"))])
        XCTAssertEqual(try TaskOptions.parse("  "), options)
        XCTAssertEqual(try TaskOptions.parse("[]"), options)
    }

    func testPyODMsOptionShapesAreRead() throws {
        // PyODM sends [{"name": …, "value": …}] with JSON values of any type.
        let options = try TaskOptions.parse(#"[{"name":"detail","value":"none"},{"name":"point-cloud","value":false},{"name":"bounds","value":"True"}]"#)
        XCTAssertEqual(options.requests, [.poses, .bounds])
        let glb = try TaskOptions.parse(#"[{"name":"model-format","value":"GLB"},{"name":"detail","value":"preview"}]"#)
        XCTAssertEqual(glb.requests.last, .model(.init(detail: .preview, format: .glb, path: "model.glb")))
        XCTAssertEqual(glb.entries.first, ["name": "detail", "value": "preview"])
    }

    func testObjectMaskingIsOnUnlessTurnedOff() throws {
        XCTAssertTrue(try TaskOptions.parse(nil).objectMasking)
        let off = try TaskOptions.parse(#"[{"name":"object-masking","value":false}]"#)
        XCTAssertFalse(off.objectMasking)
        XCTAssertTrue(off.entries.contains(["name": "object-masking", "value": "false"]))
        XCTAssertThrowsError(try TaskOptions.parse(#"[{"name":"object-masking","value":"maybe"}]"#))
    }

    func testATaskSavedBeforeObjectMaskingLoadsWithItsDefault() throws {
        let saved = #"{"detail":"preview","modelFormat":"glb","pointCloud":false,"bounds":true}"#
        let options = try JSONDecoder().decode(TaskOptions.self, from: Data(saved.utf8))
        XCTAssertEqual(options.detail, "preview")
        XCTAssertEqual(options.modelFormat, .glb)
        XCTAssertFalse(options.pointCloud)
        XCTAssertTrue(options.bounds)
        XCTAssertTrue(options.objectMasking)
        var changed = options
        changed.objectMasking = false
        XCTAssertEqual(try JSONDecoder().decode(TaskOptions.self, from: JSONEncoder().encode(changed)), changed)
    }

    func testBadValuesAreRefusedByName() {
        for (text, expected) in [(#"[{"name":"detail","value":1}]"#, "option 'detail' is '1'"),
                                 (#"[{"name":"detail","value":"ultra"}]"#, "option 'detail' is 'ultra'"),
                                 (#"{"detail":"preview"}"#, "options must be a JSON array"),
                                 (#"[{"value":"preview"}]"#, "each option must be an object"),
                                 (#"[{"name":"detail","value":"preview"},{"name":"detail","value":"full"}]"#,
                                  "option 'detail' is given twice, as 'preview' and 'full'")] {
            XCTAssertThrowsError(try TaskOptions.parse(text)) { error in
                XCTAssertTrue("\(error)".contains(expected), "\(error)")
            }
        }
    }

    /// NodeODM ignores options its engine lacks; so does this node, reporting their names, so a
    /// PyODM script that asks for ODM's `dsm` still runs.
    func testOptionsThisNodeLacksAreIgnoredAndNamedAndBooleansMayBeNumbers() throws {
        let parsed = try TaskOptions.parseReportingIgnored(
            #"[{"name":"dsm","value":true},{"name":"orthophoto-resolution","value":2},{"name":"point-cloud","value":0},{"name":"bounds","value":"1"}]"#)
        XCTAssertEqual(parsed.ignored, ["dsm", "orthophoto-resolution"])
        XCTAssertFalse(parsed.options.pointCloud)
        XCTAssertTrue(parsed.options.bounds)
        XCTAssertEqual(try TaskOptions.parse(#"[{"name":"dsm","value":true}]"#), TaskOptions())
        XCTAssertTrue(try TaskOptions.parse(#"[{"name":"bounds","value":1},{"name":"bounds","value":true}]"#).bounds, "1 and true are one value")
    }

    func testAnOptionRepeatedWithTheSameValueIsAccepted() throws {
        let options = try TaskOptions.parse(#"[{"name":"detail","value":"full"},{"name":"detail","value":"FULL"}]"#)
        XCTAssertEqual(options.detail, "full")
    }

    func testEveryDefinitionsDefaultIsInItsDomain() {
        for definition in TaskOptions.definitions {
            XCTAssertTrue(definition.domain.contains(definition.value), definition.name)
        }
    }
}
