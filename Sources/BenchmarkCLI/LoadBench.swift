import CLISupport
import EchoFloor
import Glibc
import LoadGenerator
import ProtocolModel
import WireSocket

/// `dialogmock-bench load`: N real-time voice sessions of one protocol against a mock-server
/// process (started here, or one already running), from the project's own C load generator;
/// what the clients experienced, the server's CPU and RSS per session, and whether the
/// generator itself was the bottleneck, as one JSON document.
enum LoadBench: AsyncCommand {
    static let protocolOption = ValueOption(
        "--protocol", valueName: "P",
        help: "\(DialogProtocol.namesText).",
        reader: ValueReader<DialogProtocol>.choice)
    static let sessions = DefaultedOption(
        "--sessions", short: "n", valueName: "N", help: "Concurrent sessions.", default: 100,
        reader: .integer(in: 1...20_000))
    static let ramp = ValueOption(
        "--ramp", valueName: "R",
        help: "Session starts per second (default: 200, or N/10 for more sessions, so the ramp lasts at most 10 s).",
        reader: .number(in: 1...100_000))
    static let idle = DefaultedOption(
        "--idle", valueName: "S", help: "Seconds all sessions stay set up and silent before streaming (idle RSS).",
        default: 2, reader: .number(in: 0...600))
    static let warmup = DefaultedOption(
        "--warmup", valueName: "S", help: "Seconds of streaming before the measured window.", default: 3,
        reader: .number(in: 0...600))
    static let duration = DefaultedOption(
        "--duration", valueName: "S", help: "Measured seconds.", default: 15, reader: .number(in: 1...3600))
    static let threads = ValueOption(
        "--threads", valueName: "N", help: "Service threads of the started mock-server (default: its own default).",
        reader: .integer(in: 1...256))
    static let eventLoop = DefaultedOption(
        "--event-loop", valueName: "LOOP", help: "libev, poll or libuv, for the started mock-server.",
        default: WebSocketServer.EventLoop.libev, reader: .choice)
    static let server = ValueOption(
        "--server", valueName: "PATH", help: "The mock-server binary to start (default: the one beside this program).")
    static let port = ValueOption(
        "--port", valueName: "PORT",
        help: "Measure a server already listening on 127.0.0.1:PORT instead of starting one.",
        reader: .integer(in: 1...65535))
    static let serverPID = ValueOption(
        "--server-pid", valueName: "PID", help: "With --port: that server's process, for CPU and RSS.",
        reader: .integer(in: 1...Int(Int32.max)))
    static let output = ValueOption("--output", valueName: "FILE", help: "Also write the JSON document to FILE.")
    static let chaos = FlagOption(
        "--chaos",
        help:
            "Chaos under load: fault a share of the sessions and open hostile connections in the window; exit 1 when the untouched sessions were harmed."
    )
    static let faultedPercent = DefaultedOption(
        "--faulted-percent", valueName: "P", help: "With --chaos: the share of sessions that get a fault.", default: 10,
        reader: .number(in: 0...100))
    static let hostile = DefaultedOption(
        "--hostile", valueName: "N", help: "With --chaos: hostile connections opened in the window.", default: 100,
        reader: .integer(in: 0...10_000))
    static let sabotage = DefaultedOption(
        "--chaos-sabotage", valueName: "N",
        help: "With --chaos: throttle N untouched sessions too (shows that the verdict can fail).", default: 0,
        reader: .integer(in: 0...20_000))
    static let configuration = CommandConfiguration(
        name: "load",
        abstract: "N real-time voice sessions (16 kHz up, 24 kHz down) against mock-server: lateness, turns, CPU, RSS.",
        options: [
            protocolOption, sessions, ramp, idle, warmup, duration, threads, eventLoop, server, port, serverPID,
            output, chaos, faultedPercent, hostile, sabotage,
        ],
        discussion: """
            Each session streams 100 ms chunks in real time, 1.5 s voiced and 1.5 s silent in a
            loop, answers barge in when they overlap the next voiced segment, and plays answers back
            through a playout model: lateness is how long a chunk came after the queue ran dry.
            Turn latency: last voiced chunk sent → first answer audio. RSS per session compares the
            server's RSS before the sessions, with all of them set up and silent, and at its peak
            while they stream. Traffic stays on 127.0.0.1.

            --chaos: every session carries a test id; early in the window, faults of twelve kinds
            (delay, stalls, fragments, a bandwidth cap, dropped, duplicated and reordered audio,
            closes, a fatal error, expiry) are armed through the control API on --faulted-percent
            of them, and --hostile connections open across the window (garbage frames, non-UTF-8
            text, an oversized message, bad JSON, a bad close reason, slowloris, a client that
            never reads, plain HTTP, an unknown path). The report's `chaos` object gives the
            untouched sessions' lateness apart from the faulted ones', their frames against the
            server's journal counts (GET /_mock/sessions), and how the server treated each hostile
            kind; the verdict needs lateness p99 <= 5 ms, no lost frame and no dropped or failed
            untouched session. With --port, start that server with --keep-sessions above N.
            """
    )

    /// Session starts per second when `--ramp` is not given: 200, or fast enough that the ramp
    /// lasts at most 10 s. The first sessions sit set up and silent until the last one is (plus
    /// `--idle`), and the multimodal service ends a session without upstream audio for 20 s with
    /// `AudioTimeout`: at 200 a second, 4,000 sessions lost their first 470 that way.
    static func defaultRamp(sessions: Int) -> Double { max(200, Double(sessions) / 10) }

