import Foundation
import ReconstructionCore

/// A recorded frame stream read from its folder (`frames.json`, see `FrameStreamIndex`), each
/// entry checked: a usable frame with its pose, intrinsics and files, or the reason it is not.
public struct FrameStream: Sendable {
    /// One usable frame.
    public struct Frame: Sendable, Equatable {
        /// Position in the index, from 0.
        public var index: Int
        public var image: URL
        /// Seconds; later than every earlier usable frame's.
        public var timestamp: Double
        /// Camera-to-world, metres, world z up, camera axes x right, y down, z forward.
        public var worldFromCamera: RigidTransform
        /// Of the full-size image, pixels.
        public var intrinsics: CameraIntrinsics
        /// Physical down in camera axes, g units.
        public var gravity: Vector3
        public var depth: URL?
        public var depthConfidence: URL?
        public var mask: URL?
    }

    /// An index entry: a usable frame, or why it cannot be used (naming the file or field).
    public enum Entry: Sendable, Equatable {
        case frame(Frame)
        case invalid(index: Int, image: String, reason: String)
    }

    /// The folder holding `frames.json`.
    public var directory: URL
    /// The confirmed object box (world, metres), if the index gives one.
    public var objectBox: BoundingBox?
    /// Every entry of the index, in order.
    public var entries: [Entry]

    /// How messages name `file`: relative to the stream's folder when it is inside it (as the
    /// index usually gives it), else its whole path.
    public func shownPath(_ file: URL) -> String {
        let folder = directory.standardizedFileURL.path, path = file.standardizedFileURL.path
        return path.hasPrefix(folder + "/") ? String(path.dropFirst(folder.count + 1)) : path
    }

    /// The usable frames, in order.
    public var frames: [Frame] {
        entries.compactMap { if case .frame(let frame) = $0 { return frame } else { return nil } }
    }

    /// Reads and checks `directory/frames.json`.
    /// - Throws: `CaptureReplayError` naming the file when the index is missing, not JSON of this
    ///   format, has no frames or a malformed box. Bad single entries become `.invalid`.
    public static func load(directory: URL) throws(CaptureReplayError) -> FrameStream {
        let file = directory.appendingPathComponent(FrameStreamIndex.fileName)
        guard let data = FileManager.default.contents(atPath: file.path) else {
            throw CaptureReplayError(path: file.path, "cannot be read (a frame stream folder holds \(FrameStreamIndex.fileName))")
        }
        let index: IndexSlots
        do {
            index = try JSONDecoder().decode(IndexSlots.self, from: data)
        } catch let error as DecodingError {
            throw CaptureReplayError(path: file.path, "is not a frame stream index: \(Self.describe(error))")
        } catch {
            throw CaptureReplayError(path: file.path, "is not a frame stream index: \(error)")
        }
        guard index.format == FrameStreamIndex.formatTag else {
            throw CaptureReplayError(path: file.path, "has format \"\(index.format)\"; this reader understands \"\(FrameStreamIndex.formatTag)\"")
        }
        guard !index.frames.isEmpty else { throw CaptureReplayError(path: file.path, "lists no frames") }
        var box: BoundingBox?
        if let given = index.objectBox {
            guard let parsed = Self.box(given) else {
                throw CaptureReplayError(path: file.path, "objectBox needs centre [x, y, z] and non-negative halfExtents [x, y, z], not all zero")
            }
            box = parsed
        }
        var entries: [Entry] = []
        var lastTimestamp = -Double.infinity
        for (i, slot) in index.frames.enumerated() {
            let entry: FrameStreamIndex.Entry
            switch slot.entry {
            case .success(let decoded): entry = decoded
            case .failure(let error):
                entries.append(.invalid(index: i, image: slot.image ?? "", reason: Self.describe(error, within: 2)))
                continue
            }
            switch Self.frame(entry, index: i, defaults: index.intrinsics, directory: directory, after: lastTimestamp) {
            case .success(let frame):
                lastTimestamp = frame.timestamp
                entries.append(.frame(frame))
            case .failure(let problem):
                entries.append(.invalid(index: i, image: entry.image, reason: problem.reason))
            }
        }
        return FrameStream(directory: directory, objectBox: box, entries: entries)
    }

    /// A box from its JSON form, nil when malformed.
    public static func box(_ given: FrameStreamIndex.Box) -> BoundingBox? {
        guard let centre = vector(given.centre), let half = vector(given.halfExtents),
              half.x >= 0, half.y >= 0, half.z >= 0, half.length > 0 else { return nil }
        return BoundingBox(centre: centre, halfExtents: half)
    }

    private struct Problem: Error {
        var reason: String
    }

