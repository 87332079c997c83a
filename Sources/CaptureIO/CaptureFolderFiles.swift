/// The files a capture folder may hold beside its photos and their per-photo sidecars, by name.
public enum CaptureFolderFiles {
    /// The intrinsics every photo shares (3×3 K, rows on lines).
    public static let intrinsics = "K.txt"
    /// The poses the capture device tracked for its photos, in `poses.json`'s format (metres).
    public static let trackedPoses = "tracked_poses.json"
}
