// Photos in, poses, the object's bounds and a model file out, through PhotogrammetrySession.
// Usage: SessionExample PHOTOS_DIR OUT_DIR [preview|reduced|medium|full|raw]
import Foundation
import PhotogrammetryKit  // the session and the types it carries, as `import RealityKit` on Apple's platforms

let arguments = CommandLine.arguments
guard arguments.count == 3 || arguments.count == 4 else {
    FileHandle.standardError.write(Data("usage: SessionExample PHOTOS_DIR OUT_DIR [detail]\n".utf8))
    exit(64)
}
let photos = URL(fileURLWithPath: arguments[1], isDirectory: true)
let outputFolder = URL(fileURLWithPath: arguments[2], isDirectory: true)
let detailName = arguments.count == 4 ? arguments[3] : "preview"
guard let detail = PhotogrammetrySession.Request.Detail(rawValue: detailName) else {
    FileHandle.standardError.write(Data("unknown detail level \(detailName)\n".utf8))
    exit(64)
}

var configuration = PhotogrammetrySession.Configuration()
configuration.checkpointDirectory = outputFolder.appendingPathComponent("checkpoint")
let session: PhotogrammetrySession
do {
    try FileManager.default.createDirectory(at: outputFolder, withIntermediateDirectories: true)
    session = try PhotogrammetrySession(input: photos, configuration: configuration)
    try session.process(requests: [.poses, .bounds,
                                   .modelFile(url: outputFolder.appendingPathComponent("model.usdz"), detail: detail)])
} catch {
    FileHandle.standardError.write(Data("\(error)\n".utf8))
    exit(1)
}

// The stream stays open after processingComplete (a session can be given more requests, as
// Apple's can), so the loop ends there.
var failures = 0
var lastStage: PhotogrammetrySession.Output.ProcessingStage?   // Apple's stages; info.stage is finer
outputs: for await output in session.outputs {
    switch output {
    case .requestProgressInfo(_, let info) where info.processingStage != lastStage:
        lastStage = info.processingStage
        print("stage \(lastStage.map { "\($0)" } ?? "?")")
    case .inputWarning(let warning):
        print("warning: \(warning)")
    case .invalidSample(_, let reason):
        print("skipped \(reason)")
    case .requestComplete(_, .poses(let poses)):
        print("poses: \(poses.posesBySample.count) cameras registered, \(poses.unregisteredReasonsBySample.count) not")
    case .requestComplete(_, .bounds(let box)):
        let size = box.extents
        print("bounds: \(size.x) × \(size.y) × \(size.z)")
    case .requestComplete(_, .modelFile(let url)):
        print("model: \(url.path)")
    case .requestError(let request, let error):
        failures += 1
        print("\(request) failed: \(error)")
    case .processingComplete:
        break outputs
    case .processingCancelled:
        failures += 1
        break outputs
    default:
        break
    }
}
exit(failures == 0 ? 0 : 1)
