/// Builds a self-contained HTML report page: a title, a list of sections linking to them,
/// tables of metrics coloured pass/fail against thresholds, images referenced by file name
/// (PNG files the caller writes next to the page), paragraphs and preformatted text.
/// The page uses inline CSS and no script; every text is escaped.
///
///     var report = HTMLReport(title: "fountain-P11")
///     report.addSection("Camera poses")
///     report.addMetrics([.init(name: "median position error", value: 2.2, unit: "mm", threshold: .atMost(3))])
///     report.addImage(file: "positions-top.png", caption: "Top view")
///     let html = report.render()
public struct HTMLReport: Sendable {
    /// A pass condition for a metric.
    public enum Threshold: Sendable, Equatable {
        /// Passes when the value is ≤ the bound (errors, distances).
        case atMost(Double)
        /// Passes when the value is ≥ the bound (scores, counts).
        case atLeast(Double)

        public func passes(_ value: Double) -> Bool {
            switch self {
            case .atMost(let bound): return value <= bound
            case .atLeast(let bound): return value >= bound
            }
        }
    }

    /// One row of a metrics table.
    public struct Metric: Sendable, Equatable {
        public var name: String
        public var value: Double
        /// Unit shown after the value and the threshold ("mm", "°", "%"); may be empty.
        public var unit: String
        /// Nil for a metric shown without a verdict.
        public var threshold: Threshold?
        /// Digits after the point; nil shows 4 significant digits.
        public var decimals: Int?

        public init(name: String, value: Double, unit: String = "", threshold: Threshold? = nil,
                    decimals: Int? = nil) {
            self.name = name
            self.value = value
            self.unit = unit
            self.threshold = threshold
            self.decimals = decimals
        }

        /// Nil without a threshold; a non-finite value fails.
        public var passed: Bool? {
            threshold.map { value.isFinite && $0.passes(value) }
        }
    }

    /// A piece of a section, in order.
    public enum Block: Sendable, Equatable {
        case paragraph(String)
        case metrics([Metric])
        /// An image file (relative URL, e.g. "positions-top.png") with a caption.
        case image(file: String, caption: String)
        /// Monospaced text, kept as is (escaped).
        case preformatted(String)
    }

    public struct Section: Sendable, Equatable {
        public var title: String
        public var blocks: [Block]
    }

    public var title: String
    /// Blocks shown before the first section.
    public var introduction: [Block] = []
    public var sections: [Section] = []

    public init(title: String) {
        self.title = title
    }

    /// Starts a new section; later `add…` calls fill it.
    public mutating func addSection(_ title: String) {
        sections.append(Section(title: title, blocks: []))
    }

    public mutating func addParagraph(_ text: String) { add(.paragraph(text)) }
    public mutating func addMetrics(_ metrics: [Metric]) { add(.metrics(metrics)) }
    public mutating func addImage(file: String, caption: String) { add(.image(file: file, caption: caption)) }
    public mutating func addPreformatted(_ text: String) { add(.preformatted(text)) }

    /// Appends `block` to the last section, or to the introduction before any section.
    public mutating func add(_ block: Block) {
        if sections.isEmpty {
            introduction.append(block)
        } else {
            sections[sections.count - 1].blocks.append(block)
        }
    }

    /// Every metric with a threshold, in order.
    public var judgedMetrics: [Metric] {
        (introduction + sections.flatMap(\.blocks)).flatMap { block -> [Metric] in
            if case .metrics(let metrics) = block { return metrics.filter { $0.threshold != nil } }
            return []
        }
    }

    /// The complete HTML document.
    public func render() -> String {
        var html = """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(Self.escape(title))</title>
            <style>\(Self.css)</style>
            </head>
            <body>
            <h1>\(Self.escape(title))</h1>

            """
        let judged = judgedMetrics
        if !judged.isEmpty {
            let passed = judged.filter { $0.passed == true }.count
            let verdict = passed == judged.count ? "pass" : "fail"
            html += "<p class=\"summary \(verdict)\">\(passed) of \(judged.count) checks pass</p>\n"
        }
        if !sections.isEmpty {
            html += "<nav><ol>\n"
            for (i, section) in sections.enumerated() {
                html += "<li><a href=\"#section-\(i + 1)\">\(Self.escape(section.title))</a></li>\n"
            }
            html += "</ol></nav>\n"
        }
        for block in introduction { html += Self.render(block) }
        for (i, section) in sections.enumerated() {
            html += "<section id=\"section-\(i + 1)\">\n<h2>\(Self.escape(section.title))</h2>\n"
            for block in section.blocks { html += Self.render(block) }
            html += "</section>\n"
        }
        html += "</body>\n</html>\n"
        return html
    }

