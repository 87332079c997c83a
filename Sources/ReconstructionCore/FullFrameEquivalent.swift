import Foundation

/// The 35 mm-equivalent focal length (EXIF `FocalLengthIn35mmFilm`) in pixels. The equivalence is
/// by the diagonal, as camera makers state it (CIPA DCG-001; exiftool's scale factor 43.27 mm /
/// sensor diagonal): the photo's diagonal stands for the 36 × 24 mm frame's 43.27 mm. For 3:2
/// photos that is f35 · (longer side) / 36; for a phone's 4:3 photos 4 % more (an iPhone 12's
/// 26 mm at 4032 × 3024: 3028 px, its 4.2 mm lens on a 5.6 mm-wide sensor giving 3024 px, where
/// the 36 mm width would give 2912 px).
public enum FullFrameEquivalent {
    /// The diagonal of the 36 × 24 mm frame, millimetres.
    public static let diagonalMillimetres = (36.0 * 36.0 + 24.0 * 24.0).squareRoot()

    /// The focal length in pixels of a photo of `width` × `height` pixels whose 35 mm-equivalent
    /// focal length is `millimetres`.
    public static func focalPixels(millimetres: Double, width: Int, height: Int) -> Double {
        millimetres * (Double(width) * Double(width) + Double(height) * Double(height)).squareRoot() / diagonalMillimetres
    }

    /// The 35 mm-equivalent focal length, millimetres, of `pixels` on a photo of `width` × `height` pixels.
    public static func millimetres(focalPixels pixels: Double, width: Int, height: Int) -> Double {
        pixels * diagonalMillimetres / (Double(width) * Double(width) + Double(height) * Double(height)).squareRoot()
    }
}
