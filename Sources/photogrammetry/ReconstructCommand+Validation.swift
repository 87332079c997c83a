import ArgumentParser
import Foundation
import ModelExport

extension ReconstructCommand {
    func validate() throws {
        if isKeyframeFolder, poses != nil {
            throw ValidationError("an RGB-D keyframe folder carries its own poses; --poses does not apply")
        }
        if checkpoint != nil && (isKeyframeFolder || !lidarPoints.isEmpty) {
            throw ValidationError("--checkpoint keeps the pose stages and the dense surface, not yet the depth of "
                                  + "\(isKeyframeFolder ? "an RGB-D keyframe folder" : "--lidar-points clouds"); leave it out")
        }
        if !lidarPoints.isEmpty && poses == nil && !isKeyframeFolder {
            throw ValidationError("--lidar-points needs known metric poses (--poses FILE or an RGB-D keyframe folder); point clouds are not registered to estimated poses")
        }
        if let bad = lidarPoints.first(where: { !$0.lowercased().hasSuffix(".ply") }) { throw ValidationError("--lidar-points \(bad): must be a .ply file") }
        if !(lidarPointsWeight.isFinite && lidarPointsWeight > 0) { throw ValidationError("--lidar-points-weight must be positive") }
        if noDepth && noStereo && lidarPoints.isEmpty {
            throw ValidationError("--no-depth and --no-stereo leave nothing to reconstruct from (without --lidar-points)")
        }
        if pointCloud != nil && noStereo {
            throw ValidationError("--point-cloud writes the fused stereo point cloud, and --no-stereo runs no stereo; leave one of them out")
        }
        if holdOutEvery < 0 || holdOutEvery == 1 { throw ValidationError("--hold-out-every must be 0 (off) or at least 2") }
        if let stereoImageSize, stereoImageSize < 128 { throw ValidationError("--stereo-image-size must be at least 128") }
        if let mesh, !mesh.lowercased().hasSuffix(".ply") { throw ValidationError("--mesh must be a .ply file") }
        if let pointCloud, !pointCloud.lowercased().hasSuffix(".ply") { throw ValidationError("--point-cloud must be a .ply file") }
        if let bounds, !bounds.lowercased().hasSuffix(".json") { throw ValidationError("--bounds must be a .json file") }
        if !writesMesh {
            // An unknown extension is a usage mistake; a path that cannot be written is not.
            do { _ = try ModelExporter.format(for: URL(fileURLWithPath: output)) } catch {
                throw ValidationError("\(error); or .ply for the dense mesh alone")
            }
            // A folder that does not exist yet is created when the run starts (checkOutputs checks
            // that it can be), as for every other output.
            let parent = URL(fileURLWithPath: output).deletingLastPathComponent()
            if FileManager.default.fileExists(atPath: parent.path) {
                do { _ = try ModelExporter.validateOutputPath(URL(fileURLWithPath: output)) } catch { throw CommandFailure("\(error)") }
            }
            let (level, custom) = try detailOptions.resolved()
            if level == .custom, let problem = try ModelExporter.format(for: URL(fileURLWithPath: output)).problem(carrying: custom.outputTextureMaps) {
                throw ValidationError("--maps: \(problem)")
            }
        } else if detailOptions.isGiven {
            throw ValidationError("--detail and the custom options apply to a model output (.usdz, .glb, .obj or a folder), not to a .ply mesh")
        } else if modelReport != nil || holdOutEvery > 0 {
            throw ValidationError("--model-report and --hold-out-every apply to a model output (.usdz, .glb, .obj or a folder), not to a .ply mesh")
        }
        try checkOutputs()
    }

    /// --stereo-image-size, else the size the model's detail level asks for; a `.ply` mesh, which
    /// has no level, gets 1024 px.
    func resolvedStereoImageSize() throws -> Int {
        if let stereoImageSize { return stereoImageSize }
        if writesMesh { return 1024 }
        let (level, custom) = try detailOptions.resolved()
        return level.budget(custom: custom).stereoImageDimension
    }

    /// Every path the command will write, checked before any work: a file output that is a folder,
    /// a folder output that is a file, or a place where no file can be created fails at once.
    private func checkOutputs() throws {
        let ext = (output as NSString).pathExtension.lowercased()
        if ["ply", "usdz", "glb", "obj"].contains(ext) { try OutputFolder.checkFile(output, option: "-o") } else { try OutputFolder.checkFolder(output, option: "-o") }
        for (option, path) in [("--mesh", mesh), ("--point-cloud", pointCloud), ("--bounds", bounds), ("--model-report", modelReport),
                               ("--preview", preview.map { "\($0)-1.png" })] {
            if let path { try OutputFolder.checkFile(path, option: option) }
        }
        if let posesOutput { try OutputFolder.checkFolder(posesOutput, option: "--poses-output") }
        if let checkpoint { try OutputFolder.checkFolder(checkpoint, option: "--checkpoint") }
        let files: [(option: String, path: String)] = [("-o", output), ("--mesh", mesh), ("--point-cloud", pointCloud), ("--bounds", bounds),
                                                       ("--model-report", modelReport), ("--preview", preview.map { "\($0)-1.png" }),
                                                       ("--preview", preview.map { "\($0)-2.png" }), ("--poses-output", posesOutput)]
            .compactMap { option, path in path.map { (option, $0) } }
        try OutputFolder.checkDistinct(files)
        // The capture folder and its images/ subfolder: where photos are looked for.
        let input = URL(fileURLWithPath: self.input, isDirectory: true)
        let photoFolders = [input, input.appendingPathComponent("images", isDirectory: true)]
        if ext == "obj" || !["ply", "usdz", "glb"].contains(ext) {  // OBJ: the textures go beside the .obj file
            let folder = ext == "obj" ? URL(fileURLWithPath: output).deletingLastPathComponent().path : output
            try OutputFolder.checkNotAmongPhotos(folder, option: "-o", what: "the model's texture images", photoFolders: photoFolders)
        }
        if let preview {
            let folder = URL(fileURLWithPath: preview).deletingLastPathComponent().path
            try OutputFolder.checkNotAmongPhotos(folder, option: "--preview", what: "the PNG pictures", photoFolders: photoFolders)
        }
    }
}
