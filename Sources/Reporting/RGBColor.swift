/// An 8-bit sRGB colour, and the muted palette the report plots use.
public struct RGBColor: Equatable, Hashable, Sendable {
    public var red: UInt8
    public var green: UInt8
    public var blue: UInt8

    public init(_ red: UInt8, _ green: UInt8, _ blue: UInt8) {
        self.red = red
        self.green = green
        self.blue = blue
    }

    public static let white = RGBColor(255, 255, 255)
    public static let black = RGBColor(0, 0, 0)
    /// Titles and labels.
    public static let text = RGBColor(45, 45, 50)
    /// Axis lines and ticks.
    public static let axis = RGBColor(110, 110, 115)
    /// Grid lines behind the data.
    public static let grid = RGBColor(228, 228, 232)
    public static let mutedBlue = RGBColor(76, 114, 176)
    public static let mutedOrange = RGBColor(221, 132, 82)
    public static let mutedGreen = RGBColor(85, 168, 104)
    public static let mutedRed = RGBColor(196, 78, 82)
    public static let mutedGrey = RGBColor(140, 140, 148)

    /// The colour `fraction` (0...1) of the way from `self` to `other`.
    public func mixed(with other: RGBColor, _ fraction: Double) -> RGBColor {
        let f = min(max(fraction, 0), 1)
        func mix(_ a: UInt8, _ b: UInt8) -> UInt8 { UInt8((Double(a) * (1 - f) + Double(b) * f).rounded()) }
        return RGBColor(mix(red, other.red), mix(green, other.green), mix(blue, other.blue))
    }
}
