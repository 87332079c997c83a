/// Work a `CaptureSession` asks its host to do. The session performs nothing itself; the host
/// performs each effect in order and reports outcomes back as events (`shotSaved(id:)`, …).
public enum CaptureEffect: Equatable, Sendable {
    /// Save the frame with timestamp `frameTimestamp` (seconds) as shot `id` of scan pass `scanPass`,
    /// then call `shotSaved(id:)`.
    case saveShot(id: Int, frameTimestamp: Double, scanPass: Int)
    /// Show exactly these guidance conditions (an empty set clears the guidance). Emitted only when the set changes.
    case showGuidance(Set<CaptureFeedback>)
    /// Redraw the coverage dial: `filledBins` of `totalBins` azimuth bins hold a shot in this pass.
    case updateCoverage(filledBins: Int, totalBins: Int)
    /// Tell the person that scan pass `pass` has filled the dial.
    case scanPassCompleted(pass: Int)
    /// After a completed pass: offer flipping the object (true) or advise another pass without flipping (false).
    case recommendFlip(Bool)
    /// Stop the camera feed and tear down; emitted once, on entering `completed` or `failed`.
    case stop
}
