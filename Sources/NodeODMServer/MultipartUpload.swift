import Foundation
import MultipartKit
import NIOCore

/// Reads a `multipart/form-data` request body as it arrives: text fields into memory (at most
/// 1 MB each), file parts straight to files in an incoming folder, each at most `maxFileBytes`.
/// File names are checked by `UploadName` as soon as a part's headers arrive, so a refused name
/// costs no disk.
public final class MultipartUpload {
    public struct Result: Sendable {
        public var fields: [String: String] = [:]
        public var files: [UploadedFile] = []
    }

    private let parser: MultipartParser
    /// `--BOUNDARY--`, which ends a whole body.
    private let closingDelimiter: [UInt8]
    private let directory: URL
    private let maxFileBytes: Int
    private let maxFiles: Int
    /// Files a request may carry per photo allowed: the photo, its depth, confidence, mask and
    /// matte images and its gravity file; and for the whole capture, K.txt and tracked_poses.json.
    static let filesPerPhoto = 6
    static let captureFiles = 2
    private static let maxFieldBytes = 1_000_000

    private var result = Result()
    private var problem: NodeODMError?
    // The part being read.
    private var headers: [String: String] = [:]
    private var started = false
    private var fieldBytes: [UInt8] = []
    private var file: (handle: FileHandle, upload: UploadedFile)?

    /// - Throws: `NodeODMError.refused` when `contentType` is not multipart form data with a boundary.
    init(contentType: String?, directory: URL, maxFileBytes: Int, maxFiles: Int) throws {
        guard let contentType, contentType.lowercased().hasPrefix("multipart/form-data"),
              let boundary = Self.parameter("boundary", in: contentType), !boundary.isEmpty, boundary.utf8.count <= 200
        else { throw NodeODMError.refused("expected a multipart/form-data body with a boundary (Content-Type: \(contentType ?? "none"))") }
        parser = MultipartParser(boundary: boundary)
        closingDelimiter = Array("--\(boundary)--".utf8)
        self.directory = directory
        self.maxFileBytes = maxFileBytes
        self.maxFiles = maxFiles
        parser.onHeader = { [unowned self] name, value in headers[name.lowercased()] = value }
        parser.onBody = { [unowned self] buffer in body(&buffer) }
        parser.onPartComplete = { [unowned self] in partComplete() }
    }

    /// Reads the whole body. After a refusal the rest of the body is read and dropped (up to a
    /// bound), so the client gets the JSON error rather than a reset connection.
    public static func read<Body: AsyncSequence>(_ body: Body, contentType: String?, directory: URL, maxFileBytes: Int, maxFiles: Int) async throws -> Result
    where Body.Element == ByteBuffer {
        let upload = try MultipartUpload(contentType: contentType, directory: directory, maxFileBytes: maxFileBytes, maxFiles: maxFiles)
        var drained = 0
        // The body's last bytes: a whole body ends with the closing delimiter (and perhaps a line
        // break or an epilogue of up to 1 KiB); a body cut off in transfer does not.
        var tail: [UInt8] = []
        let kept = upload.closingDelimiter.count + 1024  // room for a short epilogue after it
        for try await buffer in body {
            if upload.problem != nil {
                drained += buffer.readableBytes
                if drained > 64 << 20 { break }
                continue
            }
            tail += buffer.readableBytesView.suffix(kept)
            if tail.count > kept { tail.removeFirst(tail.count - kept) }
            do { try upload.parser.execute(buffer) } catch {
                upload.fail(NodeODMError.refused("the multipart body is malformed"))
            }
        }
        if upload.problem == nil && tail.firstRange(of: upload.closingDelimiter) == nil {
            let whole = upload.result.files.count
            upload.fail(NodeODMError.refused("the multipart body ended before its closing boundary (cut off in transfer?): "
                + "nothing was stored\(whole > 0 ? " (\(whole) file\(whole == 1 ? "" : "s") had arrived whole)" : ""); send it again"))
        }
        return try upload.finish()
    }

    private func fail(_ error: NodeODMError) {
        if problem == nil { problem = error }
        closeFile(discard: true)
    }

    private func body(_ buffer: inout ByteBuffer) {
        guard problem == nil else { return }
        if !started { startPart() }
        guard problem == nil else { return }
        if let current = file {
            guard current.upload.bytes + buffer.readableBytes <= maxFileBytes else {
                fail(.refused("file '\(current.upload.storedName)' is larger than this node's upload limit of \(maxFileBytes / 1_000_000) MB"))
                return
            }
            do {
                try current.handle.write(contentsOf: buffer.readableBytesView)
                file?.upload.bytes += buffer.readableBytes
            } catch {
                fail(NodeODMError(.internalServerError, "writing the upload: \(error.localizedDescription)"))
            }
        } else {
            guard fieldBytes.count + buffer.readableBytes <= Self.maxFieldBytes else {
                fail(.refused("form field '\(fieldName ?? "?")' is larger than 1 MB"))
                return
            }
            fieldBytes += buffer.readableBytesView
        }
    }

