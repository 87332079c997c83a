import BatchRunner
import Foundation
import ReconstructionCore
import XCTest

/// Jobs files are read job by job: each malformed job or missing input fails alone, named, with
/// its problem; the valid ones come out with absolute paths.
final class JobsFileTests: XCTestCase {
    func parse(_ text: String, in directory: URL) throws -> [JobsFile.Entry] {
        try JobsFile.parse(Data(text.utf8), name: "jobs.json", baseDirectory: directory).entries
    }

    func problem(_ entry: JobsFile.Entry) -> String? {
        if case .invalid(_, _, let problem) = entry { return problem }
        return nil
    }

    func testValidJobGetsAbsolutePathsAndDefaults() throws {
        let dir = try BatchFixtures.temporaryDirectory(self)
        try BatchFixtures.capture(in: dir, name: "cap")
        let entries = try parse("""
            [{"id": "a", "input": "cap", "requests": ["poses", {"type": "model", "detail": "preview", "format": "glb"}],
              "output": "results/a"}]
            """, in: dir)
        guard case .valid(let spec) = entries.first else { return XCTFail("\(entries)") }
        XCTAssertEqual(spec.input, dir.appendingPathComponent("cap").standardizedFileURL.path)
        XCTAssertEqual(spec.output, dir.appendingPathComponent("results/a").standardizedFileURL.path)
        XCTAssertEqual(spec.priority, 0)
        XCTAssertEqual(spec.retry, RetryPolicy())
        XCTAssertEqual(spec.requests, [.poses, .model(.init(detail: .preview, format: .glb, path: "model-preview.glb"))])
        XCTAssertNil(spec.objectMasking, "the session's default")
        XCTAssertFalse(spec.canonicalJSON().contains("objectMasking"), "an unset key leaves earlier specs' digests as they were")
    }

