import CaptureIO
import Foundation
import PhotogrammetryKit
import Reconstruction
import ReconstructionCore

/// Replays a recorded frame stream through a `CaptureSession` and writes the curated capture
/// folder: the host side of guided capture, with files instead of a camera.
///
/// For each usable frame the replay decodes the image, measures it (`FrameAnalyzer`), gives the
/// session a `CaptureFrame` (the stream's pose and time, the measured luminance, sharpness,
/// texture and box fraction in view; the object distance is left to the session, from the pose
/// and the box) and performs the effects it returns: `saveShot` writes the shot and reports
/// `shotSaved`, guidance and dial changes go into the frame's report. The session starts
/// detecting; the object box (from the index or `Options.objectBox`) is confirmed on the first
/// frame that shows it in view with no blocking feedback, and capturing starts with the next
/// frame. After the last frame the replay calls `finish()` (or `cancel()` if no box was ever
/// confirmed).
public struct CaptureReplay: Sendable {
    public struct Options: Sendable, Equatable {
        /// The capture session's limits and guidance thresholds.
        public var session = CaptureSession.Configuration()
        /// How frames are measured.
        public var analysis = FrameAnalyzer.Options()
        /// The object box (world frame, metres); nil: the index's `objectBox`.
        public var objectBox: BoundingBox?

        public init() {}
    }

    public var options: Options

    public init(options: Options = Options()) {
        self.options = options
    }

