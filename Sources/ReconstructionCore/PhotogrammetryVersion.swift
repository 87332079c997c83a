/// The release of this package, as `photogrammetry --version` prints it and the NodeODM server's
/// `/info` reports it (`engineVersion`), so batch logs can say which build made a result.
public enum PhotogrammetryVersion {
    public static let string = "0.1.0"
}
