import Foundation

/// HEIC test fixtures made at run time: photos encoded by libheif's `heif-enc` (Debian
/// `libheif-examples`), and photos with an embedded depth image assembled from two such files
/// (libheif 1.15 can read depth images but not write them).
public enum HEIFFixture {
    /// How the depth samples map to depth, written as HEVC's depth representation SEI in the
    /// depth item's `auxC` property (as libheif reads it).
    public struct DepthRepresentation {
        /// 0 uniform inverse Z, 1 uniform disparity, 2 uniform Z.
        public var type: Int
        public var zNear: Double
        public var zFar: Double

        public init(type: Int, zNear: Double, zFar: Double) {
            self.type = type
            self.zNear = zNear
            self.zFar = zFar
        }
    }

    /// The `heif-enc` executable, nil when it is not installed.
    public static var encoder: URL? {
        for folder in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin").split(separator: ":") {
            let candidate = URL(fileURLWithPath: String(folder)).appendingPathComponent("heif-enc")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        return nil
    }

    public struct EncoderMissing: Error, CustomStringConvertible {
        public init() {}
        public var description: String {
            "heif-enc is not installed (Debian package libheif-examples; Scripts/install-deps.sh installs it)"
        }
    }

    /// `png` (PNG bytes) encoded as HEIC by heif-enc; `lossless` for exact samples (depth).
    /// Sizes heif-enc codes without a grid: multiples of 32 of at least 64 (e.g. 96×64, 64×64).
    public static func encode(png: Data, lossless: Bool = false, quality: Int = 92) throws -> Data {
        guard let encoder else { throw EncoderMissing() }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("heif-fixture-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent("in.png"), output = folder.appendingPathComponent("out.heic")
        try png.write(to: input)
        let process = Process()
        process.executableURL = encoder
        process.arguments = (lossless ? ["-L"] : ["-q", String(quality)]) + [input.path, "-o", output.path]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let log = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw HEIFBoxes.Failure(description: "heif-enc failed: \(String(decoding: log, as: UTF8.self))")
        }
        return try Data(contentsOf: output)
    }

    /// A HEIC file whose primary image is `photo`'s and whose auxiliary depth image (URN
    /// urn:mpeg:hevc:2015:auxid:2, linked by an `auxl` reference) is `depth`'s, both HEIC files
    /// from `encode`; with `representation`, the depth item carries depth representation info.
    public static func withDepth(photo: Data, depth: Data, representation: DepthRepresentation?) throws -> Data {
        let main = try HEIFBoxes.primaryItem(of: photo), aux = try HEIFBoxes.primaryItem(of: depth)
        var auxType = Data("urn:mpeg:hevc:2015:auxid:2".utf8)
        auxType.append(0)
        if let representation { auxType.append(seiSubtypes(representation)) }
        let properties = main.properties + aux.properties + [HEIFBoxes.fullBox("auxC", auxType)]
        let ipco = HEIFBoxes.box("ipco", properties.reduce(Data(), +))
        func association(_ item: UInt64, _ indices: ClosedRange<Int>) -> Data {
            var data = HEIFBoxes.be(item, 2)
            data.append(UInt8(indices.count))
            data.append(contentsOf: indices.map { UInt8($0) | ($0 == indices.lowerBound ? 0x80 : 0) })  // decoder config essential
            return data
        }
        let ipma = HEIFBoxes.fullBox("ipma", HEIFBoxes.be(2, 4) + association(1, 1...main.properties.count)
            + association(2, (main.properties.count + 1)...properties.count))
        let iprp = HEIFBoxes.box("iprp", ipco + ipma)
        let hdlr = HEIFBoxes.fullBox("hdlr", Data(count: 4) + Data("pict".utf8) + Data(count: 13))
        let pitm = HEIFBoxes.fullBox("pitm", HEIFBoxes.be(1, 2))
        func infe(_ item: UInt64, hidden: Bool) -> Data {
            HEIFBoxes.fullBox("infe", version: 2, flags: hidden ? 1 : 0, HEIFBoxes.be(item, 2) + HEIFBoxes.be(0, 2) + Data("hvc1".utf8) + Data([0]))
        }
        let iinf = HEIFBoxes.fullBox("iinf", HEIFBoxes.be(2, 2) + infe(1, hidden: false) + infe(2, hidden: true))
        let iref = HEIFBoxes.fullBox("iref", HEIFBoxes.box("auxl", HEIFBoxes.be(2, 2) + HEIFBoxes.be(1, 2) + HEIFBoxes.be(1, 2)))
        func iloc(_ first: Int, _ second: Int) -> Data {
            HEIFBoxes.fullBox("iloc", Data([0x44, 0x00]) + HEIFBoxes.be(2, 2)
                + HEIFBoxes.be(1, 2) + HEIFBoxes.be(0, 2) + HEIFBoxes.be(1, 2) + HEIFBoxes.be(UInt64(first), 4) + HEIFBoxes.be(UInt64(main.data.count), 4)
                + HEIFBoxes.be(2, 2) + HEIFBoxes.be(0, 2) + HEIFBoxes.be(1, 2) + HEIFBoxes.be(UInt64(second), 4) + HEIFBoxes.be(UInt64(aux.data.count), 4))
        }
        let ftyp = HEIFBoxes.box("ftyp", Data("heic".utf8) + HEIFBoxes.be(0, 4) + Data("mif1heic".utf8))
        func meta(_ first: Int, _ second: Int) -> Data { HEIFBoxes.fullBox("meta", hdlr + pitm + iinf + iref + iprp + iloc(first, second)) }
        let dataStart = ftyp.count + meta(0, 0).count + 8
        return ftyp + meta(dataStart, dataStart + main.data.count) + HEIFBoxes.box("mdat", main.data + aux.data)
    }

