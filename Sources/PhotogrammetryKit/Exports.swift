// One `import PhotogrammetryKit` brings the session, its requests, outputs and results, and the
// geometry types they carry (`BoundingBox`, `Vector3`, `PointCloud`, …), as one `import
// RealityKit` does on Apple's platforms.
@_exported import Reconstruction
@_exported import ReconstructionCore
