/// The synthetic scenes, named as on the command line (`photogrammetry synth SCENE`).
public enum SyntheticSceneKind: String, CaseIterable, Sendable, Codable {
    /// A richly textured vase-like lathe shape with bumps: thousands of distinctive features.
    case texturedVase = "textured-vase"
    /// A rounded box in one flat colour: shading only, little detail to match.
    case plainBox = "plain-box"
    /// A textured shoe-like object whose distinctively textured bottom is seen only in a second,
    /// flipped pass.
    case flipObject = "flip-object"

    /// Whether the capture has a second pass with the object turned upside down, by default.
    public var hasFlippedPassByDefault: Bool { self == .flipObject }
}
