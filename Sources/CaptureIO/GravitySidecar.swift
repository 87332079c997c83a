import Foundation
import ReconstructionCore

/// A photo's gravity sidecar `STEM_gravity.txt`: physical down in the camera frame (x right,
/// y down, z forward), as three numbers in g units ("x y z"), like CoreMotion's gravity vector.
public enum GravitySidecar {
    public static let suffix = "_gravity"

    /// The sidecar file that belongs to `photo`.
    public static func url(besides photo: URL) -> URL {
        photo.deletingPathExtension().deletingLastPathComponent()
            .appendingPathComponent(photo.deletingPathExtension().lastPathComponent + suffix + ".txt")
    }

    /// The gravity beside `photo`, nil when there is no sidecar; a clear error naming the file when
    /// it is unreadable, not three finite numbers, or (nearly) zero.
    public static func load(besides photo: URL) throws -> Vector3? {
        let file = url(besides: photo)
        guard FileManager.default.fileExists(atPath: file.path) else { return nil }
        guard let data = FileManager.default.contents(atPath: file.path), let text = String(data: data, encoding: .utf8) else {
            throw CaptureIOError(file: file, "cannot read the gravity sidecar as text")
        }
        let numbers = text.split(whereSeparator: { $0 == " " || $0 == "," || $0 == "\t" || $0 == "\n" || $0 == "\r" })
            .map { Double($0) }
        guard numbers.count == 3, let x = numbers[0], let y = numbers[1], let z = numbers[2], x.isFinite, y.isFinite, z.isFinite else {
            throw CaptureIOError(file: file, "a gravity sidecar holds three numbers \"x y z\", found \"\(text.prefix(60))\"")
        }
        let g = Vector3(x, y, z)
        guard g.length > 1e-6 else { throw CaptureIOError(file: file, "the gravity vector is zero") }
        return g
    }
}
