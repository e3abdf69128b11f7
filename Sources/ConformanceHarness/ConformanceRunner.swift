import ConformanceChecks
package import ConformanceReports
package import FoundationEssentials
import MockServer
import ProtocolModel
import ScenarioEngine
import WireJSON

/// `conformance run`: starts its own mock server, runs the client command once per selected
/// case against that case's endpoint, judges each transcript, and writes the report folder.
package struct ConformanceRunner: Sendable {
    package struct HarnessFailure: Error, CustomStringConvertible {
        package let description: String
    }

    /// What a run produced.
    package struct Outcome: Sendable {
        package let report: RunReport
        package let directory: URL
    }

    let configuration: RunConfiguration

    package init(configuration: RunConfiguration) { self.configuration = configuration }

    package func run() async throws(HarnessFailure) -> Outcome {
        let started = Date()
        let files: SuiteFiles
        do {
            files = try SuiteDirectoryReader.read(root: configuration.repositoryRoot)
        } catch {
            throw HarnessFailure(description: "cannot read conformance/: \(error)")
        }
        let loader = SuiteLoader(files: files)
        let (loaded, diagnostics) = loader.load(protocolName: configuration.protocolName)
        guard let suite = loaded else {
            throw HarnessFailure(
                description: "suite \(configuration.protocolName) does not load:\n"
                    + diagnostics.map(\.description).joined(separator: "\n"))
        }
        var evaluator = CaseEvaluator(
            protocolName: configuration.protocolName, schemas: loader.messageSchemas(),
            strict: configuration.strict)
        evaluator.strictReplay = configuration.strictReplay
        evaluator.budgets = LatencyBudgets(suite.definition.latencyBudgets)
        evaluator.provenance = suite.definition.provenanceByID
        do {
            try evaluator.budgets.apply(commandLine: configuration.budgets)
        } catch {
            throw HarnessFailure(description: error.description)
        }
        let all = suite.cases.flatMap { $0.expanded() }
        let (selected, _) = CaseSelector.select(
            all, includes: configuration.includes, excludes: configuration.excludes,
            shard: configuration.shard)
        // Cases left out by --case / --exclude / --shard are not in the reports at all.
        // An empty shard of a matrix is normal (fewer cases than shards): an empty report.
        guard !selected.isEmpty || configuration.shard != nil else {
            throw HarnessFailure(
                description: "no case of \(configuration.protocolName) is selected by "
                    + configuration.selectionDescription
                    + "; `conformance list --protocol \(configuration.protocolName)` lists them")
        }
        var evaluations: [String: CaseEvaluation] = [:]
        var runnable: [ConformanceCase] = []
        var scenarios: [String: Scenario] = [:]
        let repeats = max(1, configuration.repeatCount)
        for candidate in selected {
            guard evaluator.shouldRun(candidate) else {
                evaluations[candidate.id] = evaluator.evaluate(candidate, transcript: Transcript(journal: []))
                continue
            }
            do {
                let scenario = try CaseScenarioBuilder.scenario(
                    for: candidate, suite: suite, root: configuration.repositoryRoot)
                for run in 1...repeats { scenarios[CaseRun.endpoint(of: candidate.id, run: run)] = scenario }
                runnable.append(candidate)
            } catch {
                evaluations[candidate.id] = evaluator.harnessError(
                    candidate, caseID: candidate.id, message: error.description)
            }
        }

        let server = try startMock(scenarios: scenarios)
        defer { server.stop() }
        let caseRunner = CaseRun(configuration: configuration, server: server, evaluator: evaluator)
        // Every case once, then every case again (not one case N times in a row): runs of a
        // case meet different neighbours under --jobs, as they would in separate runs.
        let runs = (1...repeats).flatMap { run in runnable.map { (conformanceCase: $0, run: run) } }
        let total = runs.count
        // Each case's runs, combined once its last run is in (``CaseEvaluation/combining(_:)``).
        let combined = await withTaskGroup(of: (run: Int, evaluation: CaseEvaluation).self) { group in
            var pending: [String: [(run: Int, evaluation: CaseEvaluation)]] = [:]
            var combined: [String: CaseEvaluation] = [:]
            var done = 0
            var next = 0
            func launch() {
                let (conformanceCase, run) = runs[next]
                next += 1
                group.addTask { (run, await caseRunner.run(conformanceCase, run: run)) }
            }
            while next < min(max(1, configuration.jobs), total) { launch() }
            while let result = await group.next() {
                done += 1
                let caseID = result.evaluation.caseID
                pending[caseID, default: []].append(result)
                configuration.progress(
                    CaseLogLine.text(
                        result.evaluation, index: done, total: total,
                        stderr: caseRunner.stderr(of: caseID, run: result.run),
                        run: repeats > 1 ? (result.run, repeats) : nil))
                if let all = pending[caseID], all.count == repeats {
                    let evaluation = CaseEvaluation.combining(all.sorted { $0.run < $1.run }.map(\.evaluation))
                    if let line = CaseLogLine.repeatsLine(evaluation) { configuration.progress(line) }
                    combined[caseID] = evaluation
                    pending[caseID] = nil
                }
                if next < total { launch() }
            }
            return combined
        }
        await caseRunner.closeAdapters()
        var clientStderr: [String: String] = [:]
        for (caseID, evaluation) in combined {
            evaluations[caseID] = evaluation
            let stderr = caseRunner.stderr(of: caseID, run: (evaluation.repeats?.representative ?? 0) + 1)
            if !stderr.isEmpty { clientStderr[caseID] = stderr }
        }

        let ordered = all.compactMap { evaluations[$0.id] }
        var report = RunReport(
            protocolName: configuration.protocolName, client: configuration.clientCommand, started: started,
            evaluations: ordered, suite: suite.definition)
        report.clientStderr = clientStderr
        report.repeatCount = repeats
        report.toolVersion = HarnessVersion.string
        report.caseFiles = suite.caseFiles
        report.strict = configuration.strict
        report.latencyBudgets = evaluator.budgets.limits
        report.finished = Date()
        let directory =
            configuration.reportDirectory
            ?? ReportFolderWriter.defaultDirectory(
                root: configuration.reportsBase ?? configuration.repositoryRoot,
                client: configuration.clientName, started: started)
        do {
            try ReportFolderWriter.write(report, to: directory)
        } catch {
            throw HarnessFailure(description: "cannot write the report to \(directory.path): \(error)")
        }
        return Outcome(report: report, directory: directory)
    }

    private func startMock(scenarios: [String: Scenario]) throws(HarnessFailure) -> MockServer {
        var mockConfiguration = MockServer.Configuration()
        mockConfiguration.parsedCaseScenarios = scenarios
        mockConfiguration.timeScale = configuration.timeScale
        // Checks read the payloads (uplink pacing, schemas of every client message).
        mockConfiguration.journalAudio = true
        mockConfiguration.journalFrameLimit = .max
        mockConfiguration.scenarioDirectory = configuration.repositoryRoot.appendingPathComponent("conformance").path
        do {
            let server = try MockServer(configuration: mockConfiguration)
            try server.start()
            return server
        } catch {
            throw HarnessFailure(description: "cannot start the mock server: \(error)")
        }
    }
}
