import ConformanceChecks
import FoundationEssentials
import MockServer
import ProtocolModel
import ScenarioEngine
import Synchronization
import WireJSON
import WireSocket

/// Runs the client for one case and judges what the mock recorded.
final class CaseRun: Sendable {
    let configuration: RunConfiguration
    let server: MockServer
    let evaluator: CaseEvaluator
    /// Reusable adapters idle between cases.
    private let adapters = AdapterPool()
    /// stderr of every client run, by endpoint (``endpoint(of:run:)``; written beside the case reports).
    private let logs = Mutex<[String: String]>([:])

    init(configuration: RunConfiguration, server: MockServer, evaluator: CaseEvaluator) {
        self.configuration = configuration
        self.server = server
        self.evaluator = evaluator
    }

    /// The mock's case key (`/case/<key>/…`) of one run of a case: the case id for the first
    /// run, `<id>/repeat-<k>` for the k-th of `--repeat`, so each run has its own sessions.
    static func endpoint(of caseID: String, run: Int) -> String {
        run <= 1 ? caseID : "\(caseID)/repeat-\(run)"
    }

    func environment(for conformanceCase: ConformanceCase, run: Int = 1) -> [String: String] {
        // A case that needs a profile names its model (e.g. the Qwen audio profile); else the
        // protocol's choice (``ProtocolDescriptor/clientModel(caseModel:runModel:)``).
        let dialogProtocol = DialogProtocol(rawValue: configuration.protocolName) ?? .multimodalDialog
        let model = dialogProtocol.descriptor.clientModel(
            caseModel: conformanceCase.model, runModel: configuration.model)
        let url =
            server.baseURL + dialogProtocol.path(caseID: Self.endpoint(of: conformanceCase.id, run: run), model: model)
        return [
            "MOCK_URL": url, "MOCK_API_KEY": configuration.apiKey, "MOCK_WORKSPACE_ID": configuration.workspaceID,
            "MOCK_APP_ID": configuration.appID, "MOCK_MODEL": model, "MOCK_CASE_ID": conformanceCase.id,
            "MOCK_PROTOCOL": configuration.protocolName, "MOCK_RUN": String(run),
        ]
    }

    /// Runs the client once for `conformanceCase` (the `run`-th time, 1-based) and judges it.
    func run(_ conformanceCase: ConformanceCase, run: Int = 1) async -> CaseEvaluation {
        let startedAt = MonotonicClock.nowMicros()
        let endpoint = Self.endpoint(of: conformanceCase.id, run: run)
        let environment = environment(for: conformanceCase, run: run)
        let timeout = configuration.timeoutMs ?? conformanceCase.timeoutMs
        let client: ClientProcess
        let driven: Bool
        let reused: Bool
        var reusable = false
        if let idle = adapters.take() {
            // A reusable adapter from an earlier case: same process, this case's environment.
            client = idle
            client.discardOutput()
            client.send(line: ReusableAdapter.nextCaseLine(environment: environment))
            (driven, reusable, reused) = (true, true, true)
        } else {
            reused = false
            do {
                client = try ClientProcess(
                    command: configuration.clientCommand, environment: environment,
                    workingDirectory: configuration.clientWorkingDirectory ?? configuration.repositoryRoot)
            } catch {
                return evaluator.harnessError(
                    conformanceCase, caseID: conformanceCase.id, message: "cannot start the client: \(error)")
            }
            // A driven client announces itself on its first stdout line (an adapter may need a few
            // seconds to start); a passive one prints something else, or nothing before it exits.
            // A passive client on a driven case runs its own flow on the case's scenario and is
            // judged on what needs no drive.
            let announce = await client.waitForFirstLine(timeoutMillis: timeout).flatMap {
                try? JSONValue.decode($0.text)
            }
            driven = announce?["adapter"]?.stringValue != nil
            reusable = driven && configuration.reuseAdapters && ReusableAdapter.offersReuse(announce)
        }
        if driven, let commands = conformanceCase.drive {
            for command in commands { client.send(line: command.encodedString()) }
        }
        let remaining = max(0, timeout - Int((MonotonicClock.nowMicros() - startedAt) / 1000))
        let ending: CaseEnding
        if reusable {
            ending = await endCase(of: client, timeoutMillis: remaining)
        } else {
            client.closeStdin()
            ending = CaseEnding(timedOut: await client.waitForExit(timeoutMillis: remaining))
        }
        let sessions = await closedSessions(of: endpoint)
        // The lines of this case: after the announce line of a new process; a reused one's start empty.
        let lines = reused ? client.lines : Array(client.lines.dropFirst())
        let evaluation = finish(
            conformanceCase, endpoint: endpoint, client: client, lines: lines, startedAt: startedAt,
            driven: driven, ending: ending, sessions: sessions)
        if ending.canServeAgain { adapters.put(client) }
        return evaluation
    }

