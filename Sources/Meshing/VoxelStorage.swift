/// Voxel blocks in fixed-size pages, so that growing the volume never copies it (an array
/// doubling its capacity would briefly hold the old and the new copy, 2.5 times the data).
///
/// A reference type shared by copies of a `TSDFVolume`; the volume copies it before mutating
/// when it is not the only owner (copy-on-write), so its value semantics hold. Concurrent
/// workers may write different blocks through `block(_:)` while nothing is appended.
final class VoxelStorage: @unchecked Sendable {
    /// Blocks per page (3 MB pages for 12-byte voxels).
    static let blocksPerPage = 512
    static let voxelsPerPage = blocksPerPage * TSDFVolume.blockVoxelCount

    private var pages: [UnsafeMutablePointer<TSDFVoxel>] = []
    /// Number of blocks in use.
    private(set) var blockCount = 0

    init() {}

    deinit {
        for page in pages { page.deallocate() }  // TSDFVoxel is trivial: no deinitialisation needed
    }

    /// An independent copy.
    func copy() -> VoxelStorage {
        let clone = VoxelStorage()
        for page in pages {
            let newPage = UnsafeMutablePointer<TSDFVoxel>.allocate(capacity: Self.voxelsPerPage)
            newPage.initialize(from: page, count: Self.voxelsPerPage)
            clone.pages.append(newPage)
        }
        clone.blockCount = blockCount
        return clone
    }

    /// Appends `count` blocks of unobserved voxels.
    func appendBlocks(_ count: Int) {
        let total = blockCount + count
        while pages.count * Self.blocksPerPage < total {
            let page = UnsafeMutablePointer<TSDFVoxel>.allocate(capacity: Self.voxelsPerPage)
            page.initialize(repeating: .unobserved, count: Self.voxelsPerPage)
            pages.append(page)
        }
        blockCount = total
    }

    /// The first of block `b`'s voxels (`blockVoxelCount` of them, x fastest).
    @inline(__always)
    func block(_ b: Int) -> UnsafeMutablePointer<TSDFVoxel> {
        pages[b / Self.blocksPerPage] + (b % Self.blocksPerPage) * TSDFVolume.blockVoxelCount
    }

    /// Bytes allocated for voxels.
    var bytes: Int { pages.count * Self.voxelsPerPage * MemoryLayout<TSDFVoxel>.stride }
}
