import CaptureIO
import Foundation
import ReconstructionCore

/// The size of a job's input, read from photo headers when it is enqueued.
public struct JobFacts: Sendable, Equatable {
    public var imageCount: Int
    /// Pixels of the largest photo.
    public var largestImagePixels: Int

    public init(imageCount: Int = 0, largestImagePixels: Int = 0) {
        self.imageCount = imageCount
        self.largestImagePixels = largestImagePixels
    }

    /// Counts the photos of a capture folder and reads their sizes from their headers (JPEG and
    /// PNG; other formats count as `JobCostModel.unknownImagePixels`).
    public static func scan(input: URL) -> JobFacts {
        let photos = (try? ImageFolder.listImages(in: JobSpecValidator.imagesDirectory(of: input))) ?? []
        let largest = photos.map { ImageDimensions.read(contentsOf: $0)?.pixelCount ?? JobCostModel.unknownImagePixels }.max() ?? 0
        return JobFacts(imageCount: photos.count, largestImagePixels: largest)
    }
}

/// Estimated peak memory of a job, for the runner's memory budget.
///
/// The pose part was fitted to peak resident memory of `photogrammetry poses` on synthetic
/// captures (30 views of 320×240 to 1600×1200, and 60 of 640×480, within 5 %): a fixed base, a
/// feature-extraction workspace per thread that grows with the largest photo, and the features of
/// every photo, which the matcher keeps. The model part (dense stereo at the size the largest
/// requested level asks for, `DetailBudget.stereoImageDimension`; surface; texture baking at the
/// largest requested level) rests on two measurements only: a preview model of 30 views of
/// 320×240 (252 MB peak for the whole job) and the dense stage on fountain-P11's 11 views at
/// 768×512 (366 MB); its texture term is an allowance for the larger levels, not a fit. A full
/// model of fountain-P11 (11 photos of 3072×2048, stereo at 1536 px) peaked at 3.90 GB against
/// 3.3 GB estimated (Benchmarks/dense.md).
public struct JobCostModel: Sendable, Equatable {
    /// Pixels assumed for a photo whose header this model cannot read (12 MP).
    public static let unknownImagePixels = 12_000_000

    /// Process and pipeline baseline, bytes. Default 100 MB.
    public var baseBytes = 100_000_000
    /// Feature-extraction workspace per extracting thread, bytes per megapixel of the largest
    /// photo. Default 250 MB.
    public var extractionBytesPerMegapixel = 250_000_000
    /// Features a photo yields per megapixel (capped by `maxFeatures`). Default 4000.
    public var featuresPerMegapixel = 4000.0
    /// Features kept per photo at most (the pipeline's default). Default 8192.
    public var maxFeatures = 8192
    /// Memory per kept feature (RootSIFT descriptor, keypoint, matches), bytes. Default 640.
    public var bytesPerFeature = 640
    /// Dense, surface and model stages (after the pose stages have released their features): per
    /// photo pixel at the stereo size (depth, normals, costs and fusion; default 64 bytes), and per
    /// texel of the largest requested texture (maps and baking buffers, default 24 bytes).
    public var modelBytesPerStereoPixel = 64
    public var modelBytesPerTexel = 24

    public init() {}

    /// Peak bytes of `spec` on an input described by `facts`, with `threads` extraction threads:
    /// the base plus the larger of the pose stages' and the model stages' working memory (they
    /// do not overlap).
    public func estimateBytes(facts: JobFacts, spec: JobSpec?, threads: Int) -> Int {
        let megapixels = Double(facts.largestImagePixels) / 1_000_000
        let features = min(Double(maxFeatures), megapixels * featuresPerMegapixel)
        let poses = Double(max(1, min(threads, max(1, facts.imageCount)))) * megapixels * Double(extractionBytesPerMegapixel)
            + Double(facts.imageCount) * features * Double(bytesPerFeature)
        var model = 0.0
        let budgets = (spec?.requests ?? []).compactMap { request -> DetailBudget? in
            guard case .model(let model) = request else { return nil }
            return model.detail.budget(custom: model.custom ?? CustomDetailSpecification())
        }
        if let texels = budgets.map({ $0.textureDimension.rawValue * $0.textureDimension.rawValue }).max(),
           let side = DetailBudget.stereoImageDimension(serving: budgets) {
            let stereoPixels = min(facts.largestImagePixels, Self.stereoPixels(longestSide: side))
            model = Double(facts.imageCount * stereoPixels * modelBytesPerStereoPixel) + Double(texels * modelBytesPerTexel)
        }
        return Int(Double(baseBytes) + max(poses, model))
    }

    /// Pixels of a 4:3 photo scaled to `longestSide` (the headers give a pixel count, not a shape):
    /// 442 368 at 768 px.
    public static func stereoPixels(longestSide: Int) -> Int { longestSide * (longestSide * 3 / 4) }
}
