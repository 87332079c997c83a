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

/// Estimated peak memory of a job, for the runner's memory budget: the base plus the larger of
/// the pose stages' and the model stages' working memory (they do not overlap).
///
/// Fitted to peak resident memory (`/usr/bin/time -v`, two threads) of
/// - `photogrammetry poses` on synthetic vases (30 views of 320×240 to 1600×1200, 60 of 640×480)
///   and on fountain-P11 and Herz-Jesus-P8 (3072×2048), within 10 %: a feature-extraction
///   workspace per thread that grows with the pixels SIFT's scale space starts from (twice the
///   photo's size up to 1600 px, the photo's own above, at most 3200 px), and the features of
///   every photo, which the matcher keeps;
/// - `photogrammetry reconstruct` to a model at preview, medium and full, on those Strecha scenes
///   at stereo sizes 768, 1024 and 1536 px, a 40-view vase at 1024×768 and 30 views at 320×240:
///   −5 % to +14 % over 0.25 to 4.3 GB. Terms: the photos at the stereo size (depth maps,
///   normals, costs, fusion), the texels of the largest requested texture (maps and baking
///   buffers), and the photos decoded for baking (reduced by powers of two while their longer
///   side stays at least the texture's).
/// The headers give each photo's pixel count, not its shape: sizes are taken as 4:3.
public struct JobCostModel: Sendable, Equatable {
    /// Pixels assumed for a photo whose header this model cannot read (12 MP).
    public static let unknownImagePixels = 12_000_000

    /// Process and pipeline baseline, bytes. Default 100 MB.
    public var baseBytes = 100_000_000
    /// Feature-extraction workspace per extracting thread, bytes per megapixel of the image SIFT's
    /// scale space starts from. Default 62.5 MB.
    public var extractionBytesPerScaleSpaceMegapixel = 62_500_000
    /// Features a photo yields per megapixel (capped by `maxFeatures`). Default 4000.
    public var featuresPerMegapixel = 4000.0
    /// Features kept per photo at most (the pipeline's default). Default 8192.
    public var maxFeatures = 8192
    /// Memory per kept feature (RootSIFT descriptor, keypoint, matches), bytes. Default 640.
    public var bytesPerFeature = 640
    /// Dense, surface and model stages (after the pose stages have released their features),
    /// bytes: per photo pixel at the stereo size (default 48), per texel of the largest requested
    /// texture (default 38), per pixel of the photos decoded for baking (default 8).
    public var modelBytesPerStereoPixel = 48
    public var modelBytesPerTexel = 38
    public var modelBytesPerBakingPixel = 8

    public init() {}

    /// Peak bytes of `spec` on an input described by `facts`, with `threads` extraction threads.
    public func estimateBytes(facts: JobFacts, spec: JobSpec?, threads: Int) -> Int {
        let pixels = facts.largestImagePixels
        let megapixels = Double(pixels) / 1_000_000
        let features = min(Double(maxFeatures), megapixels * featuresPerMegapixel)
        let poses = Double(max(1, min(threads, max(1, facts.imageCount)))) * Double(Self.scaleSpacePixels(photoPixels: pixels)) / 1_000_000
            * Double(extractionBytesPerScaleSpaceMegapixel)
            + Double(facts.imageCount) * features * Double(bytesPerFeature)
        var model = 0.0
        let budgets = (spec?.requests ?? []).compactMap { request -> DetailBudget? in
            guard case .model(let model) = request else { return nil }
            return model.detail.budget(custom: model.custom ?? CustomDetailSpecification())
        }
        if let textureSide = budgets.map(\.textureDimension.rawValue).max(),
           let stereoSide = DetailBudget.stereoImageDimension(serving: budgets) {
            let stereoPixels = min(pixels, Self.pixels(longerSide: stereoSide))
            model = Double(facts.imageCount) * Double(stereoPixels * modelBytesPerStereoPixel
                                                      + Self.bakingPixels(photoPixels: pixels, textureSide: textureSide) * modelBytesPerBakingPixel)
                + Double(textureSide * textureSide * modelBytesPerTexel)
        }
        return Int(Double(baseBytes) + max(poses, model))
    }

    /// Pixels of a 4:3 image whose longer side is `longerSide`: 442 368 at 768 px.
    public static func pixels(longerSide: Int) -> Int { longerSide * (longerSide * 3 / 4) }

    /// Longer side of a 4:3 image of `pixels` pixels.
    static func longerSide(pixels: Int) -> Int { Int((Double(pixels) * 4 / 3).squareRoot()) }

    /// Pixels of the image SIFT's scale space starts from (`FeatureExtractor.Options`' defaults):
    /// the photo scaled to at most 3200 px, doubled in each direction when its longer side is at
    /// most 1600 px.
    public static func scaleSpacePixels(photoPixels: Int) -> Int {
        let capped = min(photoPixels, pixels(longerSide: 3200))
        return longerSide(pixels: capped) <= 1600 ? 4 * capped : capped
    }

    /// Pixels of a photo decoded for baking a `textureSide` texture (`ModelRun.loadViews`: halved
    /// up to three times while the longer side stays at least the texture's).
    public static func bakingPixels(photoPixels: Int, textureSide: Int) -> Int {
        let longer = longerSide(pixels: photoPixels)
        var reduction = 1
        while reduction < 8 && longer / (reduction * 2) >= textureSide { reduction *= 2 }
        return photoPixels / (reduction * reduction)
    }
}
