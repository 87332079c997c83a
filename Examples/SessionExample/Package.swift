// swift-tools-version:6.2
// A program that uses the photogrammetry library as another project would: as a package
// dependency. By default it depends on this repository by path; Scripts/check-library-use.sh sets
// PHOTOGRAMMETRY_PACKAGE_URL to a tagged clone so that it is resolved by version, the way a
// project depending on a release resolves it.
import PackageDescription

let photogrammetry: Package.Dependency = {
    if let url = Context.environment["PHOTOGRAMMETRY_PACKAGE_URL"] {
        return .package(url: url, from: "0.1.0")
    }
    return .package(name: "Photogrammetry", path: "../..")
}()

let package = Package(
    name: "SessionExample",
    dependencies: [photogrammetry],
    targets: [
        .executableTarget(name: "SessionExample", dependencies: [
            .product(name: "PhotogrammetryKit", package: "Photogrammetry"),
            .product(name: "Reconstruction", package: "Photogrammetry"),
        ]),
    ]
)
