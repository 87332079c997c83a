import Foundation

/// Just enough ISO-BMFF (HEIF) box reading and writing for test fixtures: the primary coded item
/// of a simple HEIC file (one `hvc1` item, no grid) and new files built from such items.
enum HEIFBoxes {
    struct Box {
        var type: String
        /// Offsets in the file: the whole box, and its payload (after size and type).
        var start: Int
        var payloadStart: Int
        var end: Int
    }

    /// A coded image item: its properties (whole boxes, in association order) and coded bytes.
    struct Item {
        var properties: [Data]
        var data: Data
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    static func boxes(_ file: Data, from start: Int, to end: Int) throws -> [Box] {
        var result: [Box] = []
        var offset = start
        while offset + 8 <= end {
            var size = Int(uint(file, offset, 4))
            var header = 8
            if size == 1 {
                size = Int(uint(file, offset + 8, 8))
                header = 16
            }
            guard size >= header, offset + size <= end else { throw Failure(description: "malformed box at \(offset)") }
            let type = String(decoding: file[(offset + 4)..<(offset + 8)], as: UTF8.self)
            result.append(Box(type: type, start: offset, payloadStart: offset + header, end: offset + size))
            offset += size
        }
        return result
    }

    static func uint(_ data: Data, _ offset: Int, _ bytes: Int) -> UInt64 {
        var value: UInt64 = 0
        for i in 0..<bytes { value = value << 8 | UInt64(data[data.startIndex + offset + i]) }
        return value
    }

    /// The primary item of a HEIC file written by heif-enc (an `hvc1` item stored in `mdat`).
    static func primaryItem(of file: Data) throws -> Item {
        let file = Data(file)  // zero-based indices
        guard let meta = try boxes(file, from: 0, to: file.count).first(where: { $0.type == "meta" }) else {
            throw Failure(description: "no meta box")
        }
        let children = try boxes(file, from: meta.payloadStart + 4, to: meta.end)
        func child(_ type: String) throws -> Box {
            guard let box = children.first(where: { $0.type == type }) else { throw Failure(description: "no \(type) box") }
            return box
        }
        let primary = Int(uint(file, try child("pitm").payloadStart + 4, 2))
        let iinf = try child("iinf")
        guard file[iinf.payloadStart..<iinf.end].range(of: Data("hvc1".utf8)) != nil,
              file[iinf.payloadStart..<iinf.end].range(of: Data("grid".utf8)) == nil else {
            throw Failure(description: "not a single hvc1 item (heif-enc used a grid: pick another image size)")
        }
        let iprp = try child("iprp")
        let iprpChildren = try boxes(file, from: iprp.payloadStart, to: iprp.end)
        guard let ipco = iprpChildren.first(where: { $0.type == "ipco" }), let ipma = iprpChildren.first(where: { $0.type == "ipma" }) else {
            throw Failure(description: "no ipco or ipma box")
        }
        let properties = try boxes(file, from: ipco.payloadStart, to: ipco.end).map { file[$0.start..<$0.end] }
        // ipma: version, flags, entry count; per entry item id (16 bits for version 0), count, indices.
        let version = file[ipma.payloadStart], wideIndices = file[ipma.payloadStart + 3] & 1 == 1
        var p = ipma.payloadStart + 4
        let entries = Int(uint(file, p, 4))
        p += 4
        var associated: [Data]?
        for _ in 0..<entries {
            let item = Int(uint(file, p, version < 1 ? 2 : 4))
            p += version < 1 ? 2 : 4
            let count = Int(file[p])
            p += 1
            var list: [Data] = []
            for _ in 0..<count {
                let index = wideIndices ? Int(uint(file, p, 2) & 0x7FFF) : Int(file[p] & 0x7F)
                p += wideIndices ? 2 : 1
                if index > 0 { list.append(Data(properties[index - 1])) }
            }
            if item == primary { associated = list }
        }
        guard let associated else { throw Failure(description: "the primary item has no properties") }
        return Item(properties: associated, data: try itemData(file, iloc: try child("iloc"), item: primary))
    }

    /// The bytes of `item` from the iloc box (construction method 0: file offsets).
    static func itemData(_ file: Data, iloc: Box, item wanted: Int) throws -> Data {
        let version = file[iloc.payloadStart]
        var p = iloc.payloadStart + 4
        let offsetSize = Int(file[p] >> 4), lengthSize = Int(file[p] & 15)
        let baseSize = Int(file[p + 1] >> 4), indexSize = version >= 1 ? Int(file[p + 1] & 15) : 0
        p += 2
        func read(_ bytes: Int) -> Int {
            defer { p += bytes }
            return bytes == 0 ? 0 : Int(uint(file, p, bytes))
        }
        let count = version < 2 ? read(2) : read(4)
        for _ in 0..<count {
            let item = version < 2 ? read(2) : read(4)
            let method = version >= 1 ? read(2) & 15 : 0
            _ = read(2)  // data reference index
            let base = read(baseSize)
            var data = Data()
            for _ in 0..<read(2) {
                if version >= 1 { _ = read(indexSize) }
                let offset = read(offsetSize), length = read(lengthSize)
                data.append(file[(base + offset)..<(base + offset + length)])
            }
            if item == wanted {
                guard method == 0 else { throw Failure(description: "item data is not in the file's mdat") }
                return data
            }
        }
        throw Failure(description: "item \(wanted) not in iloc")
    }

    static func box(_ type: String, _ payload: Data) -> Data {
        var data = be(UInt64(8 + payload.count), 4)
        data.append(Data(type.utf8))
        data.append(payload)
        return data
    }

    static func fullBox(_ type: String, version: UInt8 = 0, flags: UInt32 = 0, _ payload: Data) -> Data {
        var body = Data([version])
        body.append(be(UInt64(flags), 3))
        body.append(payload)
        return box(type, body)
    }

    static func be(_ value: UInt64, _ bytes: Int) -> Data {
        Data((0..<bytes).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * UInt64($0))) })
    }
}
