import ArgumentParser
import CaptureIO
import Foundation

/// `--intrinsics fx,fy,cx,cy` or `--intrinsics-file K.txt`, shared by the commands that take known intrinsics.
struct IntrinsicsOptions: ParsableArguments {
    @Option(help: "Known pinhole intrinsics in pixels: fx,fy,cx,cy (pixel origin at the top-left corner).")
    var intrinsics: String?

    @Option(help: "File with a 3×3 intrinsics matrix K (9 numbers, row-major), e.g. Strecha's K.txt.")
    var intrinsicsFile: String?

    var isGiven: Bool { intrinsics != nil || intrinsicsFile != nil }

    func validate() throws {
        if intrinsics != nil && intrinsicsFile != nil {
            throw ValidationError("give either --intrinsics or --intrinsics-file, not both")
        }
    }

    /// The given intrinsics, or nil when neither option is set.
    func load() throws -> PinholeIntrinsics? {
        if let text = intrinsics { return try PinholeIntrinsics.parse(commaSeparated: text) }
        if let path = intrinsicsFile { return try PinholeIntrinsics.load(kFile: URL(fileURLWithPath: path)) }
        return nil
    }
}
