import Foundation
import ReconstructionCore

/// Writes a `ModelPackage` as Wavefront OBJ + MTL + texture files (what Apple's Object Capture
/// writes for a folder output), readable by Blender, trimesh, MeshLab and most DCC tools.
///
/// Files for the stem `S`: `S.obj`, `S.mtl` and the textures unchanged as `S_baseColor.png`,
/// `S_normal.png`, `S_occlusion.png`, `S_roughness.png`, `S_displacement.png` (or `.jpg`), all in
/// one folder; the texture files, then the MTL, then the OBJ are each written atomically, so an
/// OBJ that exists is complete.
///
/// OBJ: `v x y z` in mesh units (the header comment gives `metersPerUnit`; OBJ has no unit), Y up,
/// `vt u t` with t = 1 − v (OBJ's t grows upwards), `vn` one per position, and one
/// `f p/t/n p/t/n p/t/n` per counter-clockwise triangle (1-based; n = p).
///
/// MTL (one material): `Kd 1 1 1`, `map_Kd` base colour; the normal map twice, as `norm` (the
/// PBR extension read by tinyobjloader, three.js, assimp) and `map_Bump -bm 1` (which Blender
/// imports as a normal map); `map_Pr` roughness (or `Pr` constant), `Pm 0`; `disp` displacement
/// with its range in a comment; ambient occlusion only in a comment (no MTL statement for it is
/// widely read).
public enum OBJWriter {
    /// Writes `<folder>/<stem>.obj` (stem from the package's name), its MTL and textures.
    /// - Returns: the files written, the OBJ last.
    /// - Throws: `ModelExportError` naming the file, also when `folder` exists and is not a folder.
    @discardableResult
    public static func write(_ package: ModelPackage, toFolder folder: URL) throws -> [URL] {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory), !isDirectory.boolValue {
            throw ModelExportError(file: folder, "exists and is not a folder; an OBJ model is written into a folder")
        }
        return try write(package, to: folder.appendingPathComponent("\(package.fileStem).obj"))
    }

    /// Writes the OBJ file `objURL` with its MTL and textures beside it, named from its stem.
    /// - Returns: the files written, the OBJ last.
    /// - Throws: `ModelExportError` naming the file.
    @discardableResult
    public static func write(_ package: ModelPackage, to objURL: URL) throws -> [URL] {
        try package.check(writingTo: objURL.path)
        let folder = objURL.deletingLastPathComponent()
        let stem = objURL.deletingPathExtension().lastPathComponent
        var written: [URL] = []
        do {
            for texture in package.textures {
                let url = folder.appendingPathComponent(textureFileName(texture, stem: stem))
                try AtomicFileWriter.write(Data(texture.data), to: url)
                written.append(url)
            }
            let mtl = folder.appendingPathComponent("\(stem).mtl")
            try AtomicFileWriter.write(materialText(package, stem: stem), to: mtl)
            written.append(mtl)
            try AtomicFileWriter.write(Data(objBytes(package, materialLibrary: mtl.lastPathComponent)), to: objURL)
            written.append(objURL)
        } catch {
            // No half model: the files this call wrote go (the OBJ is written last, so none refers to them).
            for url in written { try? FileManager.default.removeItem(at: url) }
            throw error
        }
        removeStaleMaps(in: folder, stem: stem, keeping: Set(written.map(\.lastPathComponent)))
        return written
    }

    /// Removes the maps of an earlier model of the same name that this one does not have (say a
    /// roughness map, or a JPEG base colour now written as PNG), so the folder holds one model.
    static func removeStaleMaps(in folder: URL, stem: String, keeping: Set<String>) {
        for map in TextureMapKind.allCases {
            for format in ImageFileFormat.allCases {
                let name = "\(stem)_\(map.baseName).\(format.fileExtension)"
                guard !keeping.contains(name) else { continue }
                try? FileManager.default.removeItem(at: folder.appendingPathComponent(name))
            }
        }
    }

    /// `<stem>_baseColor.png`, …
    public static func textureFileName(_ texture: EncodedTexture, stem: String) -> String {
        "\(stem)_\(texture.fileName)"
    }

    /// The name of the one material.
    static let materialName = "material0"

    /// The OBJ text referring to `materialLibrary`. The package must be consistent.
    public static func objText(_ package: ModelPackage, materialLibrary: String) -> String {
        String(decoding: objBytes(package, materialLibrary: materialLibrary), as: UTF8.self)
    }

    private static func objBytes(_ package: ModelPackage, materialLibrary: String) -> [UInt8] {
        let mesh = package.mesh
        var text = NumberText(reservingCapacity: mesh.positions.count * 70 + mesh.uvs.count * 24 + mesh.triangles.count * 40 + 512)
        text.append("# \(oneLine(package.name)): \(mesh.triangleCount) triangles, Y up, ")
        if package.isMetric {
            text.append("1 unit = ")
            text.append(package.metersPerUnit)
            text.append(" m")
        } else {
            text.append(ModelPackage.unknownScaleNote)
        }
        text.append("\nmtllib \(materialLibrary)\no \(package.identifier)\n")
        for p in mesh.positions {
            text.append("v ")
            text.append(p.x); text.append(UInt8(ascii: " "))
            text.append(p.y); text.append(UInt8(ascii: " "))
            text.append(p.z); text.append(UInt8(ascii: "\n"))
        }
        for uv in mesh.uvs {
            text.append("vt ")
            text.append(uv.x); text.append(UInt8(ascii: " "))
            text.append(1 - uv.y); text.append(UInt8(ascii: "\n"))
        }
        for n in mesh.normals {
            text.append("vn ")
            text.append(n.x); text.append(UInt8(ascii: " "))
            text.append(n.y); text.append(UInt8(ascii: " "))
            text.append(n.z); text.append(UInt8(ascii: "\n"))
        }
        text.append("usemtl \(materialName)\n")
        for (t, uvt) in zip(mesh.triangles, mesh.uvTriangles) {
            text.append(UInt8(ascii: "f"))
            for k in 0..<3 {
                let p = t[k] + 1
                text.append(UInt8(ascii: " "))
                text.append(p); text.append(UInt8(ascii: "/"))
                text.append(uvt[k] + 1); text.append(UInt8(ascii: "/"))
                text.append(p)
            }
            text.append(UInt8(ascii: "\n"))
        }
        return text.bytes
    }

    /// The MTL text, texture files named for `stem`.
    public static func materialText(_ package: ModelPackage, stem: String) -> String {
        func file(_ map: TextureMapKind) -> String? { package.texture(map).map { textureFileName($0, stem: stem) } }
        var text = NumberText()
        text.append("# \(oneLine(package.name))\nnewmtl \(materialName)\nKa 1 1 1\nKd 1 1 1\nKs 0 0 0\nd 1\nillum 1\nPm 0\n")
        if let f = file(.diffuseColor) { text.append("map_Kd \(f)\n") }
        if let f = file(.normal) { text.append("norm \(f)\nmap_Bump -bm 1 \(f)\n") }
        if let f = file(.roughness) {
            text.append("map_Pr \(f)\n")
        } else {
            text.append("Pr ")
            text.append(package.roughness)
            text.append("\n")
        }
        if let f = file(.displacement) {
            text.append("# displacement: metres = (value / 255 - 0.5) * ")
            text.append(package.displacementRange)
            text.append("\ndisp \(f)\n")
        }
        if let f = file(.ambientOcclusion) { text.append("# ambient occlusion (red channel, 255 = open): \(f)\n") }
        return String(decoding: text.bytes, as: UTF8.self)
    }

    private static func oneLine(_ text: String) -> String {
        String(text.map { $0.isNewline ? " " : $0 })
    }
}
