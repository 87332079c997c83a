import CReconstruction
import ReconstructionCore
import XCTest

/// The five-point solver on exact synthetic problems: the true essential matrix is among its
/// solutions, and every solution satisfies the constraints an essential matrix must.
final class FivePointSolverTests: XCTestCase {
    struct Problem {
        var points1: [Double] = [], points2: [Double] = []
        var essential: Matrix3
    }

    /// Five points seen by two cameras: the first at the origin, the second `secondFromFirst`.
    /// `planar` puts the points on one plane (a façade), a case the solver must handle too.
    static func problem(_ rng: inout SplitMix64, planar: Bool) -> Problem {
        let rotation = UnitQuaternion(axis: Vector3(rng.gaussian(), rng.gaussian(), rng.gaussian()),
                                      angleRadians: rng.uniform(0.02, 0.6)).matrix
        let translation = Vector3(rng.gaussian(), rng.gaussian(), 0.3 * rng.gaussian()).normalized
        let cross = Matrix3(rowMajor: [0, -translation.z, translation.y, translation.z, 0, -translation.x,
                                       -translation.y, translation.x, 0])
        var problem = Problem(essential: cross * rotation)
        let normal = Vector3(rng.uniform(-0.3, 0.3), rng.uniform(-0.3, 0.3), 1).normalized
        while problem.points1.count < 10 {
            var x = Vector3(rng.uniform(-2, 2), rng.uniform(-1.5, 1.5), rng.uniform(4, 8))
            if planar { x = x - (normal.dot(x) - 6) * normal }  // onto the plane n·x = 6
            let y = rotation * x + translation
            guard x.z > 0.5, y.z > 0.5 else { continue }
            problem.points1 += [x.x / x.z, x.y / x.z]
            problem.points2 += [y.x / y.z, y.y / y.z]
        }
        return problem
    }

    static func solve(_ problem: Problem) -> [Matrix3] {
        var flat = [Double](repeating: .nan, count: 90)
        let count = Int(rc_five_point_essentials(problem.points1, problem.points2, &flat))
        return (0..<count).map { Matrix3(rowMajor: Array(flat[9 * $0 ..< 9 * $0 + 9])) }
    }

    /// Distance between two essential matrices up to scale and sign (both scaled to unit norm).
    static func distance(_ a: Matrix3, _ b: Matrix3) -> Double {
        let na = a.m.map { $0 * $0 }.reduce(0, +).squareRoot(), nb = b.m.map { $0 * $0 }.reduce(0, +).squareRoot()
        let plus = zip(a.m, b.m).map { ($0 / na - $1 / nb) * ($0 / na - $1 / nb) }.reduce(0, +)
        let minus = zip(a.m, b.m).map { ($0 / na + $1 / nb) * ($0 / na + $1 / nb) }.reduce(0, +)
        return min(plus, minus).squareRoot()
    }

    /// Over 1000 random problems each, the true essential matrix is among the solutions, to 1e-6,
    /// in at least 99.5 % of general scenes and 95 % of planar ones (measured: 99.9 and 96.8 %),
    /// and to 1e-2 in 99.9 and 99 % (measured: 100 and 99.7 %). (Nistér's parametrisation
    /// loses precision when two roots nearly coincide or the solution lies far out along the null
    /// space, rarely and mostly for planar points. On the same kind of problems OpenGV's solver,
    /// used before, reached 95.7 % and 93.4 %, and missed by more than 1e-2 in 2.8 % and 3.9 %.)
    func testTheTrueEssentialMatrixIsAmongTheSolutions() {
        var rng = SplitMix64(seed: 31)
        for (planar, required) in [(false, 0.995), (true, 0.95)] {
            var exact = 0, close = 0, mostSolutions = 0
            for _ in 0..<1000 {
                let problem = Self.problem(&rng, planar: planar)
                let solutions = Self.solve(problem)
                mostSolutions = max(mostSolutions, solutions.count)
                let nearest = solutions.map { Self.distance($0, problem.essential) }.min() ?? .infinity
                if nearest < 1e-6 { exact += 1 }
                if nearest < 1e-2 { close += 1 }
            }
            XCTAssertLessThanOrEqual(mostSolutions, 10)
            XCTAssertGreaterThanOrEqual(Double(exact) / 1000, required, "planar \(planar)")
            XCTAssertGreaterThanOrEqual(Double(close) / 1000, planar ? 0.99 : 0.999, "planar \(planar)")
        }
    }

    /// Each solution has unit norm, fits the five correspondences, and is an essential matrix:
    /// det E = 0 and 2·E·Eᵀ·E − trace(E·Eᵀ)·E = 0 (two equal singular values, one zero).
    func testEverySolutionIsAnEssentialMatrixThroughTheFivePoints() {
        var rng = SplitMix64(seed: 32)
        var solutionCount = 0
        for _ in 0..<200 {
            let problem = Self.problem(&rng, planar: false)
            for e in Self.solve(problem) {
                solutionCount += 1
                XCTAssertEqual(e.m.map { $0 * $0 }.reduce(0, +), 1, accuracy: 1e-12)
                for i in 0..<5 {
                    let x1 = Vector3(problem.points1[2 * i], problem.points1[2 * i + 1], 1)
                    let x2 = Vector3(problem.points2[2 * i], problem.points2[2 * i + 1], 1)
                    XCTAssertEqual(x2.dot(e * x1), 0, accuracy: 1e-9)
                }
                XCTAssertEqual(e.determinant, 0, accuracy: 1e-8)
                let eet = e * e.transposed
                let constraint = 2 * (eet * e)
                let residual = zip(constraint.m, (eet.trace * e).m).map { abs($0 - $1) }.max() ?? 0
                XCTAssertLessThan(residual, 1e-8)
            }
        }
        XCTAssertGreaterThan(solutionCount, 200)  // at least one per problem, usually more
    }

    /// Five copies of one correspondence constrain nothing: no solution, no crash.
    func testADegenerateSampleGivesNoSolutions() {
        let problem = Problem(points1: Array(repeating: [0.1, -0.2], count: 5).flatMap { $0 },
                              points2: Array(repeating: [0.15, -0.18], count: 5).flatMap { $0 },
                              essential: .identity)
        XCTAssertEqual(Self.solve(problem).count, 0)
    }
}
