import Foundation
import ReconstructionCore

/// Extracts the zero level of a `TSDFVolume` as a welded triangle mesh.
///
/// A cube (eight neighbouring voxel centres) produces faces only when all eight voxels were
/// observed with more than `minimumWeight`, so no faces bridge unobserved gaps. Vertices sit on
/// the voxel edges where the signed distance changes sign (linear interpolation) and are shared
/// by every triangle using that edge. Triangles run counter-clockwise seen from outside: their
/// normals point from negative distance (inside, behind the surface) to positive (free space).
public struct MarchingCubes: Sendable {
    public struct Options: Sendable, Equatable {
        /// Voxels whose accumulated weight is at or below this count as unobserved.
        public var minimumWeight: Float = 0
        /// Compute per-vertex normals (area-weighted face normals).
        public var computesNormals = true
        /// Worker threads.
        public var workers = ProcessInfo.processInfo.activeProcessorCount
        public init() {}
    }

    public var options: Options

    public init(options: Options = Options()) {
        self.options = options
    }

    /// The mesh of the volume's zero level; colours when the volume holds colour, normals on request.
    public func extractMesh(from volume: TSDFVolume) -> TriangleMesh {
        let blockCount = volume.blockCount
        guard blockCount > 0 else { return TriangleMesh() }
        let workers = max(1, options.workers)
        let chunk = max(1, min(256, blockCount / (workers * 8)))
        let chunkCount = (blockCount + chunk - 1) / chunk
        let minimumWeight = options.minimumWeight

        // Phase 1: each block makes the vertices on the three edges leaving each of its voxels (+x, +y, +z).
        let vertexChunks: [[BlockEdgeVertices]] = parallelMap(chunkCount, workers: workers) { c in
            var grid = NeighbourhoodGrid()
            return ((c * chunk)..<min(blockCount, (c + 1) * chunk)).map { b in
                grid.load(block: b, from: volume, minimumWeight: minimumWeight)
                return BlockEdgeVertices(grid: grid, block: b, volume: volume)
            }
        }
        let perBlock = vertexChunks.flatMap { $0 }
        var offsets = [Int](repeating: 0, count: blockCount + 1)
        for b in 0..<blockCount { offsets[b + 1] = offsets[b] + perBlock[b].positions.count }
        let vertexOffsets = offsets

        // Phase 2: each block emits the triangles of the cubes whose lowest corner is one of its voxels.
        let triangleChunks: [[SIMD3<UInt32>]] = parallelMap(chunkCount, workers: workers) { c in
            var grid = NeighbourhoodGrid()
            var triangles: [SIMD3<UInt32>] = []
            for b in (c * chunk)..<min(blockCount, (c + 1) * chunk) {
                grid.load(block: b, from: volume, minimumWeight: minimumWeight)
                grid.emitTriangles(edgeVertices: perBlock, vertexOffsets: vertexOffsets, into: &triangles)
            }
            return triangles
        }

        var mesh = TriangleMesh()
        mesh.positions.reserveCapacity(offsets[blockCount])
        for block in perBlock { mesh.positions += block.positions }
        if perBlock.contains(where: { $0.anyColour }) {
            mesh.colors.reserveCapacity(offsets[blockCount])
            for block in perBlock { mesh.colors += block.colours }
        }
        mesh.triangles = triangleChunks.flatMap { $0 }
        mesh = mesh.removingUnreferencedVertices()
        if options.computesNormals { mesh.normals = mesh.computedVertexNormals() }
        return mesh
    }
}

/// The voxels of one block plus one layer of its +x, +y, +z neighbours (9 × 9 × 9), for marching cubes.
struct NeighbourhoodGrid {
    static let side = 9
    /// Voxels at grid `x + 9 · (y + 9 · z)`; unobserved (weight 0) where no block is allocated.
    var voxels = [TSDFVoxel](repeating: .unobserved, count: 729)
    /// Whether each grid voxel's weight exceeds the minimum.
    var observed = [Bool](repeating: false, count: 729)
    /// Block indices at offsets `(i & 1, (i >> 1) & 1, (i >> 2) & 1)` from the centre block; -1 where absent.
    var neighbours = [Int32](repeating: -1, count: 8)
    /// Integer coordinates of the centre block.
    var blockCoordinate = SIMD3<Int32>(repeating: 0)

