extension MatchingStageOutput: CheckpointCodable {
    func encode(to writer: inout CheckpointWriter) {
        writer.write(pairCount)
        writer.write(geometries.count)
        for g in geometries {
            writer.write(g.pair.first)
            writer.write(g.pair.second)
            writer.write(array: g.keypoints1)
            writer.write(array: g.keypoints2)
            writer.write(optional: g.secondFromFirst)
            writer.write(optional: g.medianTriangulationAngleDegrees)
        }
    }

    init(from reader: inout CheckpointReader) throws {
        let pairCount = try reader.readInt()
        let count = try reader.readCount(stride: 16)
        var geometries: [TwoViewGeometry] = []
        geometries.reserveCapacity(count)
        for _ in 0..<count {
            let first = try reader.readInt(), second = try reader.readInt()
            let k1 = try reader.readArray(of: Int32.self), k2 = try reader.readArray(of: Int32.self)
            guard k1.count == k2.count else { throw CheckpointReader.Corrupt(description: "match lists of different lengths") }
            geometries.append(TwoViewGeometry(
                pair: ImagePair(first, second), keypoints1: k1, keypoints2: k2,
                secondFromFirst: try reader.readOptionalRigidTransform(),
                medianTriangulationAngleDegrees: try reader.readOptionalDouble()))
        }
        self.init(geometries: geometries, pairCount: pairCount)
    }
}