    /// auxC subtypes as libheif parses them: a 32-bit length, then one SEI NAL unit (32-bit size,
    /// NAL header of type 39, payload type 177 depth_representation_info, payload size, payload).
    static func seiSubtypes(_ representation: DepthRepresentation) -> Data {
        var bits = BitWriter()
        bits.write(1, 1)  // z_near present
        bits.write(1, 1)  // z_far present
        bits.write(0, 1)  // d_min absent
        bits.write(0, 1)  // d_max absent
        bits.writeExpGolomb(UInt64(representation.type))
        bits.writeElement(representation.zNear)
        bits.writeElement(representation.zFar)
        let payload = bits.bytes
        let nal = Data([39 << 1, 1, 177, UInt8(payload.count)]) + payload
        let rest = HEIFBoxes.be(UInt64(nal.count), 4) + nal
        return HEIFBoxes.be(UInt64(rest.count), 4) + rest
    }

    struct BitWriter {
        var bits: [UInt8] = []

        mutating func write(_ value: UInt64, _ count: Int) {
            for i in (0..<count).reversed() { bits.append(UInt8((value >> UInt64(i)) & 1)) }
        }

        mutating func writeExpGolomb(_ value: UInt64) {
            let coded = value + 1
            let length = 64 - coded.leadingZeroBitCount
            write(0, length - 1)
            write(coded, length)
        }

        /// A depth_rep_info_element: sign, 7-bit exponent (bias 31), 16-bit mantissa (length − 1 in 5 bits).
        mutating func writeElement(_ value: Double) {
            let exponent = Int(floor(log2(value))) + 31
            let mantissa = min(65535, UInt64(((value / pow(2, Double(exponent - 31)) - 1) * 65536).rounded()))
            write(value < 0 ? 1 : 0, 1)
            write(UInt64(exponent), 7)
            write(15, 5)
            write(mantissa, 16)
        }

        var bytes: Data {
            let padded = bits + [UInt8](repeating: 0, count: (8 - bits.count % 8) % 8)
            return Data(stride(from: 0, to: padded.count, by: 8).map { start in
                padded[start..<(start + 8)].reduce(UInt8(0)) { $0 << 1 | $1 }
            })
        }
    }
}
