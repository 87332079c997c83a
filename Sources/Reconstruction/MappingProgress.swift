/// How far incremental mapping has got: images registered, then the finishing steps
/// (retriangulation, the final robust adjustment, the least-squares polish).
public struct MappingProgress: Sendable, Equatable {
    /// Images registered so far.
    public var registeredCount: Int
    /// Images given to the mapper.
    public var imageCount: Int
    /// Finishing steps done, 0 while images are still being registered.
    public var finishingStepsDone: Int

    /// Steps after the last registration.
    public static let finishingStepCount = 3

    public init(registeredCount: Int, imageCount: Int, finishingStepsDone: Int) {
        self.registeredCount = registeredCount
        self.imageCount = imageCount
        self.finishingStepsDone = finishingStepsDone
    }
}
