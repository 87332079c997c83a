import Foundation
import ReconstructionCore

/// Pinhole intrinsics given by the user, in pixels (COLMAP pixel convention: the image's
/// top-left corner is (0, 0), the first pixel centre is (0.5, 0.5)).
public struct PinholeIntrinsics: Equatable, Sendable {
    /// Focal lengths in pixels (positive).
    public var fx: Double
    public var fy: Double
    /// Principal point in pixels.
    public var cx: Double
    public var cy: Double

    public init(fx: Double, fy: Double, cx: Double, cy: Double) {
        self.fx = fx
        self.fy = fy
        self.cx = cx
        self.cy = cy
    }

    /// These intrinsics as a distortion-free `CameraIntrinsics` for an image of the given size (pixels).
    public func cameraIntrinsics(width: Int, height: Int) -> CameraIntrinsics {
        CameraIntrinsics(width: width, height: height, fx: fx, fy: fy, cx: cx, cy: cy)
    }

    /// Parses `"fx,fy,cx,cy"` (pixels; spaces around the numbers are allowed).
    ///
    /// - Throws: `CaptureIOError` unless there are exactly 4 finite numbers with positive focal lengths.
    public static func parse(commaSeparated text: String) throws -> PinholeIntrinsics {
        let fields = text.split(separator: ",", omittingEmptySubsequences: false)
            .map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
        let what = "intrinsics \"\(text)\""
        guard fields.count == 4 else {
            throw CaptureIOError(path: nil, problem:
                "\(what): expected 4 comma-separated numbers fx,fy,cx,cy (pixels), found \(fields.count) field(s)")
        }
        var values: [Double] = []
        for (field, label) in zip(fields, ["fx", "fy", "cx", "cy"]) {
            guard let value = Double(field) else {
                throw CaptureIOError(path: nil, problem: "\(what): \(label) \"\(field)\" is not a number")
            }
            values.append(value)
        }
        return try validated(values[0], values[1], values[2], values[3], context: nil, what: what)
    }

    /// Reads a 3×3 camera matrix K (9 numbers, row-major, separated by whitespace and/or commas),
    /// e.g. the Strecha `K.txt`:
    /// ```
    /// 2759.48 0 1520.69
    /// 0 2764.16 1006.81
    /// 0 0 1
    /// ```
    /// The bottom row must be (0, 0, 1) and K[1][0] must be 0 (tolerance 1e-9); a non-zero skew
    /// K[0][1] is rejected because the pipeline's camera model has none.
    /// - Throws: `CaptureIOError` naming the file when it cannot be read or is not such a matrix.
    public static func load(kFile url: URL) throws -> PinholeIntrinsics {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), isDirectory.boolValue {
            throw CaptureIOError(file: url, "is a folder; give the K file itself (e.g. \(url.appendingPathComponent(CaptureFolderFiles.intrinsics).path))")
        }
        let text: String
        do {
            let data = try Data(contentsOf: url)
            guard let decoded = String(data: data, encoding: .utf8) else {
                throw CaptureIOError(file: url, "K file is not UTF-8 text")
            }
            text = decoded
        } catch let error as CaptureIOError {
            throw error
        } catch {
            throw CaptureIOError(file: url, "cannot read K file: \(FileReadFailure.reason(url, error))")
        }
        let separators = CharacterSet.whitespacesAndNewlines.union(CharacterSet(charactersIn: ","))
        // Lines starting with # are comments (a "# K" header, say).
        let body = text.components(separatedBy: .newlines)
            .filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("#") }.joined(separator: "\n")
        let tokens = body.components(separatedBy: separators).filter { !$0.isEmpty }
        guard tokens.count == 9 else {
            throw CaptureIOError(file: url, "K file must hold a 3×3 matrix (9 numbers), found \(tokens.count) value(s)")
        }
        var k: [Double] = []
        for (index, token) in tokens.enumerated() {
            guard let value = Double(token), value.isFinite else {
                throw CaptureIOError(file: url, "K[\(index / 3)][\(index % 3)] \"\(token)\" is not a finite number")
            }
            k.append(value)
        }
        let tolerance = 1e-9
        for (row, column) in [(1, 0), (2, 0), (2, 1)] where abs(k[3 * row + column]) > tolerance {
            throw CaptureIOError(file: url,
                                 "K[\(row)][\(column)] is \(k[3 * row + column]), expected 0 (not an upper-triangular camera matrix)")
        }
        guard abs(k[8] - 1) <= tolerance else {
            throw CaptureIOError(file: url, "K[2][2] is \(k[8]), expected 1 (normalise K so its last entry is 1)")
        }
        guard abs(k[1]) <= tolerance else {
            throw CaptureIOError(file: url, "K[0][1] (skew) is \(k[1]); cameras with skew are not supported, expected 0")
        }
        return try validated(k[0], k[4], k[2], k[5], context: url, what: "K file")
    }

    private static func validated(_ fx: Double, _ fy: Double, _ cx: Double, _ cy: Double,
                                  context: URL?, what: String) throws -> PinholeIntrinsics {
        func failure(_ problem: String) -> CaptureIOError {
            if let context { return CaptureIOError(file: context, problem) }
            return CaptureIOError(path: nil, problem: "\(what): \(problem)")
        }
        for (value, label) in [(fx, "fx"), (fy, "fy"), (cx, "cx"), (cy, "cy")] where !value.isFinite {
            throw failure("\(label) is \(value), expected a finite number")
        }
        guard fx > 0, fy > 0 else {
            throw failure("focal lengths must be positive (pixels), got fx = \(fx), fy = \(fy)")
        }
        // Below a pixel it is a K in other units (normalised by the photo's size, say);
        // above 10⁷ px no lens (a 2000 mm lens on a full-frame sensor is about 55 times the side).
        guard fx >= 1, fy >= 1 else {
            throw failure("focal lengths under 1 px (fx = \(fx), fy = \(fy)): K must be in pixels; one normalised by the photo's "
                          + "size needs fx and cx multiplied by the width, fy and cy by the height")
        }
        guard fx <= 1e7, fy <= 1e7 else {
            throw failure("focal lengths over 10⁷ px (fx = \(fx), fy = \(fy)) are beyond any lens; K must be in pixels")
        }
        return PinholeIntrinsics(fx: fx, fy: fy, cx: cx, cy: cy)
    }
}
