// swift-tools-version:6.2
import PackageDescription

// System libraries (Debian): libopencv-dev, libceres-dev, libeigen3-dev, libdnnl-dev (oneDNN: the
// descriptor-matching products), libheif-dev (HEIC, which OpenCV 4.6 cannot read; its header is
// under the multiarch include folder), libjpeg-dev (finds JPEG data damaged mid-file, which OpenCV
// decodes grey without an error) — see Scripts/install-deps.sh.
// Only the C++ shim sees their headers; Swift reaches it through a plain C header.
#if arch(arm64)
let multiarch = "aarch64-linux-gnu"
#else
let multiarch = "x86_64-linux-gnu"
#endif
let systemIncludes = [
    "-I/usr/include/opencv4", "-I/usr/include/eigen3", "-I/usr/include/\(multiarch)",
]
let shimLibraries: [LinkerSetting] = [
    "opencv_core", "opencv_imgproc", "opencv_imgcodecs", "opencv_features2d", "opencv_calib3d",
    "ceres", "glog", "gflags", "dnnl", "gomp", "meshoptimizer", "embree3", "heif", "jpeg",
].map { .linkedLibrary($0) }

let package = Package(
    name: "Photogrammetry",
    platforms: [.macOS(.v14)],
    products: [
        .library(name: "ReconstructionCore", targets: ["ReconstructionCore"]),
        .library(name: "Reconstruction", targets: ["Reconstruction"]),
        .library(name: "PhotogrammetryKit", targets: ["PhotogrammetryKit"]),
        .library(name: "CaptureIO", targets: ["CaptureIO"]),
        .library(name: "ModelExport", targets: ["ModelExport"]),
        .library(name: "Rendering", targets: ["Rendering"]),
        .library(name: "SyntheticCapture", targets: ["SyntheticCapture"]),
        .library(name: "Reporting", targets: ["Reporting"]),
        .library(name: "Meshing", targets: ["Meshing"]),
        .library(name: "Texturing", targets: ["Texturing"]),
        .library(name: "CaptureReplay", targets: ["CaptureReplay"]),
        .library(name: "BatchRunner", targets: ["BatchRunner"]),
        .library(name: "NodeODMServer", targets: ["NodeODMServer"]),
        .executable(name: "photogrammetry", targets: ["photogrammetry"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/vapor/multipart-kit", from: "4.7.1"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.14.0"),
    ],
    targets: [
        // C/C++ shim: the only code that includes OpenCV, Ceres and Eigen. Public header is plain C.
        .target(
            name: "CReconstruction",
            cxxSettings: [.unsafeFlags(systemIncludes + ["-O2", "-DNDEBUG", "-fno-math-errno"])],
            linkerSettings: shimLibraries
        ),
        // Pure core: geometry, scene types, evaluation maths. No I/O (FileReadFailure only looks at a
        // path to say why a read failed).
        .target(name: "ReconstructionCore"),
        // Surface from depth: TSDF fusion, marching cubes, mesh cleanup. Pure Swift, no I/O.
        .target(name: "Meshing", dependencies: ["ReconstructionCore"]),
        // Models: UV atlas (charts, flattening, packing) and texture baking (diffuse from photos,
        // normal, displacement, occlusion, roughness). Pure Swift: ray queries come through a
        // protocol the pipeline implements.
        .target(name: "Texturing", dependencies: ["ReconstructionCore", "Rendering"]),
        // Pipeline: stages, bridge over the C ABI, scheduling.
        .target(name: "Reconstruction", dependencies: ["ReconstructionCore", "CReconstruction", "Meshing", "Texturing"]),
        // Formats: reading captures and ground truth; writing pose and model files.
        .target(name: "CaptureIO", dependencies: ["ReconstructionCore"]),
        .target(name: "ModelExport", dependencies: ["ReconstructionCore"]),
        // CPU rasterizer: meshes seen by a camera into colour, depth and triangle-id buffers. No I/O.
        .target(name: "Rendering", dependencies: ["ReconstructionCore"]),
        // Synthetic Object Capture-style captures with exact truth, rendered on demand. No I/O.
        .target(name: "SyntheticCapture", dependencies: ["ReconstructionCore", "Rendering"]),
        // Reports: plots drawn into RGBImages and HTML text. Pure: the caller writes the files.
        .target(name: "Reporting", dependencies: ["ReconstructionCore"]),
        // Guided-capture driver: replays a recorded frame stream through the pure CaptureSession,
        // measuring frames and performing its effects (writing the curated capture folder).
        .target(name: "CaptureReplay", dependencies: ["ReconstructionCore", "Reconstruction", "ModelExport", "CaptureIO", "PhotogrammetryKit"]),
        // Capture folders: photos and their sidecars (masks, depth, gravity, RGB-D keyframes, known
        // poses) as samples, the session over a folder, and the dense, surface, model and export
        // stages that write USDZ / GLB / OBJ. What a library user imports to run the whole pipeline.
        .target(name: "PhotogrammetryKit", dependencies: ["ReconstructionCore", "Reconstruction", "CaptureIO", "ModelExport", "Rendering", "Texturing", "Meshing"]),
        // Regression harness: reference datasets, thresholds, runs and reports.
        .target(name: "Regression", dependencies: ["PhotogrammetryKit", "ReconstructionCore", "Reconstruction", "CaptureIO", "ModelExport", "Reporting", "SyntheticCapture", "Texturing", "CaptureReplay"]),
        // Batch runner: job specs, the durable job ledger (SQLite through GRDB), workers, recovery.
        .target(name: "BatchRunner", dependencies: ["Reconstruction", "PhotogrammetryKit", "ModelExport", "ReconstructionCore", "CaptureIO",
                                                   .product(name: "GRDB", package: "GRDB.swift")]),
        // NodeODM-compatible HTTP API over the batch runner (`photogrammetry serve`): task folders,
        // uploads, options, assets; Hummingbird for HTTP, MultipartKit for streaming uploads.
        .target(name: "NodeODMServer", dependencies: ["BatchRunner", "CaptureIO", "ModelExport", "ReconstructionCore",
                                                     .product(name: "Hummingbird", package: "hummingbird"),
                                                     .product(name: "MultipartKit", package: "multipart-kit"),
                                                     .product(name: "NIOCore", package: "swift-nio"),
                                                     .product(name: "Logging", package: "swift-log")]),
        // CLI: argument parsing and wiring only.
        .executableTarget(
            name: "photogrammetry",
            dependencies: [
                "Reconstruction", "ReconstructionCore", "CaptureIO", "ModelExport", "PhotogrammetryKit", "Regression", "SyntheticCapture", "CaptureReplay",
                "BatchRunner", "NodeODMServer",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(name: "ReconstructionCoreTests", dependencies: ["ReconstructionCore"]),
        .testTarget(name: "ReconstructionTests", dependencies: ["Reconstruction", "ReconstructionCore", "CReconstruction", "TestSupport"]),
        .testTarget(name: "MeshingTests", dependencies: ["Meshing", "ReconstructionCore"]),
        // Helpers shared by test targets (running Python tools such as usd-core's validator).
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        .testTarget(name: "FormatsTests", dependencies: ["CaptureIO", "ModelExport", "ReconstructionCore", "TestSupport"]),
        .testTarget(name: "TexturingTests", dependencies: ["Texturing", "Rendering", "ReconstructionCore"]),
        .testTarget(name: "RenderingTests", dependencies: ["Rendering", "ReconstructionCore"]),
        .testTarget(name: "SyntheticCaptureTests", dependencies: ["SyntheticCapture", "Rendering", "ReconstructionCore"]),
        .testTarget(name: "ReportingTests", dependencies: ["Reporting", "ReconstructionCore"]),
        .testTarget(name: "RegressionTests", dependencies: ["PhotogrammetryKit", "Regression", "Reconstruction", "ReconstructionCore", "ModelExport",
                                                           "SyntheticCapture", "CaptureIO", "TestSupport"]),
        .testTarget(name: "CaptureReplayTests", dependencies: ["CaptureReplay", "PhotogrammetryKit", "Regression", "Reconstruction", "ReconstructionCore",
                                                               "SyntheticCapture", "CaptureIO"]),
        .testTarget(name: "BatchRunnerTests", dependencies: ["BatchRunner", "Reconstruction", "ReconstructionCore", "ModelExport",
                                                            .product(name: "GRDB", package: "GRDB.swift")]),
        .testTarget(name: "NodeODMServerTests", dependencies: ["NodeODMServer", "BatchRunner", "ModelExport", "TestSupport"]),
        .testTarget(
            name: "EndToEndTests",
            dependencies: ["Reconstruction", "ReconstructionCore", "CaptureIO", "ModelExport", "BatchRunner", "TestSupport"]
        ),
    ],
    cxxLanguageStandard: .cxx17
)