    /// Replays `stream` into the (new or empty) folder `output`, calling `report` once per index
    /// entry, in order, as the frame is done.
    /// - Throws: `CaptureReplayError` when the stream has no box, the configuration is invalid,
    ///   the folder is not empty or cannot be written, or it vanishes during the replay.
    public func run(_ stream: FrameStream, to output: URL,
                    report: (FrameReport) -> Void = { _ in }) throws(CaptureReplayError) -> ReplaySummary {
        guard let box = options.objectBox ?? stream.objectBox else {
            throw CaptureReplayError(path: stream.directory.appendingPathComponent(FrameStreamIndex.fileName).path,
                                     "gives no objectBox (give one with --box)")
        }
        let writer = CaptureFolderWriter(directory: output)
        var session = CaptureSession()
        do {
            _ = try session.start(imagesDirectory: output.path, configuration: options.session)
            _ = try session.startDetecting()
        } catch {
            throw CaptureReplayError(path: output.path, "cannot start the capture session: \(error)")
        }
        try writer.prepare()
        let analyzer = FrameAnalyzer(options: options.analysis)
        var summary = ReplaySummary()
        summary.dialTotalBins = options.session.coverageBinCount
        var shotIntrinsics: [CameraIntrinsics] = []
        var trackedShots: [SparseScene.Image] = []

        for entry in stream.entries {
            summary.frames += 1
            guard case .frame(let frame) = entry else {
                if case .invalid(let index, let image, let reason) = entry {
                    summary.invalidFrames += 1
                    report(FrameReport(index: index, image: image, timestamp: nil, outcome: .invalid, reason: reason,
                                       dialFilledBins: session.filledBinCount, dialTotalBins: summary.dialTotalBins))
                }
                continue
            }
            let name = frame.image.lastPathComponent
            // Reasons name the file as the stream gives it (relative to its folder, else whole),
            // for a stream can point anywhere.
            let shown = stream.shownPath(frame.image)
            if let size = ImageDimensions.read(contentsOf: frame.image),
               size.width != frame.intrinsics.width || size.height != frame.intrinsics.height {
                // Its K would be wrong for the saved photo, and for the box-in-view analysis.
                summary.invalidFrames += 1
                report(FrameReport(index: frame.index, image: name, timestamp: frame.timestamp, outcome: .invalid,
                                   reason: "\(shown) is \(size.width)×\(size.height) pixels but its intrinsics are for "
                                       + "\(frame.intrinsics.width)×\(frame.intrinsics.height)",
                                   dialFilledBins: session.filledBinCount, dialTotalBins: summary.dialTotalBins))
                continue
            }
            let analysis: FrameAnalysis
            do {
                analysis = try analyze(frame, with: analyzer, box: box)
            } catch {
                summary.invalidFrames += 1
                report(FrameReport(index: frame.index, image: name, timestamp: frame.timestamp, outcome: .invalid,
                                   reason: "\(shown) does not decode: \(error)", dialFilledBins: session.filledBinCount, dialTotalBins: summary.dialTotalBins))
                continue
            }
            if let problem = Self.undecodableMask(of: frame, shownAs: stream.shownPath) {
                // Copied as it is, it would only make the reconstruction skip the photo later.
                summary.invalidFrames += 1
                report(FrameReport(index: frame.index, image: name, timestamp: frame.timestamp, outcome: .invalid,
                                   reason: problem, dialFilledBins: session.filledBinCount, dialTotalBins: summary.dialTotalBins))
                continue
            }
            let captureFrame = CaptureFrame(timestamp: frame.timestamp, worldFromCamera: frame.worldFromCamera,
                                            meanLuminance: analysis.meanLuminance, sharpness: analysis.sharpness,
                                            textureScore: analysis.textureScore, boxFractionInView: analysis.boxFractionInView)
            var line = FrameReport(index: frame.index, image: name, timestamp: frame.timestamp, outcome: .detecting,
                                   analysis: analysis, dialFilledBins: session.filledBinCount, dialTotalBins: summary.dialTotalBins)
            if session.state == .detecting {
                summary.detectingFrames += 1
                _ = session.frameArrived(captureFrame)
                if (analysis.boxFractionInView ?? 0) >= options.session.minimumBoxFractionInView,
                   !session.feedback.contains(where: \.blocksCapture) {
                    do { _ = try session.startCapturing(box: box) } catch {
                        throw CaptureReplayError(path: output.path, "the session refused the object box: \(error)")
                    }
                    line.outcome = .boxConfirmed
                } else {
                    // Why the box is not confirmed yet: the blocking feedback (too little of the box
                    // in view is `outOfFieldOfView`).
                    let waiting = Self.ordered(session.feedback.filter(\.blocksCapture)).map(\.rawValue)
                    for reason in waiting { summary.detectionBlockedBy[reason, default: 0] += 1 }
                    line.reason = waiting.isEmpty ? nil : waiting.joined(separator: ", ")
                }
                line.feedback = Self.ordered(session.feedback)
                report(line)
                continue
            }
            guard session.state == .capturing else { break }
            summary.capturingFrames += 1
            let shotsBefore = session.shotsTaken
            for effect in session.frameArrived(captureFrame) {
                switch effect {
                case .saveShot(let id, _, _):
                    guard writer.exists else {
                        _ = try? session.imagesDirectoryVanished()
                        throw CaptureReplayError(path: output.path, "the capture folder vanished during the replay")
                    }
                    // Depth that cannot be used is not copied (the reconstruction would name it under
                    // the shot's new name); the photo is still good.
                    let (shotFrame, depthProblem) = Self.withUsableDepth(frame, shownAs: stream.shownPath)
                    do {
                        line.shot = try writer.save(shot: id, frame: shotFrame)
                        line.note = depthProblem
                        if shotFrame.depth == nil && frame.depth != nil { summary.shotsWithoutDepth += 1 }
                        _ = try session.shotSaved(id: id)
                    } catch let error as CaptureReplayError {
                        throw error
                    } catch {
                        throw CaptureReplayError(path: output.path, "cannot save shot \(id): \(error)")
                    }
                    shotIntrinsics.append(frame.intrinsics)
                    if let name = line.shot {
                        trackedShots.append(SparseScene.Image(name: name, intrinsics: frame.intrinsics, intrinsicsSource: .given,
                                                              cameraFromWorld: frame.worldFromCamera.inverse, unregisteredReason: nil,
                                                              keypoints: [], pointIndexOfKeypoint: []))
                    }
                    summary.savedShots += 1
                case .scanPassCompleted(let pass):
                    line.completedPass = pass
                    summary.completedPasses.append(pass)
                case .recommendFlip(let flip):
                    summary.flipRecommended = flip
                case .showGuidance, .updateCoverage, .stop:
                    break
                }
            }
            line.feedback = Self.ordered(session.feedback)
            line.dialFilledBins = session.filledBinCount
            if session.shotsTaken > shotsBefore {
                line.outcome = .saved
            } else {
                line.outcome = .rejected
                let blocking = line.feedback.filter(\.blocksCapture)
                if !blocking.isEmpty {
                    line.reason = blocking.map(\.rawValue).joined(separator: ", ")
                    for kind in blocking { summary.rejectedByFeedback[kind.rawValue, default: 0] += 1 }
                } else if session.shotLimitReached {
                    line.reason = "shot limit (\(options.session.maximumShots)) reached"
                    summary.rejectedAtShotLimit += 1
                } else {
                    line.reason = "no new viewpoint since the last shot"
                    summary.rejectedWithoutNewViewpoint += 1
                }
            }
            report(line)
        }

        summary.dialFilledBins = session.filledBinCount
        if session.state == .capturing {
            _ = try? session.finish()
        } else if !session.state.isTerminal {
            _ = try? session.cancel()
        }
        summary.finalState = session.state.name
        if let first = shotIntrinsics.first, shotIntrinsics.allSatisfy({ $0 == first }) {
            do { try writer.writeIntrinsics(first) } catch {
                throw CaptureReplayError(path: output.path, "cannot write K.txt: \(error)")
            }
            summary.wroteIntrinsics = true
        }
        if !trackedShots.isEmpty {
            do { try writer.writeTrackedPoses(trackedShots) } catch {
                throw CaptureReplayError(path: output.path, "cannot write \(CaptureFolderFiles.trackedPoses): \(error)")
            }
            summary.wroteTrackedPoses = true
        }
        return summary
    }

