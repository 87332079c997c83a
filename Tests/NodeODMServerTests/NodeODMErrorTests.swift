import NodeODMServer
import XCTest

/// Refusals tell NodeODM clients not to retry (PyODM retries an upload five times otherwise).
final class NodeODMErrorTests: XCTestCase {
    func testRefusalsSayNotToRetryAndServerErrorsDoNot() {
        XCTAssertEqual(NodeODMError.refused("too large").body["noRetry"] as? Bool, true)
        XCTAssertEqual(NodeODMError.notFound("no such task").body["noRetry"] as? Bool, true)
        XCTAssertEqual(NodeODMError.refused("too large").body["error"] as? String, "too large")
        XCTAssertNil(NodeODMError(.internalServerError, "disk full").body["noRetry"])
    }
}
