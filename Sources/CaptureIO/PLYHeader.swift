/// The header of a PLY file: its format and the elements it declares, in file order.
struct PLYHeader {
    enum Format: String {
        case ascii
        case binaryLittleEndian = "binary_little_endian"
        case binaryBigEndian = "binary_big_endian"
    }

    /// A scalar type of the PLY specification (both its classic and sized names).
    enum ScalarType {
        case int8, uint8, int16, uint16, int32, uint32, float32, float64

        init?(name: String) {
            switch name {
            case "char", "int8": self = .int8
            case "uchar", "uint8": self = .uint8
            case "short", "int16": self = .int16
            case "ushort", "uint16": self = .uint16
            case "int", "int32": self = .int32
            case "uint", "uint32": self = .uint32
            case "float", "float32": self = .float32
            case "double", "float64": self = .float64
            default: return nil
            }
        }

        /// Bytes in binary encodings.
        var size: Int {
            switch self {
            case .int8, .uint8: return 1
            case .int16, .uint16: return 2
            case .int32, .uint32, .float32: return 4
            case .float64: return 8
            }
        }

        var isInteger: Bool { self != .float32 && self != .float64 }

        /// The range of an integer type (for validating ASCII values).
        var integerRange: ClosedRange<Double> {
            switch self {
            case .int8: return -128...127
            case .uint8: return 0...255
            case .int16: return -32768...32767
            case .uint16: return 0...65535
            case .int32: return -2_147_483_648...2_147_483_647
            case .uint32: return 0...4_294_967_295
            case .float32, .float64: return -Double.infinity...Double.infinity
            }
        }
    }

    struct Property {
        var name: String
        /// The value type, or for a list the type of its items.
        var type: ScalarType
        /// The type of a list's length prefix; nil for a scalar property.
        var listCountType: ScalarType?
    }

    struct Element {
        var name: String
        var count: Int
        var properties: [Property]

        /// Bytes per instance in binary encodings, or nil when a list makes it variable.
        var fixedSize: Int? {
            var size = 0
            for property in properties {
                if property.listCountType != nil { return nil }
                size += property.type.size
            }
            return size
        }
    }

    var format: Format
    var elements: [Element]
    /// Offset of the first byte after the `end_header` line.
    var bodyOffset: Int

    /// Longest header accepted, in bytes (comments included).
    static let maxHeaderBytes = 1 << 20

    /// Parses the header at the start of `bytes`.
    /// - Throws: `PLYProblem` describing what is wrong.
    static func parse(_ bytes: UnsafeRawBufferPointer) throws(PLYProblem) -> PLYHeader {
        guard bytes.count >= 3, bytes[0] == UInt8(ascii: "p"), bytes[1] == UInt8(ascii: "l"),
              bytes[2] == UInt8(ascii: "y")
        else { throw .badHeader("the file does not start with \"ply\" (not a PLY file)") }

        var format: Format?
        var elements: [Element] = []
        var lineStart = 0
        var lineNumber = 0
        let limit = min(bytes.count, maxHeaderBytes)
        while true {
            guard let newline = (lineStart..<limit).first(where: { bytes[$0] == UInt8(ascii: "\n") }) else {
                throw bytes.count > maxHeaderBytes
                    ? .badHeader("no \"end_header\" line in the first \(maxHeaderBytes) bytes")
                    : .badHeader("the header has no \"end_header\" line (file truncated?)")
            }
            lineNumber += 1
            let line = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[lineStart..<newline]), as: UTF8.self)
            lineStart = newline + 1
            let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" }).map(String.init)
            guard let keyword = words.first else { continue }  // blank line
            if lineNumber == 1 {
                guard words == ["ply"] else { throw .badHeader("the first line is \"\(line)\", not \"ply\"") }
                continue
            }
            switch keyword {
            case "format":
                guard words.count == 3, let value = Format(rawValue: words[1]) else {
                    throw .badHeader("unsupported format line \"\(line)\" (expected ascii, binary_little_endian or binary_big_endian)")
                }
                guard words[2] == "1.0" || words[2] == "1" else { throw .badHeader("unsupported PLY version \"\(words[2])\" (expected 1.0)") }
                format = value
            case "comment", "obj_info":
                continue
            case "element":
                guard words.count == 3, let count = Int(words[2]), count >= 0 else {
                    throw .badHeader("line \(lineNumber), \"\(line)\": expected \"element <name> <count>\"")
                }
                elements.append(Element(name: words[1], count: count, properties: []))
            case "property":
                guard !elements.isEmpty else {
                    throw .badHeader("line \(lineNumber): a property comes before any element")
                }
                elements[elements.count - 1].properties.append(try property(words, line: line, lineNumber: lineNumber))
            case "end_header":
                guard let format else { throw .badHeader("no \"format\" line before end_header") }
                return PLYHeader(format: format, elements: elements, bodyOffset: lineStart)
            default:
                throw .badHeader("line \(lineNumber): unknown keyword \"\(keyword)\"")
            }
        }
    }

    private static func property(_ words: [String], line: String, lineNumber: Int) throws(PLYProblem) -> Property {
        func type(_ name: String) throws(PLYProblem) -> ScalarType {
            guard let type = ScalarType(name: name) else {
                throw .unsupportedType("line \(lineNumber): unsupported property type \"\(name)\"")
            }
            return type
        }
        if words.count == 5 && words[1] == "list" {
            let countType = try type(words[2])
            guard countType.isInteger else {
                throw .unsupportedType("line \(lineNumber): a list length must have an integer type, not \"\(words[2])\"")
            }
            return Property(name: words[4], type: try type(words[3]), listCountType: countType)
        }
        guard words.count == 3 else {
            throw .badHeader("line \(lineNumber), \"\(line)\": expected \"property <type> <name>\" or \"property list <count type> <item type> <name>\"")
        }
        return Property(name: words[2], type: try type(words[1]), listCountType: nil)
    }
}

/// What is wrong with a PLY file, in words (the reader adds the file's path).
enum PLYProblem: Error {
    case badHeader(String)
    case unsupportedType(String)
    case truncated(String)
    case badValue(String)
    case badIndex(String)

    var message: String {
        switch self {
        case .badHeader(let text): return "bad PLY header: \(text)"
        case .unsupportedType(let text): return "unsupported PLY type: \(text)"
        case .truncated(let text): return "truncated PLY file: \(text)"
        case .badValue(let text): return "bad PLY data: \(text)"
        case .badIndex(let text): return "PLY face index out of range: \(text)"
        }
    }
}