    private static func render(_ block: Block) -> String {
        switch block {
        case .paragraph(let text):
            return "<p>\(escape(text))</p>\n"
        case .preformatted(let text):
            return "<pre>\(escape(text))</pre>\n"
        case .image(let file, let caption):
            return "<figure><img src=\"\(escape(urlPath(file)))\" alt=\"\(escape(caption))\">"
                + "<figcaption>\(escape(caption))</figcaption></figure>\n"
        case .metrics(let metrics):
            var html = "<table class=\"metrics\">\n<thead><tr><th>metric</th><th>value</th><th>threshold</th>"
                + "<th>result</th></tr></thead>\n<tbody>\n"
            for metric in metrics {
                let verdict = metric.passed.map { $0 ? "pass" : "fail" }
                html += "<tr class=\"\(verdict ?? "info")\"><td>\(escape(metric.name))</td>"
                html += "<td class=\"number\">\(escape(withUnit(format(metric.value, metric), metric.unit)))</td>"
                let threshold: String
                switch metric.threshold {
                case .atMost(let bound)?: threshold = "≤ " + withUnit(format(bound, metric), metric.unit)
                case .atLeast(let bound)?: threshold = "≥ " + withUnit(format(bound, metric), metric.unit)
                case nil: threshold = ""
                }
                html += "<td class=\"number\">\(escape(threshold))</td><td>\(verdict ?? "")</td></tr>\n"
            }
            return html + "</tbody>\n</table>\n"
        }
    }

    private static func format(_ value: Double, _ metric: Metric) -> String {
        if let decimals = metric.decimals { return NumberText.fixed(value, decimals: decimals) }
        return NumberText.significant(value, digits: 4)
    }

    private static func withUnit(_ number: String, _ unit: String) -> String {
        if unit.isEmpty { return number }
        return unit == "%" || unit == "°" ? number + unit : number + " " + unit
    }

    /// `text` with `& < > " '` replaced by character references, safe in element content and
    /// in quoted attribute values.
    public static func escape(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&#39;"
            default: result.append(character)
            }
        }
        return result
    }

    /// A relative file path as a URL path: bytes outside letters, digits, `-._~/` are
    /// percent-encoded (so spaces, `#`, `?` and `%` in file names work).
    static func urlPath(_ path: String) -> String {
        var result = ""
        for byte in path.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                 UInt8(ascii: "~"), UInt8(ascii: "/"):
                result.append(Character(Unicode.Scalar(byte)))
            default:
                let hex = Array("0123456789ABCDEF")
                result += "%" + String(hex[Int(byte >> 4)]) + String(hex[Int(byte & 15)])
            }
        }
        return result
    }

    static let css = """

        body { font-family: -apple-system, "Segoe UI", Helvetica, Arial, sans-serif; color: #2d2d32;
               max-width: 1100px; margin: 2em auto; padding: 0 1em; line-height: 1.45; }
        h1 { font-size: 1.8em; margin-bottom: 0.3em; }
        h2 { font-size: 1.3em; border-bottom: 1px solid #ddd; padding-bottom: 0.2em; margin-top: 2em; }
        nav ol { margin: 0.5em 0 1.5em; padding-left: 1.5em; }
        a { color: #4c72b0; }
        table.metrics { border-collapse: collapse; margin: 1em 0; min-width: 60%; }
        table.metrics th, table.metrics td { padding: 0.35em 0.8em; border-bottom: 1px solid #e4e4e8; text-align: left; }
        table.metrics th { background: #f4f4f6; font-weight: 600; }
        td.number { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
        tr.pass td { background: #e6f4ea; }
        tr.fail td { background: #fbe7e7; }
        tr.pass td:last-child { color: #2e7d32; font-weight: 600; }
        tr.fail td:last-child { color: #b3261e; font-weight: 600; }
        p.summary { display: inline-block; padding: 0.3em 0.8em; border-radius: 4px; font-weight: 600; }
        p.summary.pass { background: #e6f4ea; color: #2e7d32; }
        p.summary.fail { background: #fbe7e7; color: #b3261e; }
        figure { margin: 1em 0; }
        figure img { max-width: 100%; height: auto; border: 1px solid #e4e4e8; }
        figcaption { color: #666; font-size: 0.9em; margin-top: 0.3em; }
        pre { background: #f6f6f8; padding: 0.8em; overflow-x: auto; }

        """
}
