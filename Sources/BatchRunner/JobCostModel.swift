import CaptureIO
import Foundation
import PhotogrammetryKit
import Reconstruction
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
/// Fitted (least squares on relative error) to peak resident memory (`/usr/bin/time -v`, two
/// threads; Benchmarks/batch.md, "Memory estimate") of
/// - `photogrammetry poses` on synthetic vases (30 views of 320×240 to 1600×1200, 60 of
///   640×480, 40 of 4032×3024) and on fountain-P11 and Herz-Jesus-P8 (3072×2048): −7 % to +9 %.
///   Per extracting thread, SIFT's scale space (its first image is twice the photo's size up to
///   1600 px, the photo's own above, at most 3200 px) and the decoded photo; per photo, the
///   features the matcher keeps.
/// - `photogrammetry reconstruct` to models at preview to full on those scenes, with stereo at
///   768 to 1536 px: −10 % to +11 % over 0.25 to 4.3 GB. Per photo, its pixels at the stereo size
///   (depth maps, normals, costs, fusion), as decoded for baking (reduced by powers of two while
///   the longer side stays at least the texture's) and at full size (masks, decoding); the texels
///   of the largest requested texture (maps and baking buffers).
/// The headers give each photo's pixel count, not its shape: sizes are taken as 4:3.
public struct JobCostModel: Sendable, Equatable {
    /// Pixels assumed for a photo whose header this model cannot read (12 MP).
    public static let unknownImagePixels = 12_000_000

    /// Process and pipeline baseline, bytes. Default 100 MB.
    public var baseBytes = 100_000_000.0
    /// Per extracting thread, bytes per pixel of SIFT's first scale-space image. Default 50.
    public var extractionBytesPerScaleSpacePixel = 50.0
    /// Per extracting thread, bytes per pixel of the photo being decoded. Default 16.
    public var decodingBytesPerPhotoPixel = 16.0
    /// Features a photo yields per megapixel (capped by `maxFeatures`). Default 4000.
    public var featuresPerMegapixel = 4000.0
    /// Features kept per photo at most (the pipeline's default). Default 8192.
    public var maxFeatures = 8192
    /// Memory per kept feature (RootSIFT descriptor, keypoint, matches), bytes. Default 1000.
    public var bytesPerFeature = 1000.0
    /// Dense, surface and model stages (after the pose stages have released their features),
    /// bytes per photo: per pixel at the stereo size (default 52), per pixel as decoded for baking
    /// (default 3), per pixel at full size (default 1.5); and per texel of the largest requested
    /// texture (default 43).
    public var modelBytesPerStereoPixel = 52.0
    public var modelBytesPerBakingPixel = 3.0
    public var modelBytesPerPhotoPixel = 1.5
    public var modelBytesPerTexel = 43.0

    public init() {}

    /// Peak bytes of `spec` on an input described by `facts`, with `threads` extraction threads.
    public func estimateBytes(facts: JobFacts, spec: JobSpec?, threads: Int) -> Int {
        let pixels = facts.largestImagePixels
        let images = Double(facts.imageCount)
        let features = min(Double(maxFeatures), Double(pixels) / 1_000_000 * featuresPerMegapixel)
        let extracting = Double(max(1, min(threads, max(1, facts.imageCount))))
        let poses = extracting * (Double(Self.scaleSpacePixels(photoPixels: pixels)) * extractionBytesPerScaleSpacePixel
                                  + Double(pixels) * decodingBytesPerPhotoPixel)
            + images * features * bytesPerFeature
        var model = 0.0
        let budgets = (spec?.requests ?? []).compactMap { request -> DetailBudget? in
            guard case .model(let model) = request else { return nil }
            return model.detail.budget(custom: model.custom ?? CustomDetailSpecification())
        }
        if let textureSide = budgets.map(\.textureDimension.rawValue).max(),
           let stereoSide = DetailBudget.stereoImageDimension(serving: budgets) {
            let stereoPixels = min(pixels, Self.pixels(longerSide: stereoSide))
            let bakingPixels = Self.bakingPixels(photoPixels: pixels, textureSide: textureSide)
            model = images * (Double(stereoPixels) * modelBytesPerStereoPixel + Double(bakingPixels) * modelBytesPerBakingPixel
                              + Double(pixels) * modelBytesPerPhotoPixel)
                + Double(textureSide * textureSide) * modelBytesPerTexel
        }
        return Int(baseBytes + max(poses, model))
    }

    /// Pixels of a 4:3 image whose longer side is `longerSide`: 442 368 at 768 px.
    public static func pixels(longerSide: Int) -> Int { longerSide * (longerSide * 3 / 4) }

    /// Longer side of a 4:3 image of `pixels` pixels.
    static func longerSide(pixels: Int) -> Int { Int((Double(pixels) * 4 / 3).squareRoot()) }

    /// Pixels of the image SIFT's scale space starts from with `FeatureExtractor.Options`'
    /// defaults: the photo scaled to at most 3200 px, doubled in each direction when its longer
    /// side is at most 1600 px.
    public static func scaleSpacePixels(photoPixels: Int) -> Int {
        let extractor = FeatureExtractor.Options()
        let capped = extractor.maxImageDimension > 0 ? min(photoPixels, pixels(longerSide: extractor.maxImageDimension)) : photoPixels
        return longerSide(pixels: capped) <= extractor.fullScaleBelowDimension ? 4 * capped : capped
    }

    /// Pixels of a photo decoded for baking a `textureSide` texture (`ModelRun.bakingReduction`).
    public static func bakingPixels(photoPixels: Int, textureSide: Int) -> Int {
        let reduction = ModelRun.bakingReduction(photoLongerSide: longerSide(pixels: photoPixels), textureSide: textureSide)
        return photoPixels / (reduction * reduction)
    }
}