    private static func frame(_ entry: FrameStreamIndex.Entry, index: Int, defaults: FrameStreamIndex.Intrinsics?,
                              directory: URL, after lastTimestamp: Double) -> Result<Frame, Problem> {
        func fail(_ reason: String) -> Result<Frame, Problem> { .failure(Problem(reason: reason)) }
        guard !entry.image.isEmpty else { return fail("the frame names no image") }
        let image = file(entry.image, in: directory)
        guard FileManager.default.fileExists(atPath: image.path) else { return fail("\(entry.image) does not exist") }
        guard entry.timestamp.isFinite else { return fail("timestamp is not a finite number") }
        guard entry.timestamp > lastTimestamp else {
            return fail("timestamp \(entry.timestamp) s is not after the previous frame's \(lastTimestamp) s")
        }
        guard entry.rotation.count == 4, entry.rotation.allSatisfy(\.isFinite) else {
            return fail("rotation must be a unit quaternion [w, x, y, z]")
        }
        let norm = entry.rotation.map { $0 * $0 }.reduce(0, +).squareRoot()
        guard abs(norm - 1) < 1e-3 else { return fail(String(format: "rotation is not a unit quaternion (norm %.6g)", norm)) }
        guard let position = vector(entry.position) else { return fail("position must be three finite numbers [x, y, z] (metres)") }
        let q = entry.rotation
        let worldFromCamera = RigidTransform(rotation: UnitQuaternion(w: q[0], x: q[1], y: q[2], z: q[3]).matrix, translation: position)
        guard let k = entry.intrinsics ?? defaults else { return fail("no intrinsics (neither the frame's nor the index's)") }
        guard k.width > 0, k.height > 0, k.fx > 0, k.fy > 0, k.fx.isFinite, k.fy.isFinite, k.cx.isFinite, k.cy.isFinite else {
            return fail("intrinsics need a positive size and focal lengths and finite principal point")
        }
        var gravity = worldFromCamera.rotation.transposed * Vector3(0, 0, -1)
        if let given = entry.gravity {
            guard let g = vector(given), g.length > 1e-6 else { return fail("gravity must be three finite numbers, not all zero") }
            gravity = g
        }
        var sidecars: [URL?] = []
        for name in [entry.depth, entry.depthConfidence, entry.mask] {
            guard let name else {
                sidecars.append(nil)
                continue
            }
            let url = file(name, in: directory)
            guard FileManager.default.fileExists(atPath: url.path) else { return fail("\(name) does not exist") }
            sidecars.append(url)
        }
        return .success(Frame(index: index, image: image, timestamp: entry.timestamp, worldFromCamera: worldFromCamera,
                              intrinsics: CameraIntrinsics(width: k.width, height: k.height, fx: k.fx, fy: k.fy, cx: k.cx, cy: k.cy),
                              gravity: gravity, depth: sidecars[0], depthConfidence: sidecars[1], mask: sidecars[2]))
    }

    /// A file the index names: relative to the stream's folder, or as given when absolute.
    private static func file(_ name: String, in directory: URL) -> URL {
        name.hasPrefix("/") ? URL(fileURLWithPath: name) : directory.appendingPathComponent(name)
    }

    private static func vector(_ values: [Double]) -> Vector3? {
        guard values.count == 3, values.allSatisfy(\.isFinite) else { return nil }
        return Vector3(values[0], values[1], values[2])
    }

    /// The index as read: a frame entry that does not decode is kept with its error, so one
    /// malformed frame is reported like any other invalid frame instead of refusing the stream.
    private struct IndexSlots: Decodable {
        struct Slot: Decodable {
            var entry: Result<FrameStreamIndex.Entry, DecodingError>
            /// The entry's image name when it has one, for the report.
            var image: String?

            private enum Key: String, CodingKey { case image }

            init(from decoder: Decoder) throws {
                image = try? decoder.container(keyedBy: Key.self).decode(String.self, forKey: .image)
                do {
                    entry = .success(try FrameStreamIndex.Entry(from: decoder))
                } catch let error as DecodingError {
                    entry = .failure(error)
                }
            }
        }

        var format: String
        var intrinsics: FrameStreamIndex.Intrinsics?
        var objectBox: FrameStreamIndex.Box?
        var frames: [Slot]
    }

    /// A decoding error as "at frames[3].rotation: …", leaving out the first `within` keys of its
    /// path (2 for an error inside one frame entry: "missing \"position\"").
    static func describe(_ error: DecodingError, within: Int = 0) -> String {
        func path(_ context: DecodingError.Context) -> String {
            let keys = context.codingPath.dropFirst(within).map { key in key.intValue.map { "[\($0)]" } ?? ".\(key.stringValue)" }.joined()
            return keys.isEmpty ? "" : " at \(keys.hasPrefix(".") ? String(keys.dropFirst()) : keys)"
        }
        switch error {
        case .dataCorrupted(let context): return "invalid JSON\(path(context)): \(context.debugDescription)"
        case .keyNotFound(let key, let context): return "missing \"\(key.stringValue)\"\(path(context))"
        case .typeMismatch(_, let context): return "wrong type\(path(context)): \(context.debugDescription)"
        case .valueNotFound(_, let context): return "missing value\(path(context))"
        @unknown default: return "\(error)"
        }
    }
}
