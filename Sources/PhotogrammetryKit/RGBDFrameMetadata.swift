import Foundation
import ReconstructionCore

/// The camera of one RGB-D keyframe, from its `metadata_N.json`:
///
///     {
///       "intrinsics": [[fx, 0, cx], [0, fy, cy], [0, 0, 1]],
///       "cameraToWorld": [[r00, r01, r02, tx], [r10, r11, r12, ty], [r20, r21, r22, tz], [0, 0, 0, 1]],
///       "axes": "arkit"
///     }
///
/// - `intrinsics`: pixels, at the colour image's resolution, origin at the top-left corner of
///   the top-left pixel, y down; 3 rows of 3 numbers, or 9 numbers row by row.
/// - `cameraToWorld`: the camera's pose, metres; 4 rows of 4 numbers, or 16 numbers row by row
///   (rotation orthonormal within 1e-3, last row 0 0 0 1).
/// - `axes` (optional): the camera frame of `cameraToWorld`. `"arkit"` (the default, ARKit's
///   and OpenGL's: x right, y up, z towards the viewer, looking along −z) or `"opencv"` (this
///   library's: x right, y down, z forward). ARKit poses are converted by turning the camera
///   half a turn about its x axis (negating its y and z axes); the world frame is kept as given
///   (ARKit's is y up, gravity along −y).
struct RGBDFrameMetadata: Equatable {
    var fx: Double, fy: Double, cx: Double, cy: Double
    /// The pose in this library's camera convention (x right, y down, z forward).
    var worldFromCamera: RigidTransform

    /// Parses the JSON; throws a message (without the file name) saying what is wrong.
    static func parse(_ data: Data) throws(RGBDMetadataProblem) -> RGBDFrameMetadata {
        let document: Document
        do { document = try JSONDecoder().decode(Document.self, from: data) } catch {
            throw RGBDMetadataProblem("is not valid JSON, or not a JSON object")
        }
        let k = try document.intrinsics.matrix(name: "intrinsics", size: 3, meaning: "a 3×3 matrix in pixels")
        let pose = try document.cameraToWorld.matrix(name: "cameraToWorld", size: 4, meaning: "a 4×4 camera-to-world matrix in metres")
        guard k[0] > 0, k[4] > 0, abs(k[1]) < 1e-9 * k[0], abs(k[3]) < 1e-9 * k[4],
              k[6] == 0, k[7] == 0, abs(k[8] - 1) < 1e-9 else {
            throw RGBDMetadataProblem("\"intrinsics\" is not [[fx, 0, cx], [0, fy, cy], [0, 0, 1]] with positive focal lengths")
        }
        guard pose[12] == 0, pose[13] == 0, pose[14] == 0, abs(pose[15] - 1) < 1e-9 else {
            // ARKit's simd matrices are columns: dumped as they are, the row 0 0 0 1 is the last column.
            let columnMajor = pose[3] == 0 && pose[7] == 0 && pose[11] == 0 && abs(pose[15] - 1) < 1e-9
            throw RGBDMetadataProblem("\"cameraToWorld\" does not end with the row 0 0 0 1"
                + (columnMajor ? " but with that column: it seems to be written column by column (as simd_float4x4's "
                   + "columns are); write it row by row (transpose it)" : ""))
        }
        var rotation = Matrix3(rowMajor: [pose[0], pose[1], pose[2], pose[4], pose[5], pose[6], pose[8], pose[9], pose[10]])
        let product = (rotation.transposed * rotation).m
        let identity: [Double] = [1, 0, 0, 0, 1, 0, 0, 0, 1]
        guard zip(product, identity).allSatisfy({ abs($0 - $1) < 1e-3 }), rotation.determinant > 0 else {
            throw RGBDMetadataProblem("\"cameraToWorld\" is not a rigid transform (its 3×3 part is not a rotation)")
        }
        switch document.axes {
        case .missing:
            rotation = rotation * Matrix3(rowMajor: [1, 0, 0, 0, -1, 0, 0, 0, -1])
        case .text(let axes) where axes.lowercased() == "arkit":
            rotation = rotation * Matrix3(rowMajor: [1, 0, 0, 0, -1, 0, 0, 0, -1])
        case .text(let axes) where axes.lowercased() == "opencv":
            break
        default:
            throw RGBDMetadataProblem("has an \"axes\" other than \"arkit\" or \"opencv\"")
        }
        return RGBDFrameMetadata(fx: k[0], fy: k[4], cx: k[2], cy: k[5],
                                 worldFromCamera: RigidTransform(rotation: rotation, translation: Vector3(pose[3], pose[7], pose[11])))
    }

    /// The JSON object, each field kept as found so that problems can be named.
    private struct Document: Decodable {
        var intrinsics: Field
        var cameraToWorld: Field
        var axes: Field

        enum Key: String, CodingKey { case intrinsics, cameraToWorld, axes }

        init(from decoder: Decoder) throws {
            let container = try decoder.container(keyedBy: Key.self)
            intrinsics = Field(container, .intrinsics)
            cameraToWorld = Field(container, .cameraToWorld)
            axes = Field(container, .axes)
        }
    }

    /// One field's value.
    private enum Field: Equatable {
        case missing, rows([[Double]]), numbers([Double]), text(String), other

        init(_ container: KeyedDecodingContainer<Document.Key>, _ key: Document.Key) {
            if !container.contains(key) || ((try? container.decodeNil(forKey: key)) ?? false) {
                self = .missing
            } else if let rows = try? container.decode([[Double]].self, forKey: key) {
                self = .rows(rows)
            } else if let numbers = try? container.decode([Double].self, forKey: key) {
                self = .numbers(numbers)
            } else if let text = try? container.decode(String.self, forKey: key) {
                self = .text(text)
            } else {
                self = .other
            }
        }

        /// The entries of a `size`×`size` matrix, row by row.
        func matrix(name: String, size: Int, meaning: String) throws(RGBDMetadataProblem) -> [Double] {
            let entries: [Double]
            switch self {
            case .missing: throw RGBDMetadataProblem("has no \"\(name)\" (\(meaning))")
            case .rows(let rows) where rows.count == size && rows.allSatisfy({ $0.count == size }): entries = rows.flatMap { $0 }
            case .numbers(let numbers) where numbers.count == size * size: entries = numbers
            default:
                throw RGBDMetadataProblem("\"\(name)\" must be \(size)×\(size): \(size) rows of \(size) numbers, or \(size * size) numbers row by row")
            }
            guard entries.allSatisfy(\.isFinite) else { throw RGBDMetadataProblem("\"\(name)\" has a value that is not finite") }
            return entries
        }
    }
}

/// What is wrong with a keyframe's metadata (the caller adds the file name).
struct RGBDMetadataProblem: Error, Equatable {
    var message: String
    init(_ message: String) { self.message = message }
}
