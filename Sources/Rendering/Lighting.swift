/// Lambert lighting of a rendered surface: ambient, one directional light and a headlight.
///
/// Light values are fractions of the albedo that reach the camera: a surface facing the directional
/// light head-on under `ambient: 0.3, directionalIntensity: 0.7` shows its full albedo.
public struct Lighting: Sendable, Equatable {
    /// Light reaching every surface whatever its orientation (fraction of the albedo).
    public var ambient: Float
    /// Direction from surfaces towards the directional light, in the world frame (normalised on use).
    public var towardsLight: SIMD3<Float>
    /// Intensity of the directional light, scaled by the cosine between normal and `towardsLight`.
    public var directionalIntensity: Float
    /// Intensity of a light at the camera, scaled by the cosine between normal and view ray.
    public var headlightIntensity: Float

    public init(
        ambient: Float = 0.25, towardsLight: SIMD3<Float> = SIMD3(0, 0, 1),
        directionalIntensity: Float = 0, headlightIntensity: Float = 0.75
    ) {
        self.ambient = ambient
        self.towardsLight = towardsLight
        self.directionalIntensity = directionalIntensity
        self.headlightIntensity = headlightIntensity
    }

    /// No lighting: the image shows the albedo itself (for comparing textures with photos).
    public static let unlit = Lighting(ambient: 1, directionalIntensity: 0, headlightIntensity: 0)
}
