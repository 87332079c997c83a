/// A stage output that can be written to and read back from a checkpoint file exactly (bit for
/// bit), so a resumed run continues from the same numbers.
protocol CheckpointCodable {
    func encode(to writer: inout CheckpointWriter)
    init(from reader: inout CheckpointReader) throws
}
