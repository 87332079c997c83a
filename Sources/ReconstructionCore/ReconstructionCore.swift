/// Pure reconstruction core: geometry, scene types and evaluation maths. No file or process I/O.
public enum ReconstructionCoreInfo {
    public static let version = "0.1.0"
}
