import CLISupport
import EchoFloor
import Glibc
import LoadGenerator
import MockServer
import ProtocolModel
import Synchronization
import WireJSON

/// `dialogmock-bench soak`: every protocol at once for a long time, in rounds of fresh sessions
/// on changing fault scenarios, against a mock-server process started here. Samples the
/// server's RSS and open descriptors over time, checks after every round that the journals hold
/// every frame the clients sent (none lost), and says whether RSS and descriptors stayed flat.
enum SoakBench: AsyncCommand {
    static let sessions = DefaultedOption(
        "--sessions", short: "n", valueName: "N", help: "Concurrent sessions (an equal share of each protocol).",
        default: 200,
        reader: .integer(in: 2...10_000))
    static let duration = DefaultedOption(
        "--duration", valueName: "S", help: "Seconds to run.", default: 1800, reader: .number(in: 10...86_400))
    static let round = DefaultedOption(
        "--round", valueName: "S", help: "Seconds per round: every round opens fresh sessions on the next scenario.",
        default: 60, reader: .number(in: 10...3600))
    static let sample = DefaultedOption(
        "--sample", valueName: "S", help: "Seconds between RSS and descriptor samples.", default: 10,
        reader: .number(in: 1...600))
    static let warmupRounds = DefaultedOption(
        "--warmup-rounds", valueName: "N", help: "Rounds before the flatness baseline (one rotation of the scenarios).",
        default: scenarios.count, reader: .integer(in: 0...1000))
    static let server = ValueOption(
        "--server", valueName: "PATH", help: "The mock-server binary to start (default: the one beside this program).")
    static let output = ValueOption("--output", valueName: "FILE", help: "Also write the JSON document to FILE.")
    static let configuration = CommandConfiguration(
        name: "soak",
        abstract:
            "Mixed traffic of every protocol with faults for a long time: RSS and descriptors over time, journal completeness.",
        options: [sessions, duration, round, sample, warmupRounds, server, output],
        discussion: """
            Round k serves scenario k of a rotation of shipped ones (quick, default, delay,
            duplicate, reorder, fragment, inject-error, unknown-event, drop, truncated, malformed,
            bandwidth), set with PUT /_mock/scenario. The clients are `load`'s (16 kHz up in real
            time, answers played out). Journal completeness: after each round, the journals of its
            sessions (GET /_mock/sessions/<id>/journal) must hold exactly the frames the clients
            sent. Flat, after the warm-up rounds (the answer cache fills as each scenario first
            plays): each scenario's RSS at the end of its rounds (all sessions closed, 1.5 s
            later: after the server's idle release, before the journals are read) stays within
            5 % (or 4 MiB) of its own first round end, so it needs two rotations
            after the warm-up; open descriptors at every round end stay within 5 % (or 2) of the
            first. The samples taken every --sample seconds while sessions run are reported as a
            timeline. Exit 1 when a frame was lost, a metric was not flat, or the server did not
            exit cleanly on SIGTERM. Traffic stays on 127.0.0.1.
            """
    )

    static let scenarios = [
        "quick", "default", "delay", "duplicate", "reorder", "fragment", "inject-error", "unknown-event", "drop",
        "truncated", "malformed", "bandwidth",
    ]

    struct Sample {
        let seconds: Double
        let rssKB: Int
        let descriptors: Int
    }

    struct Round {
        let index: Int
        let scenario: String
        var connected = 0
        var failed = 0
        var framesUp = 0
        var framesDown = 0
        var journalIn = 0
        var journalOut = 0
        var sessions = 0
        var turnsAnswered = 0
    }