    mutating func load(block b: Int, from volume: TSDFVolume, minimumWeight: Float) {
        let side = TSDFVolume.blockSide
        blockCoordinate = volume.blockCoordinates[b]
        for i in 0..<8 {
            let offset = SIMD3<Int32>(Int32(i & 1), Int32((i >> 1) & 1), Int32((i >> 2) & 1))
            neighbours[i] = i == 0 ? Int32(b) : volume.blockIndex(blockCoordinate &+ offset)
        }
        let storage = volume.storage
        voxels.withUnsafeMutableBufferPointer { grid in
            observed.withUnsafeMutableBufferPointer { seen in
                for i in 0..<8 {
                    let ox = i & 1, oy = (i >> 1) & 1, oz = (i >> 2) & 1
                    let xs = ox == 0 ? 0..<side : 0..<1, ys = oy == 0 ? 0..<side : 0..<1, zs = oz == 0 ? 0..<side : 0..<1
                    let n = Int(neighbours[i])
                    for z in zs {
                        for y in ys {
                            for x in xs {
                                let g = (x + ox * side) + 9 * ((y + oy * side) + 9 * (z + oz * side))
                                if n < 0 {
                                    grid[g] = .unobserved
                                    seen[g] = false
                                } else {
                                    let v = storage.block(n)[x + side * (y + side * z)]
                                    grid[g] = v
                                    seen[g] = v.weight > minimumWeight && v.distance.isFinite
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    /// Grid offsets of the eight cube corners, in marching-cubes corner order.
    static let cornerOffsets: [Int] = (0..<8).map { c in (c & 1) + 9 * ((c >> 1) & 1) + 81 * ((c >> 2) & 1) }

    /// Appends the triangles (global vertex indices) of the centre block's 8³ cubes.
    func emitTriangles(edgeVertices: [BlockEdgeVertices], vertexOffsets: [Int], into triangles: inout [SIMD3<UInt32>]) {
        let side = TSDFVolume.blockSide
        let cornerOffsets = Self.cornerOffsets
        let table = MarchingCubesTable.triangles
        let edgeStart = MarchingCubesTable.edgeStart, edgeAxis = MarchingCubesTable.edgeAxis
        for z in 0..<side {
            for y in 0..<side {
                for x in 0..<side {
                    let g = x + 9 * (y + 9 * z)
                    var caseIndex = 0
                    var complete = true
                    for c in 0..<8 {
                        let k = g + cornerOffsets[c]
                        if !observed[k] { complete = false; break }
                        if voxels[k].distance < 0 { caseIndex |= 1 << c }
                    }
                    guard complete, caseIndex != 0, caseIndex != 255 else { continue }
                    for triangle in table[caseIndex] {
                        var ids = SIMD3<UInt32>(repeating: 0)
                        for corner in 0..<3 {
                            let e = Int(triangle[corner])
                            let s = edgeStart[e]
                            let ox = x + (s & 1), oy = y + ((s >> 1) & 1), oz = z + ((s >> 2) & 1)
                            let neighbour = (ox >> 3) | ((oy >> 3) << 1) | ((oz >> 3) << 2)
                            let block = Int(neighbours[neighbour])
                            let slot = ((ox & 7) + side * ((oy & 7) + side * (oz & 7))) * 3 + edgeAxis[e]
                            let local = edgeVertices[block].localIndex(ofSlot: slot)
                            ids[corner] = UInt32(vertexOffsets[block] + local)
                        }
                        triangles.append(ids)
                    }
                }
            }
        }
    }
}

/// The vertices a block owns: one per sign-changing edge leaving its voxels in +x, +y or +z,
/// in slot order (slot = voxel index × 3 + axis).
struct BlockEdgeVertices: Sendable {
    var positions: [SIMD3<Float>] = []
    /// Vertex colours (0…1); `TriangleMesh.uncolouredGrey` where neither end voxel has colour.
    var colours: [SIMD3<Float>] = []
    /// Whether any vertex took its colour from a coloured voxel.
    var anyColour = false
    /// Bit per slot: whether that edge has a vertex.
    var occupied = [UInt64](repeating: 0, count: 24)
    /// Vertices in the words before each word of `occupied`.
    var before = [Int32](repeating: 0, count: 24)

    init(grid: NeighbourhoodGrid, block b: Int, volume: TSDFVolume) {
        let side = TSDFVolume.blockSide
        let voxelSize = volume.voxelSize
        let firstVoxel = SIMD3<Float>(grid.blockCoordinate &* Int32(side)) + 0.5
        let steps = [1, 9, 81]
        var colourless = 0
        for z in 0..<side {
            for y in 0..<side {
                for x in 0..<side {
                    let g = x + 9 * (y + 9 * z)
                    guard grid.observed[g] else { continue }
                    let v0 = grid.voxels[g]
                    for axis in 0..<3 {
                        let h = g + steps[axis]
                        guard grid.observed[h] else { continue }
                        let v1 = grid.voxels[h]
                        guard (v0.distance < 0) != (v1.distance < 0) else { continue }
                        let t = v0.distance / (v0.distance - v1.distance)
                        var p = firstVoxel + SIMD3(Float(x), Float(y), Float(z))
                        p[axis] += t
                        let slot = (x + side * (y + side * z)) * 3 + axis
                        occupied[slot >> 6] |= 1 << UInt64(slot & 63)
                        positions.append(p * voxelSize)
                        switch (v0.hasColour, v1.hasColour) {
                        case (true, true): colours.append(v0.colour * (1 - t) + v1.colour * t)
                        case (true, false): colours.append(v0.colour)
                        case (false, true): colours.append(v1.colour)
                        case (false, false):
                            colours.append(TriangleMesh.uncolouredGrey)
                            colourless += 1
                        }
                    }
                }
            }
        }
        anyColour = colourless < colours.count
        var running: Int32 = 0
        for w in 0..<24 {
            before[w] = running
            running += Int32(occupied[w].nonzeroBitCount)
        }
    }

    /// Index among this block's vertices of the vertex on `slot`'s edge (which must have one).
    @inline(__always)
    func localIndex(ofSlot slot: Int) -> Int {
        let word = slot >> 6, bit = UInt64(slot & 63)
        let lower = occupied[word] & ((1 << bit) &- 1)
        return Int(before[word]) + lower.nonzeroBitCount
    }
}
