import Reporting
import XCTest

final class HTMLReportTests: XCTestCase {
    private func makeReport() -> HTMLReport {
        var report = HTMLReport(title: "Scene <fountain> & \"friends\"")
        report.addParagraph("Run at 5 < 6 & 7 > 2")
        report.addSection("Camera poses")
        report.addMetrics([
            .init(name: "median position error", value: 2.21, unit: "mm", threshold: .atMost(3)),
            .init(name: "rotation error", value: 0.12, unit: "°", threshold: .atMost(0.1), decimals: 3),
            .init(name: "registered", value: 11, threshold: .atLeast(11), decimals: 0),
            .init(name: "time", value: 12.5, unit: "s"),
        ])
        report.addImage(file: "positions-top.png", caption: "Top view <x, y>")
        report.addSection("Surface")
        report.addImage(file: "distance histogram.png", caption: "Distances")
        report.addPreformatted("{\"fScore\": 0.9}")
        return report
    }

    func testTextIsEscaped() {
        let html = makeReport().render()
        XCTAssertTrue(html.contains("<title>Scene &lt;fountain&gt; &amp; &quot;friends&quot;</title>"))
        XCTAssertTrue(html.contains("<p>Run at 5 &lt; 6 &amp; 7 &gt; 2</p>"))
        XCTAssertTrue(html.contains("alt=\"Top view &lt;x, y&gt;\""))
        XCTAssertTrue(html.contains("<pre>{&quot;fScore&quot;: 0.9}</pre>"))
        XCTAssertFalse(html.contains("<fountain>"))
        XCTAssertEqual(HTMLReport.escape("a<b>&'\""), "a&lt;b&gt;&amp;&#39;&quot;")
    }

    func testImagesAreReferencedByTheGivenFileNames() {
        let html = makeReport().render()
        XCTAssertTrue(html.contains("<img src=\"positions-top.png\""))
        XCTAssertTrue(html.contains("<img src=\"distance%20histogram.png\""))
    }

    func testMetricsAreJudgedAgainstThresholds() {
        let report = makeReport()
        let html = report.render()
        XCTAssertTrue(html.contains("<tr class=\"pass\"><td>median position error</td><td class=\"number\">2.210 mm</td>"
                                    + "<td class=\"number\">≤ 3.000 mm</td><td>pass</td></tr>"), html)
        XCTAssertTrue(html.contains("<tr class=\"fail\"><td>rotation error</td><td class=\"number\">0.120°</td>"
                                    + "<td class=\"number\">≤ 0.100°</td><td>fail</td></tr>"))
        XCTAssertTrue(html.contains("<tr class=\"pass\"><td>registered</td><td class=\"number\">11</td>"))
        XCTAssertTrue(html.contains("<tr class=\"info\"><td>time</td>"))
        XCTAssertEqual(report.judgedMetrics.count, 3)
        XCTAssertTrue(html.contains("<p class=\"summary fail\">2 of 3 checks pass</p>"))
        XCTAssertEqual(HTMLReport.Metric(name: "x", value: .nan, threshold: .atMost(1)).passed, false)
    }

    func testDocumentIsSelfContainedWithASectionList() {
        let html = makeReport().render()
        XCTAssertTrue(html.hasPrefix("<!DOCTYPE html>"))
        XCTAssertTrue(html.contains("<style>"))
        XCTAssertFalse(html.contains("<script"))
        XCTAssertFalse(html.contains("<link"))
        XCTAssertTrue(html.contains("<li><a href=\"#section-1\">Camera poses</a></li>"))
        XCTAssertTrue(html.contains("<section id=\"section-2\">\n<h2>Surface</h2>"))
        // Sections appear in order, with their blocks inside them.
        let poses = html.range(of: "<h2>Camera poses</h2>")!.lowerBound
        let image = html.range(of: "positions-top.png")!.lowerBound
        let surface = html.range(of: "<h2>Surface</h2>")!.lowerBound
        XCTAssertLessThan(poses, image)
        XCTAssertLessThan(image, surface)
        XCTAssertEqual(html.components(separatedBy: "<section").count, html.components(separatedBy: "</section>").count)
    }
}