    static func run(_ arguments: ParsedArguments) throws -> Int32 {
        let (sessions, duration, roundSeconds, sampleSeconds, warmupRounds, serverPath) =
            CommandLineRunner.valueOrExit(spec: BenchCommand.spec) {
                () throws -> (Int, Double, Double, Double, Int, String?) in
                (
                    try arguments.value(of: Self.sessions), try arguments.value(of: Self.duration),
                    try arguments.value(of: Self.round), try arguments.value(of: Self.sample),
                    try arguments.value(of: Self.warmupRounds),
                    try arguments.value(of: Self.server) ?? MockServerProcess.sibling
                )
            }
        guard let serverPath else {
            BenchCommand.printError("dialogmock-bench soak: no mock-server beside this program; pass --server PATH")
            exit(ExitCode.usage)
        }
        _ = ef_raise_nofile(sessions * 2 + 256)
        let server: MockServerProcess
        do {
            // Enough closed sessions kept for one round's journals to be read after it.
            server = try MockServerProcess(
                path: serverPath,
                arguments: [
                    "--port", "0", "--log-level", "error", "--max-sessions", "100000",
                    "--keep-sessions", String(sessions),
                ], standardError: .inherit)
        } catch {
            BenchCommand.printError("dialogmock-bench soak: \(error)")
            exit(ExitCode.harnessError)
        }
        let started = LatencyRun.now()
        let samples = Mutex<[Sample]>([])
        let stopSampling = Atomic(false)
        let pid = server.pid
        let sampler = Thread {
            while !stopSampling.load(ordering: .relaxed) {
                let sample = Sample(
                    seconds: LatencyRun.now() - started, rssKB: residentKB(pid), descriptors: descriptorCount(pid))
                samples.withLock { $0.append(sample) }
                var left = sampleSeconds
                while left > 0, !stopSampling.load(ordering: .relaxed) {
                    usleep(100_000)
                    left -= 0.1
                }
            }
        }
        var rounds: [Round] = []
        var roundEnds: [Sample] = []
        while LatencyRun.now() - started + 5 < duration {
            let index = rounds.count
            var round = Round(index: index, scenario: scenarios[index % scenarios.count])
            let text = EmbeddedScenarios.files[round.scenario] ?? ""
            if ControlRequest.send(port: server.port, method: "PUT", path: "/_mock/scenario", body: Array(text.utf8))
                == nil
            {
                BenchCommand.printError("dialogmock-bench soak: PUT /_mock/scenario \(round.scenario) failed")
            }
            let before = Set(sessionSummaries(port: server.port).compactMap { $0["id"]?.stringValue })
            let length = min(roundSeconds, duration - (LatencyRun.now() - started)) - 1.5
            let results = runAll(port: server.port, sessions: sessions, seconds: max(3, length))
            for result in results {
                round.connected += result.connected
                round.failed += result.failed
                round.framesUp += result.framesUp
                round.framesDown += result.framesDown
                round.turnsAnswered += result.turnsAnswered
            }
            // This round's sessions, once closed: their journals against what the clients sent.
            var mine: [JSONValue] = []
            for _ in 0..<100 {
                mine = sessionSummaries(port: server.port).filter { !before.contains($0["id"]?.stringValue ?? "") }
                if mine.allSatisfy({ $0["open"] == .bool(false) }) { break }
                usleep(50_000)
            }
            round.sessions = mine.count
            // Measured before the journals are read (their responses are large), once the server's
            // idle release (a second after its last session closed) has run.
            usleep(1_500_000)
            let end = Sample(
                seconds: LatencyRun.now() - started, rssKB: residentKB(pid), descriptors: descriptorCount(pid))
            for summary in mine {
                guard let id = summary["id"]?.stringValue,
                    let body = ControlRequest.send(port: server.port, path: "/_mock/sessions/\(id)/journal")
                else { continue }
                let counts = frameCounts(body)
                round.journalIn += counts.in
                round.journalOut += counts.out
            }
            rounds.append(round)
            roundEnds.append(end)
            BenchCommand.printError(
                "soak: round \(index) (\(round.scenario)): \(round.connected) connected, \(round.failed) failed, "
                    + "\(round.framesUp) frames up / \(round.journalIn) journaled in, \(round.framesDown) down / \(round.journalOut) journaled out, "
                    + "RSS \(end.rssKB) KiB, \(end.descriptors) descriptors")
        }
        stopSampling.store(true, ordering: .relaxed)
        sampler.join()
        let serverExit = server.stop()
        let report = SoakReport(
            sessions: sessions, duration: LatencyRun.now() - started, roundSeconds: roundSeconds, rounds: rounds,
            roundEnds: roundEnds, warmupRounds: warmupRounds, timeline: samples.withLock { $0 },
            serverExit: serverExit)
        var text = report.json.rendered() + "\n"
        if let output = try? arguments.value(of: output) { try? BenchCommand.write(text, to: output) }
        text.withUTF8 { bytes in BenchCommand.writeAll(1, bytes) }
        exit(report.passed ? ExitCode.success : ExitCode.failure)
    }

