import ReconstructionCore

/// The text root layer (`model.usda`) of a USDZ package.
///
/// Stage: `upAxis = "Y"`, `metersPerUnit` from the package, `defaultPrim` = the package's name as
/// a prim name. One `Mesh` (`subdivisionScheme = "none"` so the authored normals are used,
/// `doubleSided = 0`, right-handed = counter-clockwise front faces) with float32 `points`,
/// triangle `faceVertexCounts`/`faceVertexIndices`, vertex-interpolated `normals`, an `extent`
/// equal to the points' bounds, and an indexed face-varying `primvars:st` (one index per
/// triangle corner into the atlas coordinates, st = (u, 1 − v): USD's t grows upwards).
///
/// Material: a `UsdPreviewSurface` (metallic 0) fed by one `UsdUVTexture` per map through a
/// `UsdPrimvarReader_float2` reading `st`: base colour (`sRGB`, `.rgb`), normal (`raw`, `.rgb`,
/// scale (2, 2, 2, 1), bias (−1, −1, −1, 0)), occlusion and roughness (`raw`, `.r`), and
/// displacement (`raw`, `.r` mapped to mesh units: scale = range / metersPerUnit, bias = −scale / 2).
/// Without a roughness map the surface gets the package's constant `roughness`. Texture wrap is
/// `clamp` (an atlas). Textures are referenced as `textures/<file name>` inside the package.
enum USDALayer {
    /// The layer's UTF-8 bytes. The package must be consistent (`ModelPackage.inconsistency` nil).
    static func bytes(_ package: ModelPackage) -> [UInt8] {
        let mesh = package.mesh
        let root = package.identifier
        let material = "/\(root)/Materials/Material"
        var text = NumberText(reservingCapacity: mesh.positions.count * 80 + mesh.triangles.count * 70 + 8192)

        text.append("#usda 1.0\n(\n    defaultPrim = \"\(root)\"\n    metersPerUnit = ")
        text.append(package.metersPerUnit)
        text.append("\n    upAxis = \"Y\"\n")
        if !package.isMetric { text.append("    doc = \"\(ModelPackage.unknownScaleNote)\"\n") }
        text.append(")\n\n")
        text.append("def Xform \"\(root)\" (\n    kind = \"component\"\n)\n{\n")
        text.append("    def Mesh \"Mesh\" (\n        prepend apiSchemas = [\"MaterialBindingAPI\"]\n    )\n    {\n")
        text.append("        uniform bool doubleSided = 0\n")

        let (low, high) = mesh.bounds ?? (.zero, .zero)
        text.append("        float3[] extent = [")
        text.appendTuple(low)
        text.append(", ")
        text.appendTuple(high)
        text.append("]\n")

        text.append("        int[] faceVertexCounts = [")
        for k in mesh.triangles.indices { text.append(k == 0 ? "3" : ", 3") }
        text.append("]\n        int[] faceVertexIndices = ")
        appendCorners(mesh.triangles, to: &text)
        text.append("\n        rel material:binding = <\(material)>\n")

        text.append("        normal3f[] normals = [")
        for (k, n) in mesh.normals.enumerated() {
            if k > 0 { text.append(", ") }
            text.appendTuple(n)
        }
        text.append("] (\n            interpolation = \"vertex\"\n        )\n")

        text.append("        point3f[] points = [")
        for (k, p) in mesh.positions.enumerated() {
            if k > 0 { text.append(", ") }
            text.appendTuple(p)
        }
        text.append("]\n")

        text.append("        texCoord2f[] primvars:st = [")
        for (k, uv) in mesh.uvs.enumerated() {
            if k > 0 { text.append(", ") }
            text.appendTuple(SIMD2(uv.x, 1 - uv.y))
        }
        text.append("] (\n            interpolation = \"faceVarying\"\n        )\n")
        text.append("        int[] primvars:st:indices = ")
        appendCorners(mesh.uvTriangles, to: &text)
        text.append("\n        uniform token subdivisionScheme = \"none\"\n    }\n\n")

        appendMaterial(package, path: material, to: &text)
        text.append("}\n")
        return text.bytes
    }

