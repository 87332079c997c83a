import ArgumentParser

@main
struct Photogrammetry: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "photogrammetry",
        abstract: "Photos to camera poses and 3D models, on the CPU.",
        discussion: """
            Coordinate conventions (all outputs): cameras look down +z with x right and y down \
            (OpenCV/COLMAP); pixel (0, 0) is the image's top-left corner, so the first pixel's centre \
            is (0.5, 0.5). poses.json stores camera-to-world poses; COLMAP's images.txt stores \
            world-to-camera; transforms.json uses nerfstudio's OpenGL camera axes (x right, y up, z back).
            """,
        subcommands: [PosesCommand.self, EvaluatePosesCommand.self, RegressionCommand.self, SynthCommand.self, SynthFramesCommand.self, CaptureCommand.self, ScalingCommand.self, ReconstructCommand.self, EvaluateCommand.self,
                      BatchCommand.self, JobsCommand.self, ServeCommand.self]
    )
}