    /// What one protocol's clients did in a round.
    struct Tally: Sendable {
        var connected = 0, failed = 0, framesUp = 0, framesDown = 0, turnsAnswered = 0
    }

    /// Every protocol at once, an equal share of `sessions` each (the last takes the rest), on
    /// their own threads.
    static func runAll(port: UInt16, sessions: Int, seconds: Double) -> [Tally] {
        let results = Mutex<[Tally]>([])
        let protocols = DialogProtocol.allCases
        let share = sessions / protocols.count
        let threads = protocols.enumerated().map { index, dialogProtocol in
            Thread {
                var config = lg_config()
                config.port = port
                config.sessions = Int32(index == protocols.count - 1 ? sessions - share * (protocols.count - 1) : share)
                config.ramp_per_second = 200
                config.idle_seconds = 0.5
                config.warmup_seconds = 0
                config.duration_seconds = seconds - 0.5 - Double(config.sessions) / 200
                config.voiced_ms = 1500
                config.silence_ms = 1500
                config.chunk_ms = 100
                config.down_rate = 24000
                config.server_pid = 0
                var result = lg_result()
                var error = [CChar](repeating: 0, count: 256)
                let path = LoadScript.path(of: dialogProtocol)
                let script = LoadScript.of(dialogProtocol, downRate: Int(config.down_rate))
                let status = path.withCString { pathPointer in
                    "dialogmock-soak".withCString { key in
                        config.path = pathPointer
                        config.api_key = key
                        return script.withCScript { cScript in
                            config.script = cScript
                            return lg_run(&config, &result, &error, error.count)
                        }
                    }
                }
                var tally = Tally(
                    connected: Int(result.connected), failed: Int(result.failed + result.dropped),
                    framesUp: Int(result.frames_up), framesDown: Int(result.frames_down),
                    turnsAnswered: Int(result.turns_answered))
                if status != 0 {
                    tally.failed = Int(config.sessions)
                    BenchCommand.printError(
                        "soak: \(String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))"
                    )
                }
                lg_result_free(&result)
                results.withLock { $0.append(tally) }
            }
        }
        for thread in threads { thread.join() }
        return results.withLock { $0 }
    }

    static func sessionSummaries(port: UInt16) -> [JSONValue] {
        guard let body = ControlRequest.send(port: port, path: "/_mock/sessions"),
            let value = try? JSONValue.decode(body)
        else { return [] }
        return value["sessions"]?.arrayValue ?? []
    }

    /// Text and binary frame entries of a JSON Lines journal, by direction.
    static func frameCounts(_ journal: [UInt8]) -> (in: Int, out: Int) {
        var counts = (in: 0, out: 0)
        for line in journal.split(separator: UInt8(ascii: "\n")) {
            guard let entry = try? JSONValue.decode(Array(line)), let kind = entry["kind"]?.stringValue,
                kind == "text" || kind == "binary"
            else { continue }
            if entry["dir"]?.stringValue == "in" { counts.in += 1 } else { counts.out += 1 }
        }
        return counts
    }

    static func residentKB(_ pid: pid_t) -> Int {
        guard let file = fopen("/proc/\(pid)/status", "r") else { return 0 }
        defer { fclose(file) }
        var line = [CChar](repeating: 0, count: 256)
        while fgets(&line, Int32(line.count), file) != nil {
            let text = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if text.hasPrefix("VmRSS:") { return Int(text.dropFirst(6).filter(\.isNumber)) ?? 0 }
        }
        return 0
    }

    static func descriptorCount(_ pid: pid_t) -> Int {
        guard let directory = opendir("/proc/\(pid)/fd") else { return 0 }
        defer { closedir(directory) }
        var count = 0
        while let entry = readdir(directory) {
            if entry.pointee.d_name.0 != UInt8(ascii: ".") { count += 1 }
        }
        return count
    }
}

/// A joinable pthread running a closure.
final class Thread {
    private var thread = pthread_t()

    init(_ body: @escaping @Sendable () -> Void) {
        let box = Unmanaged.passRetained(Body(body)).toOpaque()
        pthread_create(
            &thread, nil,
            { argument in
                Unmanaged<Body>.fromOpaque(argument!).takeRetainedValue().body()
                return nil
            }, box)
    }

    func join() { pthread_join(thread, nil) }

    private final class Body {
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }
}
