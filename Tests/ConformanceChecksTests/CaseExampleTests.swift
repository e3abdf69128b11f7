import ConformanceChecks
import Testing

/// Every case passes on its `.pass` example and fails on its `.fail` example, with one of
/// the case's obligations among the failed checks (layout §9.10: examples prove checks
/// discriminate).
@Suite struct CaseExampleTests {
    struct Subject: CustomTestStringConvertible, Sendable {
        var suite: LoadedSuite
        var conformanceCase: ConformanceCase
        var testDescription: String { conformanceCase.id }
    }

    static let subjects: [Subject] = {
        SuiteLoader(files: RepositoryFiles.files).loadAll().suites.flatMap { suite in
            suite.cases.filter { $0.status == .active }.map { Subject(suite: suite, conformanceCase: $0) }
        }
    }()

    static func evaluate(_ subject: Subject, _ kind: String) throws -> CaseEvaluation {
        let transcript = try SuiteLoader(files: RepositoryFiles.files).example(
            subject.suite, caseID: subject.conformanceCase.id, kind: kind)
        let evaluator = CaseEvaluator(
            protocolName: subject.suite.definition.protocolName, schemas: RepositoryFiles.schemas, strict: true)
        return evaluator.evaluate(subject.conformanceCase, transcript: transcript)
    }

    @Test func everyObligationHasACase() {
        for suite in SuiteLoader(files: RepositoryFiles.files).loadAll().suites {
            let covered = Set(suite.cases.flatMap(\.obligations))
            for obligation in suite.definition.obligations {
                #expect(covered.contains(obligation), "no case for \(obligation)")
            }
        }
        #expect(Self.subjects.count >= 47)
    }

    @Test(arguments: subjects) func passExamplePasses(_ subject: Subject) throws {
        let evaluation = try Self.evaluate(subject, "pass")
        let problems = evaluation.checks.filter { $0.verdict != .pass }.map {
            "\($0.kind) \($0.obligation): \($0.actual)"
        }
        #expect(evaluation.verdict == .pass, "\(problems)")
    }

    @Test(arguments: subjects) func failExampleFails(_ subject: Subject) throws {
        let evaluation = try Self.evaluate(subject, "fail")
        let expected = subject.conformanceCase.spec.level.failureVerdict
        #expect(
            evaluation.verdict == expected,
            "verdict \(evaluation.verdict): \(evaluation.checks.map { "\($0.kind)=\($0.verdict)" })")
        #expect(
            !Set(evaluation.failedChecks).isDisjoint(with: subject.conformanceCase.obligations),
            "failed: \(evaluation.failedChecks)")
    }
}