    struct Settings {
        var config = lg_config()
        var protocolName = ""
        var serverPath: String?
        var serverArguments: [String] = []
        var port: Int?
        var pid: Int?
        var chaos: ChaosPlan?
    }

    static func run(_ arguments: ParsedArguments) throws -> Int32 {
        var settings = CommandLineRunner.valueOrExit(spec: BenchCommand.spec) { () throws -> Settings in
            var settings = Settings()
            guard let dialogProtocol = try arguments.value(of: protocolOption) else {
                throw CommandLineError(
                    "--protocol: expected \(DialogProtocol.namesText)",
                    commandPath: arguments.command)
            }
            settings.protocolName = dialogProtocol.rawValue
            settings.config.sessions = Int32(try arguments.value(of: sessions))
            settings.config.ramp_per_second =
                try arguments.value(of: ramp) ?? defaultRamp(sessions: Int(settings.config.sessions))
            settings.config.idle_seconds = try arguments.value(of: idle)
            settings.config.warmup_seconds = try arguments.value(of: warmup)
            settings.config.duration_seconds = try arguments.value(of: duration)
            settings.config.voiced_ms = 1500
            settings.config.silence_ms = 1500
            settings.config.chunk_ms = 100
            settings.config.down_rate = 24000
            settings.port = try arguments.value(of: port)
            settings.pid = try arguments.value(of: serverPID)
            settings.serverArguments = [
                "--port", "0", "--log-level", "error", "--event-loop", try arguments.value(of: eventLoop).rawValue,
                "--max-sessions", "100000",
            ]
            if let threads = try arguments.value(of: threads) {
                settings.serverArguments += ["--threads", String(threads)]
            }
            settings.serverPath = try arguments.value(of: server) ?? MockServerProcess.sibling
            if arguments.value(of: chaos) {
                let plan = ChaosPlan(
                    dialogProtocol: dialogProtocol, sessions: Int(settings.config.sessions),
                    faultedPercent: try arguments.value(of: faultedPercent), hostile: try arguments.value(of: hostile),
                    sabotaged: try arguments.value(of: sabotage), duration: settings.config.duration_seconds)
                settings.chaos = plan
                // Every session's journal counts stay listed after the run (the frame check reads them).
                settings.serverArguments += [
                    "--keep-sessions", String(plan.sessions + plan.hostile + 1000), "--keep-sessions-bytes",
                    String(1 << 40),
                ]
            }
            return settings
        }
        _ = ef_raise_nofile(Int(settings.config.sessions) * 2 + (settings.chaos?.hostile ?? 0) * 2 + 256)
        var child: MockServerProcess?
        if settings.port == nil {
            guard let serverPath = settings.serverPath else {
                BenchCommand.printError(
                    "dialogmock-bench load: no mock-server beside this program; pass --server PATH or --port")
                exit(ExitCode.usage)
            }
            do {
                let started = try MockServerProcess(
                    path: serverPath, arguments: settings.serverArguments, standardError: .inherit)
                child = started
                settings.port = Int(started.port)
                settings.pid = Int(started.pid)
            } catch {
                BenchCommand.printError("dialogmock-bench load: \(error)")
                exit(ExitCode.harnessError)
            }
        }
        let dialogProtocol = DialogProtocol(rawValue: settings.protocolName) ?? .multimodalDialog
        let path = LoadScript.path(of: dialogProtocol)
        let script = LoadScript.of(dialogProtocol, downRate: Int(settings.config.down_rate))
        var config = settings.config
        config.port = UInt16(settings.port ?? 0)
        config.server_pid = Int32(settings.pid ?? 0)
        var result = lg_result()
        var error = [CChar](repeating: 0, count: 256)
        let status = path.withCString { pathPointer in
            "dialogmock-load".withCString { key in
                config.path = pathPointer
                config.api_key = key
                return script.withCScript { cScript in
                    config.script = cScript
                    guard let chaos = settings.chaos else { return lg_run(&config, &result, &error, error.count) }
                    return chaos.withC { setups, chaos in
                        config.session_setups = setups
                        config.chaos = chaos
                        return lg_run(&config, &result, &error, error.count)
                    }
                }
            }
        }
        // The server's journal counts of the chaos run's sessions, before the server stops.
        let chaosReport = settings.chaos.map { plan in
            ChaosReport(
                plan: plan, dialogProtocol: dialogProtocol, result: result,
                serverSessions: status == 0 ? ChaosReport.serverSessions(port: config.port, plan: plan) : [:])
        }
        if child == nil { settings.chaos?.disarm(port: config.port) }
        child?.stop()
        guard status == 0 else {
            BenchCommand.printError(
                "dialogmock-bench load: \(String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))"
            )
            exit(ExitCode.harnessError)
        }
        var text =
            LoadReport(
                config: config, result: result, protocolName: settings.protocolName, path: path,
                startedServer: child != nil, chaos: chaosReport
            )
            .json.rendered() + "\n"
        let passed = chaosReport?.verdict.pass ?? true
        lg_result_free(&result)
        if let output = try? arguments.value(of: output) { try? BenchCommand.write(text, to: output) }
        text.withUTF8 { bytes in BenchCommand.writeAll(1, bytes) }
        exit(passed ? ExitCode.success : ExitCode.failure)
    }
}
