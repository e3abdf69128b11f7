package import FoundationEssentials
internal import Glibc

/// Everything `conformance run` was asked to do.
package struct RunConfiguration: Sendable {
    /// A ``DialogProtocol`` name (`multimodal-dialog`, `qwen-realtime`, `qwen-audio-live`).
    package var protocolName: String
    /// The client command, run through `/bin/sh -c` once per case.
    package var clientCommand: String
    /// Case id globs to select (empty: all).
    package var includes: [String] = []
    /// Case id globs to leave out.
    package var excludes: [String] = []
    /// Run strict-only cases and count `nonStrict` as failing.
    package var strict = false
    /// `--strict-replay`: recorded-scenario cases fail on departures and unused recorded frames.
    package var strictReplay = false
    /// The report folder; nil = `reports/runs/<client>/<timestamp>/` under `reportsBase`.
    package var reportDirectory: URL?
    /// Where the default report folder goes: the repository root, or the current directory when
    /// the suite is an installed, read-only copy (nil = the repository root).
    package var reportsBase: URL?
    /// Where each client starts (nil = the repository root, so relative fixture paths resolve).
    package var clientWorkingDirectory: URL?
    /// Overrides every case's timeout.
    package var timeoutMs: Int?
    /// Cases run at once.
    package var jobs = RunConfiguration.defaultJobs
    /// `--jobs` when not given: two cases per core (a case mostly waits on real-time audio),
    /// at most 8. Measured on 2 cores: 4 at once keeps every latency the suites bound well
    /// inside its budget (`--repeat 5` finds no flaky case for the reference client).
    package static var defaultJobs: Int { min(8, max(1, 2 * ProcessInfo.processInfo.activeProcessorCount)) }
    /// Whether an adapter that offers reuse (`"reusable": true`) serves case after case in one
    /// process (`--fresh-client` turns it off).
    package var reuseAdapters = true
    /// `--repeat N`: runs of each selected case (the reports give pass rates and flaky cases).
    package var repeatCount = 1
    /// `--time-scale`: multiplies the mock's policy timeouts (nil: each scenario's own).
    package var timeScale: Double?
    /// `--budget METRIC=VALUE` values, applied over the suite's latency budgets in order.
    package var budgets: [String] = []
    /// `--shard K/N`: run the K-th of N interleaved slices (1-based).
    package var shard: (index: Int, count: Int)?
    /// The repository root (holds `conformance/` and `mock-server/`).
    package var repositoryRoot: URL
    /// Values the client gets in its environment.
    package var apiKey = "sk-dialogmock-conformance"
    package var workspaceID = "ws-conformance"
    package var appID = "app-conformance"
    /// The run's model (`--model`, `MOCK_MODEL`): the Qwen realtime URL's; a Qwen-Audio-Live run
    /// uses it only when it is a live model (``ProtocolDescriptor/clientModel(caseModel:runModel:)``).
    package var model = "qwen3-omni-flash-realtime"
    /// Where progress lines go (stderr by default).
    package var progress: @Sendable (String) -> Void = { line in
        var text = line + "\n"
        text.withUTF8 { bytes in _ = write(STDERR_FILENO, bytes.baseAddress, bytes.count) }
    }

    package init(protocolName: String, clientCommand: String, repositoryRoot: URL) {
        self.protocolName = protocolName
        self.clientCommand = clientCommand
        self.repositoryRoot = repositoryRoot
    }

    /// The selection options as typed, for messages (`--case 'qrt.x.*' --shard 2/3`).
    package var selectionDescription: String {
        var parts = includes.map { "--case '\($0)'" } + excludes.map { "--exclude '\($0)'" }
        if let shard { parts.append("--shard \(shard.index)/\(shard.count)") }
        return parts.isEmpty ? "the suite (it has no runnable case)" : parts.joined(separator: " ")
    }

    /// A short name of the client for the report folder (`dialogmock-adapter`, `python3` …).
    package var clientName: String {
        let first = clientCommand.split(separator: " ").first.map(String.init) ?? "client"
        return URL(fileURLWithPath: first).lastPathComponent
    }
}