    private var disposition: String? { headers["content-disposition"] }
    private var fieldName: String? { disposition.flatMap { Self.parameter("name", in: $0) } }

    private func startPart() {
        started = true
        guard let disposition, disposition.lowercased().hasPrefix("form-data") else {
            fail(.refused("a multipart part has no Content-Disposition: form-data header"))
            return
        }
        guard let filename = Self.parameter("filename", in: disposition) else { return }
        do {
            let stored = try UploadName.sanitize(filename)
            guard maxFiles > 0 else {
                fail(.refused("this request takes no files: upload photos to /task/new/upload/<uuid>"))
                return
            }
            // Photos count against the limit, sidecars (depth, masks, gravity, K.txt) do not; the files in
            // all are capped too, at a photo and its sidecars each.
            let photos = result.files.filter { UploadName.isPhoto($0.storedName) }.count
            guard !UploadName.isPhoto(stored) || photos < maxFiles else {
                fail(.refused("more than \(maxFiles) photos in one request: this node takes at most \(maxFiles) photos per task"))
                return
            }
            guard result.files.count < maxFiles * Self.filesPerPhoto + Self.captureFiles else {
                fail(.refused("more than \(maxFiles * Self.filesPerPhoto + Self.captureFiles) files in one request "
                              + "(\(maxFiles) photos with their sidecars, K.txt and tracked_poses.json)"))
                return
            }
            let location = directory.appendingPathComponent("\(result.files.count)-\(stored)")
            guard FileManager.default.createFile(atPath: location.path, contents: nil) else {
                fail(NodeODMError(.internalServerError, "cannot create \(location.lastPathComponent) in the incoming folder"))
                return
            }
            file = (try FileHandle(forWritingTo: location), UploadedFile(storedName: stored, location: location, bytes: 0))
        } catch let error as NodeODMError {
            fail(error)
        } catch {
            fail(NodeODMError(.internalServerError, "opening the upload: \(error.localizedDescription)"))
        }
    }

    private func partComplete() {
        if !started { startPart() }
        if problem == nil {
            if let current = file {
                closeFile(discard: false)
                result.files.append(current.upload)
            } else if let name = fieldName {
                result.fields[name] = String(decoding: fieldBytes, as: UTF8.self)
            }
        }
        headers = [:]
        started = false
        fieldBytes = []
        file = nil
    }

    private func closeFile(discard: Bool) {
        guard let current = file else { return }
        try? current.handle.close()
        if discard { try? FileManager.default.removeItem(at: current.upload.location) }
        file = nil
    }

    private func finish() throws -> Result {
        closeFile(discard: true)
        if let problem {
            for file in result.files { try? FileManager.default.removeItem(at: file.location) }
            throw problem
        }
        return result
    }

    /// A `key=value` or `key="value"` parameter of a header value such as
    /// `form-data; name="images"; filename="a.jpg"` (not `filename*`).
    public static func parameter(_ key: String, in header: String) -> String? {
        var index = header.startIndex
        while index < header.endIndex {
            guard let semicolon = header[index...].firstIndex(of: ";") else { return nil }
            var cursor = header.index(after: semicolon)
            while cursor < header.endIndex, header[cursor] == " " || header[cursor] == "\t" { cursor = header.index(after: cursor) }
            guard let equals = header[cursor...].firstIndex(of: "=") else { return nil }
            let name = header[cursor..<equals].trimmingCharacters(in: .whitespaces).lowercased()
            var valueStart = header.index(after: equals)
            var value = ""
            if valueStart < header.endIndex, header[valueStart] == "\"" {
                valueStart = header.index(after: valueStart)
                var position = valueStart
                while position < header.endIndex, header[position] != "\"" {
                    if header[position] == "\\", header.index(after: position) < header.endIndex { position = header.index(after: position) }
                    value.append(header[position])
                    position = header.index(after: position)
                }
                index = position < header.endIndex ? header.index(after: position) : position
            } else {
                let end = header[valueStart...].firstIndex(of: ";") ?? header.endIndex
                value = header[valueStart..<end].trimmingCharacters(in: .whitespaces)
                index = end
            }
            if name == key.lowercased() { return value }
        }
        return nil
    }
}