    func testObjectMaskingCanBeTurnedOffAndMustBeABoolean() throws {
        let dir = try BatchFixtures.temporaryDirectory(self)
        try BatchFixtures.capture(in: dir, name: "cap")
        let entries = try parse("""
            [{"id": "room", "input": "cap", "requests": ["poses"], "objectMasking": false},
             {"id": "word", "input": "cap", "requests": ["poses"], "objectMasking": "no"}]
            """, in: dir)
        guard case .valid(let spec) = entries.first else { return XCTFail("\(entries)") }
        XCTAssertEqual(spec.objectMasking, false)
        XCTAssertTrue(spec.canonicalJSON().contains(#""objectMasking":false"#), spec.canonicalJSON())
        XCTAssertTrue(problem(entries[1])?.contains("objectMasking") == true, problem(entries[1]) ?? "(valid)")
    }

    func testEachMalformedJobFailsAloneWithItsNameAndProblem() throws {
        let dir = try BatchFixtures.temporaryDirectory(self)
        try BatchFixtures.capture(in: dir, name: "cap")
        try BatchFixtures.capture(in: dir, name: "one", photos: 1)
        let entries = try parse("""
            [
              {"id": "good", "input": "cap", "requests": ["poses"]},
              {"id": "missing", "input": "nowhere", "requests": ["poses"]},
              {"id": "typed", "input": "cap", "requests": ["poses"], "priority": "high"},
              {"input": "cap", "requests": ["poses"]},
              {"id": "bad/id", "input": "cap", "requests": ["poses"]},
              {"id": "level", "input": "cap", "requests": [{"type": "model", "detail": "fancy"}]},
              {"id": "typo", "input": "cap", "requests": ["poses"], "retyr": {}},
              {"id": "empty", "input": "cap", "requests": []},
              {"id": "few", "input": "one", "requests": ["poses"]},
              {"id": "unknown", "input": "cap", "requests": ["mesh"]},
              {"id": "escape", "input": "cap", "requests": [{"type": "model", "path": "../x.usdz"}]},
              {"id": "retries", "input": "cap", "requests": ["poses"], "retry": {"maxAttempts": 0}},
              {"id": "good", "input": "cap", "requests": ["bounds"]},
              42,
              {"id": "twice", "input": "cap", "requests": ["bounds", "poses", "bounds"]},
              {"id": "size", "input": "cap", "requests": [{"type": "model", "detail": "custom", "textureSize": 3000}]},
              {"id": "polys", "input": "cap", "requests": [{"type": "model", "detail": "custom", "maxPolygons": -5}]}
            ]
            """, in: dir)
        XCTAssertEqual(entries.count, 17)
        guard case .valid = entries[0] else { return XCTFail("the good job must stay valid: \(entries[0])") }
        let expected: [(Int, String)] = [
            (1, "job 'missing': input folder \(dir.appendingPathComponent("nowhere").standardizedFileURL.path) does not exist"),
            (2, "job 'typed': 'priority' must be an integer"),
            (3, "job #4 (no usable id): missing 'id'"),
            (4, "invalid id 'bad/id'"),
            (5, "job 'level': 'requests[0].detail': unknown detail level 'fancy'"),
            (6, "job 'typo': unknown key 'retyr'"),
            (7, "job 'empty': 'requests' is empty"),
            (8, "job 'few': input folder"),
            (9, "job 'unknown': 'requests[0]': unknown request 'mesh'"),
            (10, "job 'escape': model path '../x.usdz' must be a plain relative name"),
            (11, "job 'retries': retry.maxAttempts must be at least 1"),
            (12, "job 'good' (#13): the id is already used by job #1"),
            (13, "job #14: expected a JSON object"),
            // Asked twice, a request crashed the runner that ran the job, at every restart.
            (14, "job 'twice': 'requests' asks for bounds twice"),
            // A custom budget's problem is named by its own key, not by 'detail'.
            (15, "job 'size': 'requests[0].textureSize': custom: texture size 3000 is not a power of two"),
            (16, "job 'polys': 'requests[0].maxPolygons': custom: maximum polygon count -5 is below"),
        ]
        for (index, text) in expected {
            let message = problem(entries[index]) ?? "(valid)"
            XCTAssertTrue(message.contains(text), "entry \(index): \(message)")
        }
        XCTAssertTrue(problem(entries[8])?.contains("has 1 photo; at least 2 are needed") == true, problem(entries[8]) ?? "")
        XCTAssertEqual(entries[3].id, "jobs.json#4", "a job without an id is named by its place in the file")
    }

    func testCustomDetailCarriesItsBudgetAndRoundTripsThroughTheLedgerSpec() throws {
        let dir = try BatchFixtures.temporaryDirectory(self)
        try BatchFixtures.capture(in: dir, name: "cap")
        let entries = try parse("""
            [{"id": "c", "input": "cap", "requests": [{"type": "model", "detail": "custom", "format": "glb", "maxPolygons": 20000,
              "textureSize": 2048, "textureFormat": "jpeg", "jpegQuality": 0.85, "maps": ["diffuse", "normal", "roughness"]}]},
             {"id": "d", "input": "cap", "requests": [{"type": "model", "detail": "custom", "maps": "diffuse"}]}]
            """, in: dir)
        guard case .valid(let spec) = entries.first, case .model(let model) = spec.requests.first else { return XCTFail("\(entries)") }
        let custom = try XCTUnwrap(model.custom)
        XCTAssertEqual(custom.maximumPolygonCount, 20000)
        XCTAssertEqual(custom.maximumTextureDimension, .twoK)
        XCTAssertEqual(custom.textureFormat, .jpeg(compressionQuality: 0.85))
        XCTAssertEqual(custom.outputTextureMaps, [.diffuseColor, .normal, .roughness])
        XCTAssertEqual(model.path, "model-custom.glb")
        // The ledger stores the canonical JSON; it decodes to the same spec.
        XCTAssertEqual(try JSONDecoder().decode(JobSpec.self, from: Data(spec.canonicalJSON().utf8)), spec)
        guard case .valid(let defaults) = entries[1], case .model(let other) = defaults.requests.first else { return XCTFail("\(entries)") }
        XCTAssertEqual(other.custom?.outputTextureMaps, [.diffuseColor])
        XCTAssertEqual(other.custom?.maximumPolygonCount, CustomDetailSpecification().maximumPolygonCount)
    }

    func testBadCustomBudgetsFailTheirJobWithTheReason() throws {
        let dir = try BatchFixtures.temporaryDirectory(self)
        try BatchFixtures.capture(in: dir, name: "cap")
        let cases: [(String, String)] = [
            (#"{"type": "model", "detail": "custom", "textureSize": 3000}"#, "power of two"),
            (#"{"type": "model", "detail": "custom", "maps": ["sheen"]}"#, "sheen"),
            (#"{"type": "model", "detail": "custom", "format": "glb", "maps": ["diffuse", "displacement"]}"#, "glTF (.glb) has no displacement map"),
            (#"{"type": "model", "detail": "custom", "jpegQuality": 0.5}"#, "'jpegQuality' needs"),
            (#"{"type": "model", "detail": "custom", "textureFormat": "webp"}"#, "unknown texture format 'webp'"),
            (#"{"type": "model", "detail": "custom", "maxPolygons": 0}"#, "custom:"),
            (#"{"type": "model", "detail": "preview", "maxPolygons": 1000}"#, "'maxPolygons' applies to \"detail\": \"custom\" only"),
            (#"{"type": "model", "detail": "custom", "path": "a.usdz", "maxPolygons": 1000}, {"type": "model", "detail": "custom", "path": "b.usdz"}"#,
             "one custom budget"),
        ]
        for (requests, expected) in cases {
            let entries = try parse(#"[{"id": "j", "input": "cap", "requests": ["# + requests + "]}]", in: dir)
            XCTAssertTrue(problem(entries[0])?.contains(expected) == true, "\(requests): \(problem(entries[0]) ?? "(valid)")")
        }
    }

    /// Foundation reports a fractional number for an integer field as "not valid JSON"; the
    /// problem names the key instead.
    func testAFractionalNumberForAnIntegerNamesItsKey() throws {
        let dir = try BatchFixtures.temporaryDirectory(self)
        try BatchFixtures.capture(in: dir, name: "cap")
        let cases: [(String, String)] = [
            (#""priority": 1.5"#, "'priority' must be an integer, not 1.5"),
            (#""retry": {"maxAttempts": 2.5}"#, "'retry.maxAttempts' must be an integer, not 2.5"),
            (#""priority": 1e30"#, "'priority' must be an integer"),
        ]
        for (field, expected) in cases {
            let entries = try parse(#"[{"id": "j", "input": "cap", "requests": ["poses"], "# + field + "}]", in: dir)
            XCTAssertTrue(problem(entries[0])?.contains(expected) == true, "\(field): \(problem(entries[0]) ?? "(valid)")")
        }
        // Keys whose 0 is itself refused (a polygon cap under 100, a texture size not a power of two) are named too.
        let custom: [(String, String)] = [
            (#""maxPolygons": 1000.7"#, "'requests[0].maxPolygons' must be an integer, not 1000.7"),
            (#""textureSize": 2048.5"#, "'requests[0].textureSize' must be an integer, not 2048.5"),
        ]
        for (field, expected) in custom {
            let entries = try parse(#"[{"id": "j", "input": "cap", "requests": [{"type": "model", "detail": "custom", "# + field + "}]}]", in: dir)
            XCTAssertTrue(problem(entries[0])?.contains(expected) == true, "\(field): \(problem(entries[0]) ?? "(valid)")")
        }
    }

    /// Two photos give poses but no surface: a job asking a model of them is refused when it is
    /// read (it had run the pose stage, then failed, throwing its poses away); poses alone, or
    /// two photos with depth sidecars, are fine.
    func testAModelOfTwoPhotosWithoutDepthIsRefusedUpFront() throws {
        let dir = try BatchFixtures.temporaryDirectory(self)
        try BatchFixtures.capture(in: dir, name: "two", photos: 2)
        let entries = try parse(#"""
            [{"id": "model", "input": "two", "requests": ["poses", {"type": "model", "detail": "preview"}]},
             {"id": "poses", "input": "two", "requests": ["poses"]}]
            """#, in: dir)
        XCTAssertTrue(problem(entries[0])?.contains("has 2 photos: a model needs at least 3") == true, problem(entries[0]) ?? "(valid)")
        XCTAssertNil(problem(entries[1]))
        let images = dir.appendingPathComponent("two/images")
        let first = try XCTUnwrap(try FileManager.default.contentsOfDirectory(atPath: images.path).sorted().first)
        try Data().write(to: images.appendingPathComponent((first as NSString).deletingPathExtension + "_depth.png"))
        let withDepth = try parse(#"[{"id": "model", "input": "two", "requests": [{"type": "model", "detail": "preview"}]}]"#, in: dir)
        XCTAssertNil(problem(withDepth[0]), "depth sidecars give a surface of two photos")
    }

    /// An array spread over lines with a comma missing is one document with a mistake, not JSON
    /// Lines (which had enqueued the jobs on lines of their own and called "[" a broken job): the
    /// whole file is refused with the line and column.
    func testAJobsArrayMissingACommaIsRefusedWithTheLine() throws {
        let dir = try BatchFixtures.temporaryDirectory(self)
        try BatchFixtures.capture(in: dir, name: "cap")
        let text = "[\n" + #"{"id": "x", "input": "cap", "requests": ["poses"]}"# + "\n" + #"{"id": "y", "input": "cap", "requests": ["poses"]}"# + "\n]\n"
        XCTAssertThrowsError(try parse(text, in: dir)) { error in
            XCTAssertTrue("\(error)".contains("is not valid JSON: ") && "\(error)".contains("(line 3, column 1; a missing comma"), "\(error)")
        }
        // JSON Lines whose first job is broken: that job fails alone, as any other line's.
        let lines = #"{"id": "a", "input": "cap", "requests": ["poses""# + "\n" + #"{"id": "b", "input": "cap", "requests": ["poses"]}"# + "\n"
        let entries = try parse(lines, in: dir)
        XCTAssertEqual(entries.count, 2)
        XCTAssertTrue(problem(entries[0])?.contains("line 1 is not valid JSON") == true, problem(entries[0]) ?? "(valid)")
        XCTAssertNil(problem(entries[1]))
    }

    func testJSONLinesLetABrokenLineFailAlone() throws {
        let dir = try BatchFixtures.temporaryDirectory(self)
        try BatchFixtures.capture(in: dir, name: "cap")
        let entries = try parse("""
            {"id": "a", "input": "cap", "requests": ["poses"]}
            {"id": "b", "input": "cap", "requests": ["poses"
            {"id": "c", "input": "cap", "requests": ["bounds"]}
            """, in: dir)
        XCTAssertEqual(entries.map(\.id), ["a", "jobs.json#2", "c"])
        XCTAssertTrue(problem(entries[1])?.contains("line 2 is not valid JSON") == true, "\(entries[1])")
    }

    func testAFileWithNoJobStructureIsOneClearError() throws {
        let dir = try BatchFixtures.temporaryDirectory(self)
        XCTAssertThrowsError(try parse("this is not json", in: dir)) { error in
            XCTAssertTrue("\(error)".contains("jobs file jobs.json is not valid JSON"), "\(error)")
        }
        XCTAssertThrowsError(try parse(#"{"jobs": 3}"#, in: dir)) { error in
            XCTAssertTrue("\(error)".contains("'jobs' must be an array"), "\(error)")
        }
        XCTAssertThrowsError(try parse(" \n", in: dir)) { error in
            XCTAssertTrue("\(error)".contains("jobs file jobs.json is empty"), "\(error)")
        }
    }

    func testOutputFolderHoldingForeignFilesIsRefused() throws {
        let dir = try BatchFixtures.temporaryDirectory(self)
        try BatchFixtures.capture(in: dir, name: "cap")
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("home"), withIntermediateDirectories: true)
        try Data("precious".utf8).write(to: dir.appendingPathComponent("home/notes.txt"))
        let entries = try parse(#"[{"id": "a", "input": "cap", "requests": ["poses"], "output": "home"}]"#, in: dir)
        XCTAssertTrue(problem(entries[0])?.contains("already holds files that no batch job wrote") == true, "\(entries[0])")
    }

    /// An output folder that cannot be made fails the job when it is added, naming why (it was
    /// accepted, then failed at run time naming a hidden staging folder).
    func testAnOutputThatCannotBeMadeIsRefused() throws {
        let dir = try BatchFixtures.temporaryDirectory(self)
        try BatchFixtures.capture(in: dir, name: "cap")
        try Data("a file".utf8).write(to: dir.appendingPathComponent("afile"))
        let entries = try parse(#"[{"id": "a", "input": "cap", "requests": ["poses"], "output": "afile/out/deeper"}]"#, in: dir)
        let afile = dir.appendingPathComponent("afile").standardizedFileURL.path
        XCTAssertEqual(problem(entries[0]), "job 'a': output \(afile)/out/deeper cannot be made: \(afile) is a file, not a folder")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasPrefix(".photogrammetry-probe") }, [])
    }

    func testRetryDelaysGrowGeometricallyUpToTheCap() {
        let policy = RetryPolicy(maxAttempts: 5, backoffSeconds: 10, backoffMultiplier: 2, maxBackoffSeconds: 30)
        XCTAssertEqual((1...4).map(policy.delay(afterFailure:)), [10, 20, 30, 30])
    }

    /// An output in the folders the batch manages for its jobs would be deleted with them: such a
    /// job fails when it is read, not after another job has lost its outputs.
    func testOutputsTheBatchFolderReservesAreRefused() throws {
        let dir = try BatchFixtures.temporaryDirectory(self)
        try BatchFixtures.capture(in: dir, name: "cap")
        let file = try JobsFile.parse(Data("""
            [{"id": "inside-jobs", "input": "cap", "requests": ["poses"], "output": "wrap/out/jobs/victim/checkpoint"},
             {"id": "the-batch", "input": "cap", "requests": ["poses"], "output": "wrap/out"},
             {"id": "around-it", "input": "cap", "requests": ["poses"], "output": "wrap"},
             {"id": "slurm-logs", "input": "cap", "requests": ["poses"], "output": "wrap/out/slurm/x"},
             {"id": "beside", "input": "cap", "requests": ["poses"], "output": "wrap/out/results/beside"},
             {"id": "elsewhere", "input": "cap", "requests": ["poses"], "output": "results/elsewhere"},
             {"id": "within", "input": "cap", "requests": ["poses"], "output": "results/elsewhere/inner"},
             {"id": "around", "input": "cap", "requests": ["poses"], "output": "results"},
             {"id": "alike", "input": "cap", "requests": ["poses"], "output": "results/elsewhere2"}]
            """.utf8), name: "jobs.json", baseDirectory: dir)
        let layout = BatchLayout(root: dir.appendingPathComponent("wrap/out"))
        let entries = file.checked(against: layout).entries
        let root = layout.root.path
        XCTAssertEqual(problem(entries[0]), "job 'inside-jobs': output \(root)/jobs/victim/checkpoint is inside \(root)/jobs, where the "
                       + "batch keeps its jobs' checkpoints and staging folders; give a folder outside it")
        XCTAssertTrue(problem(entries[1])?.contains("would hold the batch folder \(root)") == true, "\(entries[1])")
        XCTAssertTrue(problem(entries[2])?.contains("would hold the batch folder \(root)") == true, "\(entries[2])")
        XCTAssertTrue(problem(entries[3])?.contains("is inside \(root)/slurm") == true, "\(entries[3])")
        XCTAssertNil(problem(entries[4]))
        XCTAssertNil(problem(entries[5]))
        // Outputs one inside the other: re-running the outer job removed the inner one's outputs.
        let elsewhere = dir.appendingPathComponent("results/elsewhere").standardizedFileURL.path
        XCTAssertEqual(problem(entries[6]), "job 'within': output \(elsewhere)/inner and job 'elsewhere's output \(elsewhere) lie one inside "
                       + "the other, and a job's outputs replace its whole folder; give each job a folder of its own")
        XCTAssertTrue(problem(entries[7])?.contains("lie one inside the other") == true, "\(entries[7])")
        XCTAssertNil(problem(entries[8]), "a name that only begins like another's is not inside it")
    }
}
