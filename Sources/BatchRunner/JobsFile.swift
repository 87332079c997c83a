import Foundation
import ReconstructionCore

/// A jobs file read job by job: a JSON array of job specs, an object `{"jobs": [...]}`, one job
/// object, or JSON Lines (one job per line). Each job is checked on its own, so a malformed job or
/// a missing input fails that job alone with a message naming it and the problem.
public struct JobsFile: Sendable {
    /// One job of the file, ready to enqueue, or why it cannot run.
    public enum Entry: Sendable, Equatable {
        /// A checked spec with every path made absolute.
        case valid(JobSpec)
        /// `id` is the job's own id when it has a usable one, else `<file path>#<position>`;
        /// `problem` names the job and says what is wrong; `raw` is the job's text.
        case invalid(id: String, raw: String, problem: String)

        public var id: String {
            switch self {
            case .valid(let spec): return spec.id
            case .invalid(let id, _, _): return id
            }
        }
    }

    /// The file's jobs, in file order.
    public var entries: [Entry]

    /// Reads and checks every job in `url`; relative paths are resolved against its folder.
    /// - Throws: `BatchError.jobsFile` only when the file cannot be read or holds no recognisable
    ///   job structure at all.
    public static func load(_ url: URL) throws -> JobsFile {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), isDirectory.boolValue {
            throw BatchError.jobsFile(url.path, "is a folder; give the jobs file (JSON or JSON Lines)")
        }
        let data: Data
        do { data = try Data(contentsOf: url) } catch {
            throw BatchError.jobsFile(url.path, "cannot be read: \(FileReadFailure.reason(url, error))")
        }
        return try parse(data, name: placeholderLabel(of: url), baseDirectory: url.deletingLastPathComponent())
    }

    /// What names a jobs file in the place-holder ids of its jobs without a usable id
    /// (`LABEL#N`): its full path, as two files of one name in different folders share a ledger.
    public static func placeholderLabel(of url: URL) -> String { url.standardizedFileURL.path }

    /// Parses jobs from `data`; `name` labels jobs without an id, `baseDirectory` anchors relative paths.
    public static func parse(_ data: Data, name: String, baseDirectory: URL) throws -> JobsFile {
        let validator = JobSpecValidator(baseDirectory: baseDirectory)
        let items = try split(data, name: name)
        var seen: [String: Int] = [:], outputs: [String: String] = [:]
        var entries: [Entry] = []
        for (position, item) in items.enumerated() {
            let fallbackID = "\(name)#\(position + 1)"
            var entry: Entry
            switch item {
            case .success(let object): entry = validator.check(object, fallbackID: fallbackID)
            case .failure(let problem): entry = .invalid(id: fallbackID, raw: "", problem: "job #\(position + 1): \(problem)")
            }
            if case .valid(let spec) = entry, let first = seen[spec.id] {
                entry = .invalid(id: "\(name)#\(position + 1)", raw: spec.canonicalJSON(),
                                 problem: "job '\(spec.id)' (#\(position + 1)): the id is already used by job #\(first) of this file")
            } else if case .valid(let spec) = entry, let output = spec.output, let other = outputs[output] {
                entry = .invalid(id: spec.id, raw: spec.canonicalJSON(),
                                 problem: "job '\(spec.id)': output \(output) is also job '\(other)'s output")
            } else if case .valid(let spec) = entry {
                seen[spec.id] = position + 1
                if let output = spec.output { outputs[output] = spec.id }
            }
            entries.append(entry)
        }
        return JobsFile(entries: entries)
    }

    /// Whether one of two different folder paths lies inside the other.
    static func isNested(_ a: String, _ b: String) -> Bool {
        let a = a.hasSuffix("/") ? a : a + "/", b = b.hasSuffix("/") ? b : b + "/"
        return a != b && (a.hasPrefix(b) || b.hasPrefix(a))
    }

    /// The file's job values: from one JSON document, else from JSON Lines (a line that does not
    /// parse becomes a failure for that job).
    private static func split(_ data: Data, name: String) throws -> [Result<Any, JobProblem>] {
        if String(decoding: data, as: UTF8.self).allSatisfy(\.isWhitespace) {
            throw BatchError.jobsFile(name, "is empty: it needs a job object, an array of them, {\"jobs\": [...]} or JSON Lines")
        }
        do {
            let document = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
            if let array = document as? [Any] { return array.map { .success($0) } }
            if let object = document as? [String: Any] {
                if let jobs = object["jobs"] {
                    guard let array = jobs as? [Any] else { throw BatchError.jobsFile(name, "'jobs' must be an array of job objects") }
                    return array.map { .success($0) }
                }
                return [.success(object)]
            }
            throw BatchError.jobsFile(name, "expected an array of jobs, {\"jobs\": [...]}, one job object or JSON Lines")
        } catch let error as BatchError {
            throw error
        } catch {
            let document = error
            let lines = String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
            // JSON Lines hold a whole job on each line: a file that opens an array or an object on
            // a line of its own ("[", "{", {"jobs": [) is one document spread over lines, with a
            // mistake in it (a missing comma), not JSON Lines with a broken first job.
            if let first = lines.first(where: { !$0.allSatisfy(\.isWhitespace) })?.trimmingCharacters(in: .whitespaces),
               first.hasPrefix("[") || first == "{" || (first.hasPrefix("{") && first.hasSuffix("[")) {
                throw BatchError.jobsFile(name, "is not valid JSON: \(Self.reason(document, in: data, hint: true))")
            }
            let jobs = lines.enumerated().compactMap { number, line -> Result<Any, JobProblem>? in
                let text = line.trimmingCharacters(in: .whitespacesAndNewlines)
                guard !text.isEmpty else { return nil }
                do { return .success(try JSONSerialization.jsonObject(with: Data(text.utf8))) } catch {
                    return .failure(JobProblem("line \(number + 1) is not valid JSON: \(Self.reason(error))"))
                }
            }
            guard jobs.contains(where: { if case .success = $0 { return true } else { return false } }) else {
                throw BatchError.jobsFile(name, "is not valid JSON (nor JSON Lines): \(Self.reason(document, in: data))")
            }
            return jobs
        }
    }

    private static func reason(_ error: any Error) -> String {
        let ns = error as NSError
        return (ns.userInfo[NSDebugDescriptionErrorKey] as? String) ?? ns.localizedDescription
    }

    /// `reason(error)`, with the line and column of the character offset Foundation reports
    /// ("around character 82"); `hint`: say where a missing comma between two jobs shows.
    static func reason(_ error: any Error, in data: Data, hint: Bool = false) -> String {
        let text = reason(error)
        guard let range = text.range(of: #"character (\d+)"#, options: .regularExpression),
              let offset = Int(text[range].dropFirst("character ".count)) else { return text }
        let bytes = [UInt8](data.prefix(offset))
        let line = bytes.filter { $0 == UInt8(ascii: "\n") }.count + 1
        let column = offset - ((bytes.lastIndex(of: UInt8(ascii: "\n")) ?? -1) + 1) + 1
        return "\(text) (line \(line), column \(column)" + (hint ? "; a missing comma between two jobs shows at the start of the second)" : ")")
    }
}

/// A problem with one job, in words.
struct JobProblem: Error, Equatable, CustomStringConvertible {
    var text: String
    init(_ text: String) { self.text = text }
    var description: String { text }
}
