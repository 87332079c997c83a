import Foundation

extension PhotogrammetrySession {
    /// Why a session or a request could not proceed.
    public enum Error: Swift.Error, CustomStringConvertible, Equatable {
        /// A request needs a stage this session was created without (model requests need
        /// `ModelStages`: sessions over a capture folder have them).
        case stageNotBuilt(ProcessingStage, request: Request)
        /// `process` was called while a previous call is still running.
        case alreadyProcessing
        /// `process` was called without requests.
        case noRequests
        /// The session was created without samples.
        case noSamples
        /// Two samples share an id.
        case duplicateSampleID(Int)
        /// Two samples share a name (names key the written outputs).
        case duplicateSampleName(String)
        /// A request's parameters are unusable (e.g. a model URL that is neither `.usdz` nor a directory).
        case invalidRequest(Request, String)
        /// The checkpoint directory cannot be created or written.
        case checkpointUnusable(URL, String)

        public var description: String {
            switch self {
            case .stageNotBuilt(let stage, let request):
                let what: String
                switch request {
                case .modelFile: what = "model files are"
                case .poses: what = "poses are"
                case .pointCloud: what = "point clouds are"
                case .bounds: what = "bounds are"
                }
                return "\(what) not available in this session: it has no \(stage.rawValue) stage "
                    + "(create it over a capture folder with PhotogrammetryKit's PhotogrammetrySession(input: URL), or, for samples "
                    + "that are photo files in one folder, pass modelStages: FolderModelStages() to its initialiser)"
            case .alreadyProcessing: return "the session is already processing; wait for processingComplete or cancel"
            case .noRequests: return "no requests to process"
            case .noSamples: return "the session has no samples"
            case .duplicateSampleID(let id): return "two samples have the id \(id)"
            case .duplicateSampleName(let name): return "two samples are named \(name)"
            case .invalidRequest(let request, let why): return "invalid request \(request): \(why)"
            case .checkpointUnusable(let url, let why): return "checkpoint \(url.path): \(why)"
            }
        }
    }
}