    /// How the client's part of a case ended.
    struct CaseEnding {
        /// The client had to be killed at the case timeout.
        var timedOut: Bool
        /// The exit status a reusable adapter's `end_case` ack reported (nil: the process's own).
        var exitCode: Int32? = nil
        /// The adapter acked `end_case` and can serve the next case.
        var canServeAgain = false
    }

    /// Ends a case on a reusable adapter: `end_case`, then its ack (the adapter has ended the
    /// case's session) within the case's time; an adapter that exits or misses the deadline is
    /// treated like a one-shot client that did (killed, not reused).
    private func endCase(of client: ClientProcess, timeoutMillis: Int) async -> CaseEnding {
        client.send(line: ReusableAdapter.endCaseLine)
        let wait = await client.waitForLine(timeoutMillis: timeoutMillis) { line in
            ReusableAdapter.isAck(try? JSONValue.decode(line.text), of: ReusableAdapter.endCase)
        }
        switch wait {
        case .found(let line):
            let ack = (try? JSONValue.decode(line.text)) ?? .null
            return CaseEnding(timedOut: false, exitCode: ReusableAdapter.exitStatus(of: ack), canServeAgain: true)
        case .closed:
            client.closeStdin()
            return CaseEnding(timedOut: await client.waitForExit(timeoutMillis: 1_000))
        case .timedOut:
            client.kill()
            return CaseEnding(timedOut: true)
        }
    }

    /// Ends the reusable adapters still idle at the end of the run.
    func closeAdapters() async { await adapters.closeAll() }

    /// The case's sessions, once the mock has seen the client's close (at most a second after
    /// the client ended: a session still open then is judged as it stands).
    private func closedSessions(of caseID: String) async -> [MockServer.SessionSnapshot] {
        await server.sessionsClosed(caseID: caseID, timeoutMillis: 1_000)
        return await server.sessions(caseID: caseID)
    }

    private func finish(
        _ conformanceCase: ConformanceCase, endpoint: String, client: ClientProcess, lines: [ClientProcess.Line],
        startedAt: Int64, driven: Bool, ending: CaseEnding, sessions: [MockServer.SessionSnapshot]
    ) -> CaseEvaluation {
        let timedOut = ending.timedOut
        let exitCode = timedOut ? nil : ending.exitCode ?? client.exitCode
        logs.withLock { $0[endpoint] = client.stderrText }
        let refusals = server.refusedUpgrades(caseID: endpoint)
        let firstSeen = min(sessions.first?.startedAtMicros ?? .max, refusals.first?.atMicros ?? .max)
        let origin = firstSeen == .max ? startedAt : firstSeen
        var journal: [JournalEntry] = []
        for session in sessions {
            let offset = session.startedAtMicros - origin
            journal += session.entries.map { entry in
                var shifted = entry
                shifted.t += offset
                return shifted
            }
        }
        // A refused upgrade has no session: its broken C1 goes into the transcript, in time
        // order, as the mock's record.
        for refusal in refusals {
            var entry = JournalEntry(t: refusal.atMicros - origin, kind: .violation)
            entry.violation = Violation(obligation: refusal.obligation, level: .must, refusal.message)
            journal.insert(entry, at: journal.firstIndex { $0.t > entry.t } ?? journal.endIndex)
        }
        // `/bin/sh -c` answers 126 / 127 when the command cannot run: a setup error, not a verdict.
        if !timedOut, let code = exitCode, code == 126 || code == 127, sessions.isEmpty, refusals.isEmpty,
            client.lines.isEmpty
        {
            return evaluator.harnessError(
                conformanceCase, caseID: conformanceCase.id,
                message: "the client could not start (sh exit \(code)): "
                    + CaseLogLine.tail(client.stderrText, lines: 3).joined(separator: " | "),
                transcript: Transcript(journal: [], client: ClientProcessResult(exitCode: code)))
        }
        var events: [AdapterEvent] = []
        if driven {
            for line in lines {
                guard let json = try? JSONValue.decode(line.text), let name = json["event"]?.stringValue,
                    !ReusableAdapter.isAck(json, of: ReusableAdapter.nextCase),
                    !ReusableAdapter.isAck(json, of: ReusableAdapter.endCase)
                else { continue }
                events.append(AdapterEvent(t: line.monotonicMicros - origin, name: name, json: json))
            }
        }
        let transcript = Transcript(
            journal: journal, adapterEvents: events,
            client: ClientProcessResult(
                exitCode: exitCode, signal: timedOut || ending.exitCode != nil ? nil : client.signal, driven: driven,
                timedOut: timedOut,
                stderrTail: CaseLogLine.tail(client.stderrText, lines: ClientProcessResult.stderrTailLines)))
        return evaluator.evaluate(
            conformanceCase, transcript: transcript,
            durationMs: Double(MonotonicClock.nowMicros() - startedAt) / 1000)
    }

    /// What the client of a finished run of a case wrote to stderr.
    func stderr(of caseID: String, run: Int = 1) -> String {
        logs.withLock { $0[Self.endpoint(of: caseID, run: run)] ?? "" }
    }
}