    /// `[a, b, c, …]` with the triangles' corners in order.
    private static func appendCorners(_ triangles: [SIMD3<UInt32>], to text: inout NumberText) {
        text.append("[")
        for (k, t) in triangles.enumerated() {
            if k > 0 { text.append(", ") }
            text.append(t.x)
            text.append(", ")
            text.append(t.y)
            text.append(", ")
            text.append(t.z)
        }
        text.append("]")
    }

    /// The shader prim's name for a map.
    private static func shaderName(_ map: TextureMapKind) -> String {
        switch map {
        case .diffuseColor: return "BaseColor"
        case .normal: return "Normal"
        case .ambientOcclusion: return "Occlusion"
        case .roughness: return "Roughness"
        case .displacement: return "Displacement"
        }
    }

    private static func appendMaterial(_ package: ModelPackage, path: String, to text: inout NumberText) {
        let has = { (map: TextureMapKind) in package.texture(map) != nil }
        func source(_ map: TextureMapKind, _ output: String) -> String { "<\(path)/\(shaderName(map)).outputs:\(output)>" }

        text.append("    def Scope \"Materials\"\n    {\n        def Material \"Material\"\n        {\n")
        if has(.displacement) {
            text.append("            token outputs:displacement.connect = <\(path)/Surface.outputs:displacement>\n")
        }
        text.append("            token outputs:surface.connect = <\(path)/Surface.outputs:surface>\n\n")

        text.append("            def Shader \"Surface\"\n            {\n")
        text.append("                uniform token info:id = \"UsdPreviewSurface\"\n")
        if has(.diffuseColor) {
            text.append("                color3f inputs:diffuseColor.connect = \(source(.diffuseColor, "rgb"))\n")
        }
        if has(.displacement) {
            text.append("                float inputs:displacement.connect = \(source(.displacement, "r"))\n")
        }
        text.append("                float inputs:metallic = 0\n")
        if has(.normal) {
            text.append("                normal3f inputs:normal.connect = \(source(.normal, "rgb"))\n")
        }
        if has(.ambientOcclusion) {
            text.append("                float inputs:occlusion.connect = \(source(.ambientOcclusion, "r"))\n")
        }
        if has(.roughness) {
            text.append("                float inputs:roughness.connect = \(source(.roughness, "r"))\n")
        } else {
            text.append("                float inputs:roughness = ")
            text.append(package.roughness)
            text.append("\n")
        }
        if has(.displacement) { text.append("                token outputs:displacement\n") }
        text.append("                token outputs:surface\n            }\n\n")

        text.append("            def Shader \"UV\"\n            {\n")
        text.append("                uniform token info:id = \"UsdPrimvarReader_float2\"\n")
        text.append("                string inputs:varname = \"st\"\n")
        text.append("                float2 outputs:result\n            }\n")

        for texture in TextureMapKind.allCases.compactMap(package.texture) {
            text.append("\n            def Shader \"\(shaderName(texture.map))\"\n            {\n")
            text.append("                uniform token info:id = \"UsdUVTexture\"\n")
            text.append("                asset inputs:file = @\(USDZWriter.texturePath(texture))@\n")
            switch texture.map {
            case .normal:
                text.append("                float4 inputs:bias = (-1, -1, -1, 0)\n")
                text.append("                float4 inputs:scale = (2, 2, 2, 1)\n")
            case .displacement:
                let scale = Float(Double(package.displacementRange) / package.metersPerUnit)
                text.append("                float4 inputs:bias = (")
                for _ in 0..<3 { text.append(-scale / 2); text.append(", ") }
                text.append("0)\n                float4 inputs:scale = (")
                for _ in 0..<3 { text.append(scale); text.append(", ") }
                text.append("1)\n")
            default:
                break
            }
            text.append("                token inputs:sourceColorSpace = \"\(texture.map.isColor ? "sRGB" : "raw")\"\n")
            text.append("                float2 inputs:st.connect = <\(path)/UV.outputs:result>\n")
            text.append("                token inputs:wrapS = \"clamp\"\n")
            text.append("                token inputs:wrapT = \"clamp\"\n")
            text.append(texture.map == .diffuseColor || texture.map == .normal
                        ? "                float3 outputs:rgb\n" : "                float outputs:r\n")
            text.append("            }\n")
        }
        text.append("        }\n    }\n")
    }
}