    /// Why the frame's mask cannot be read, naming it; nil when it decodes (or there is none).
    static func undecodableMask(of frame: FrameStream.Frame, shownAs shown: (URL) -> String) -> String? {
        guard let mask = frame.mask else { return nil }
        do {
            _ = try ImageCodec.decodeUnchanged(Data(contentsOf: mask))
            return nil
        } catch {
            return "\(shown(mask)) does not decode: \(error)"
        }
    }

    /// The frame without the depth sidecars that cannot be used, and why, naming the stream's
    /// file: depth that does not decode or fit its photo, 8-bit, negative or empty, or whose median
    /// no depth sensor gives (other units); a confidence map that cannot be used alone is left
    /// out and the depth kept. Checked as `reconstruct` checks sidecars (`DepthSidecar`).
    static func withUsableDepth(_ frame: FrameStream.Frame, shownAs shown: (URL) -> String) -> (frame: FrameStream.Frame, problem: String?) {
        guard let depth = frame.depth else { return (frame, nil) }
        var kept = frame
        do {
            let sidecar = try DepthSidecar.load(depth: depth, confidence: frame.depthConfidence,
                                                photoWidth: frame.intrinsics.width, photoHeight: frame.intrinsics.height)
            if let median = sidecar.medianDepth, !DepthSidecar.plausibleMedianDepth.contains(median) {
                kept.depth = nil
                kept.depthConfidence = nil
                return (kept, String(format: "%@ has a median depth of %.3g m, which no depth sensor gives (other units? 16-bit PNG "
                                     + "depth is read as millimetres, float TIFF as metres); the shot is saved without depth",
                                     shown(depth), median))
            }
            guard let problem = sidecar.confidenceProblem else { return (frame, nil) }
            kept.depthConfidence = nil
            return (kept, "\(shown(problem.file)) \(problem.problem); the shot is saved with its depth but without it")
        } catch {
            kept.depth = nil
            kept.depthConfidence = nil
            return (kept, "\(shown(error.file)) \(error.problem); the shot is saved without depth")
        }
    }

    /// Decodes the frame (reduced for analysis) and measures it.
    private func analyze(_ frame: FrameStream.Frame, with analyzer: FrameAnalyzer, box: BoundingBox) throws -> FrameAnalysis {
        let data = try Data(contentsOf: frame.image)
        let reduction = analyzer.reduction(width: frame.intrinsics.width, height: frame.intrinsics.height)
        let image = try ImageCodec.decodeRGB(data, reduction: reduction)
        return analyzer.analyze(image, intrinsics: frame.intrinsics, worldFromCamera: frame.worldFromCamera, box: box)
    }

    /// Feedback in `CaptureFeedback.allCases` order.
    static func ordered(_ feedback: Set<CaptureFeedback>) -> [CaptureFeedback] {
        CaptureFeedback.allCases.filter(feedback.contains)
    }
}
