extension ImageFeatures: CheckpointCodable {
    func encode(to writer: inout CheckpointWriter) {
        writer.write(imageWidth)
        writer.write(imageHeight)
        writer.write(array: positions)
        writer.write(array: scales)
        writer.write(array: descriptors)
        writer.write(array: colors)
    }

    init(from reader: inout CheckpointReader) throws {
        let width = try reader.readInt(), height = try reader.readInt()
        let positions = try reader.readArray(of: Float.self)
        let scales = try reader.readArray(of: Float.self)
        let descriptors = try reader.readArray(of: UInt8.self)
        let colors = try reader.readArray(of: UInt8.self)
        let n = scales.count
        guard positions.count == 2 * n, descriptors.count == 128 * n, colors.count == 3 * n else {
            throw CheckpointReader.Corrupt(description: "feature arrays of inconsistent sizes")
        }
        self.init(imageWidth: width, imageHeight: height, positions: positions, scales: scales,
                  descriptors: descriptors, colors: colors)
    }
}
