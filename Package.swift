// swift-tools-version:6.0
import PackageDescription

let settings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("InternalImportsByDefault"),
    // No unsafe flags: SwiftPM refuses a package with them as a versioned dependency, and
    // `DialogMock` is a library product. Full cross-module optimization (about 5 % less server
    // CPU under load) is passed by the release builds that ship or measure binaries instead:
    // `swift build -c release -Xswiftc -cross-module-optimization` (.ci/package, .ci/mock-server).
]

let package = Package(
    name: "DialogMock",
    products: [
        .executable(name: "mock-server", targets: ["MockServerCLI"]),
        .executable(name: "conformance", targets: ["ConformanceCLI"]),
        .executable(name: "dialogmock-bench", targets: ["BenchmarkCLI"]),
        /// Start the mock in-process from another package's tests.
        .library(name: "DialogMock", targets: ["MockServer"]),
        /// Swift clients of both protocols for Linux (reference clients of the conformance suite).
        .library(name: "DialogClients", targets: ["DialogClients"]),
        .executable(name: "dialogmock-adapter", targets: ["AdapterCLI"]),
    ],
    targets: [
        // MARK: - C system libraries (module map + shim.h only)
        .systemLibrary(name: "CLibWebSockets", pkgConfig: "libwebsockets", providers: [.apt(["libwebsockets-dev"])]),
        .systemLibrary(name: "CJansson", pkgConfig: "jansson", providers: [.apt(["libjansson-dev"])]),
        .systemLibrary(name: "COpus", pkgConfig: "opus", providers: [.apt(["libopus-dev"])]),
        .systemLibrary(name: "COgg", pkgConfig: "ogg", providers: [.apt(["libogg-dev"])]),
        .systemLibrary(name: "CLame", pkgConfig: "lame", providers: [.apt(["libmp3lame-dev"])]),
        .systemLibrary(name: "CZstd", pkgConfig: "libzstd", providers: [.apt(["libzstd-dev"])]),
        /// libev has no pkg-config file in Debian; the module map links -lev.
        .systemLibrary(name: "CLibev", providers: [.apt(["libev-dev"])]),

        // MARK: - Wire layer (the only importers of C)
        .target(
            name: "WireJSON", dependencies: ["CJansson"], swiftSettings: settings, linkerSettings: [.linkedLibrary("m")]
        ),
        .target(name: "WireAudio", dependencies: ["COpus", "COgg", "CLame"], swiftSettings: settings),
        .target(name: "WireSocket", dependencies: ["CLibWebSockets", "CLibev"], swiftSettings: settings),
        /// zstd for blocks kept in memory (session journals).
        .target(name: "WireCompression", dependencies: ["CZstd"], swiftSettings: settings),

        // MARK: - Domain
        .target(name: "JSONSchema", dependencies: ["WireJSON"], swiftSettings: settings),
        .target(name: "CLISupport", dependencies: ["WireJSON"], swiftSettings: settings),
        .target(name: "ProtocolModel", dependencies: ["WireJSON"], swiftSettings: settings),
        .target(name: "ScenarioEngine", dependencies: ["ProtocolModel", "WireJSON"], swiftSettings: settings),
        /// Answer audio rendered once per distinct answer, framed, cached and shared (workers render misses).
        .target(
            name: "AnswerAudio", dependencies: ["ProtocolModel", "ScenarioEngine", "WireAudio"], swiftSettings: settings
        ),
        /// The interface between protocol engines and the server's session driver.
        .target(
            name: "SessionCore", dependencies: ["AnswerAudio", "ScenarioEngine", "WireJSON", "ProtocolModel"],
            swiftSettings: settings),
        .target(
            name: "MultiModalDialogEngine",
            dependencies: ["AnswerAudio", "SessionCore", "ScenarioEngine", "WireAudio", "WireJSON", "ProtocolModel"],
            swiftSettings: settings),
        .target(
            name: "QwenRealtimeEngine",
            dependencies: [
                "AnswerAudio", "JSONSchema", "SessionCore", "ScenarioEngine", "WireAudio", "WireJSON", "ProtocolModel",
            ],
            swiftSettings: settings),

        /// Drives a protocol session without sockets: manual clock, timers, commands recorded.
        .target(
            name: "SessionTesting",
            dependencies: ["AnswerAudio", "ScenarioEngine", "SessionCore", "ProtocolModel", "WireJSON"],
            swiftSettings: settings),

        /// The timeline component (web/timeline.js, .css; .ci/embed-web makes TimelineAssets.swift of
        /// them): one session's journal on a time axis, in the dashboard and the HTML report.
        .target(name: "TimelineView", exclude: ["web"], swiftSettings: settings),
        /// The dashboard's page, script and style (web/; .ci/embed-web makes DashboardAssets.swift).
        .target(name: "MockDashboard", exclude: ["web"], swiftSettings: settings),

        // MARK: - The mock server, by job
        /// Sessions on the socket: the driver, journals, the registry, metrics, the scenario store.
        .target(
            name: "MockSessions",
            dependencies: [
                "AnswerAudio", "CLISupport", "SessionCore", "ScenarioEngine", "WireCompression", "WireSocket",
                "WireJSON", "ProtocolModel",
            ],
            swiftSettings: settings),
        /// The HTTP control API under `/_mock/` over the sessions, scenarios and refusals.
        .target(
            name: "MockControl",
            dependencies: [
                "AnswerAudio", "MockDashboard", "MockSessions", "ScenarioEngine", "SessionCore", "TimelineView",
                "WireAudio", "WireSocket", "WireJSON",
                "ProtocolModel",
            ], swiftSettings: settings),
        /// Capture: proxy mode (sessions forwarded upstream and journaled), replay of a recording,
        /// recordings turned into scenarios and compared.
        .target(
            name: "MockCapture",
            dependencies: [
                "MockSessions", "ProtocolModel", "ScenarioEngine", "SessionCore", "WireAudio", "WireJSON", "WireSocket",
            ], swiftSettings: settings),
        /// Serving and routing (engines built from the protocol descriptors) and the in-process API.
        .target(
            name: "MockServer",
            dependencies: [
                "AnswerAudio", "MockCapture", "MockControl", "MockSessions", "MultiModalDialogEngine",
                "QwenRealtimeEngine",
                "SessionCore", "ScenarioEngine", "WireSocket", "WireJSON", "ProtocolModel",
            ], swiftSettings: settings),

        // MARK: - Conformance
        .target(
            name: "ConformanceChecks", dependencies: ["ScenarioEngine", "JSONSchema", "WireJSON", "ProtocolModel"],
            swiftSettings: settings),
        .target(
            name: "ConformanceReports",
            dependencies: ["ConformanceChecks", "JSONSchema", "WireJSON", "ProtocolModel", "TimelineView"],
            exclude: ["web"], swiftSettings: settings),

        .target(
            name: "ConformanceHarness",
            dependencies: [
                "CLISupport", "MockCapture", "MockServer", "ConformanceChecks", "ConformanceReports", "ScenarioEngine",
                "WireJSON",
                "ProtocolModel", "WireSocket",
            ],
            swiftSettings: settings),

        // MARK: - Clients
        .target(
            name: "DialogClients", dependencies: ["WireSocket", "WireJSON", "ProtocolModel"], swiftSettings: settings),

        /// The fuzz targets of `.ci/fuzz` (libFuzzer drives them through `dialogmock-fuzz`).
        .target(
            name: "FuzzTargets",
            dependencies: [
                "JSONSchema", "MockServer", "MultiModalDialogEngine", "QwenRealtimeEngine", "ScenarioEngine",
                "SessionCore",
                "SessionTesting", "AnswerAudio", "WireAudio", "WireJSON", "WireSocket", "ProtocolModel",
            ],
            swiftSettings: settings),

        // MARK: - Executables
        .executableTarget(
            name: "AdapterCLI",
            dependencies: ["DialogClients", "CLISupport", "WireAudio", "WireJSON", "ProtocolModel", "WireSocket"],
            swiftSettings: settings),
        .executableTarget(
            name: "MockServerCLI",
            dependencies: ["MockCapture", "MockServer", "MockSessions", "CLISupport", "WireSocket"],
            swiftSettings: settings),
        .executableTarget(
            name: "ConformanceCLI",
            dependencies: [
                "ConformanceHarness", "ConformanceReports", "ConformanceChecks", "JSONSchema", "WireJSON", "CLISupport",
                "ProtocolModel",
            ], swiftSettings: settings),
        .executableTarget(
            name: "BenchmarkCLI",
            dependencies: [
                "MockServer", "MockSessions", "WireJSON", "WireSocket", "CLISupport", "EchoFloor", "LoadGenerator",
                "ProtocolModel",
            ],
            swiftSettings: settings),
        /// A minimal blocking C WebSocket echo: the latency floor the benchmark compares against.
        .target(name: "EchoFloor"),
        /// The C load generator of `dialogmock-bench load`: N real-time voice clients on one epoll thread.
        .target(name: "LoadGenerator", linkerSettings: [.linkedLibrary("m")]),

        // MARK: - Tests
        .testTarget(
            name: "SessionCoreTests",
            dependencies: [
                "SessionCore", "SessionTesting", "ScenarioEngine", "ProtocolModel", "WireJSON", "AnswerAudio",
            ],
            swiftSettings: settings),
        .testTarget(
            name: "SessionTestingTests", dependencies: ["SessionTesting", "ScenarioEngine", "SessionCore", "WireJSON"],
            swiftSettings: settings),
        .testTarget(name: "ProtocolModelTests", dependencies: ["ProtocolModel", "WireJSON"], swiftSettings: settings),
        .testTarget(name: "WireJSONTests", dependencies: ["WireJSON"], swiftSettings: settings),
        .testTarget(
            name: "WireAudioTests", dependencies: ["WireAudio"], exclude: ["Fixtures"], swiftSettings: settings),
        .testTarget(name: "WireSocketTests", dependencies: ["WireSocket"], swiftSettings: settings),
        .testTarget(name: "WireCompressionTests", dependencies: ["WireCompression"], swiftSettings: settings),
        .testTarget(
            name: "AnswerAudioTests", dependencies: ["AnswerAudio", "ProtocolModel", "ScenarioEngine", "WireAudio"],
            swiftSettings: settings),
        .testTarget(
            name: "JSONSchemaTests", dependencies: ["JSONSchema", "WireJSON"], exclude: ["JSON-Schema-Test-Suite"],
            swiftSettings: settings),
        .testTarget(
            name: "ScenarioEngineTests", dependencies: ["ScenarioEngine", "WireJSON", "ProtocolModel"],
            swiftSettings: settings),
        .testTarget(
            name: "MultiModalDialogEngineTests",
            dependencies: [
                "AnswerAudio", "MultiModalDialogEngine", "SessionCore", "SessionTesting", "ScenarioEngine", "WireAudio",
                "WireJSON", "ProtocolModel",
            ],
            swiftSettings: settings),
        .testTarget(
            name: "QwenRealtimeEngineTests",
            dependencies: [
                "AnswerAudio", "QwenRealtimeEngine", "SessionCore", "SessionTesting", "ScenarioEngine", "WireAudio",
                "WireJSON", "ProtocolModel", "JSONSchema",
            ],
            swiftSettings: settings),
        .testTarget(
            name: "ConformanceChecksTests",
            dependencies: ["ConformanceChecks", "ConformanceHarness", "WireJSON", "ProtocolModel"],
            swiftSettings: settings),
        .testTarget(
            name: "ConformanceReportsTests",
            dependencies: ["ConformanceReports", "ConformanceChecks", "WireJSON", "ProtocolModel"],
            swiftSettings: settings),
        .testTarget(name: "ProtocolSchemaTests", dependencies: ["JSONSchema", "WireJSON"], swiftSettings: settings),
        /// The unmodified official Python SDKs against the in-process mock (venv from .ci/sdk-venv).
        .testTarget(
            name: "EndToEndTests",
            dependencies: [
                "CLISupport", "MockCapture", "MockServer", "MockSessions", "JSONSchema", "MultiModalDialogEngine",
                "ScenarioEngine",
                "WireJSON", "WireSocket", "ProtocolModel",
            ], exclude: ["Clients", "Fixtures"], swiftSettings: settings),
        .testTarget(
            name: "DialogClientsTests",
            dependencies: ["CLISupport", "DialogClients", "MockServer", "WireJSON", "ProtocolModel"],
            swiftSettings: settings),
        .testTarget(
            name: "ConformanceHarnessTests",
            dependencies: [
                "ConformanceHarness", "ConformanceChecks", "ConformanceReports", "ScenarioEngine", "WireJSON",
            ],
            swiftSettings: settings),
        /// The whole conformance suite against the Swift reference clients and the faulty clients,
        /// and `conformance run` as a user runs it (depends on the executables so they are built).
        .testTarget(
            name: "ConformanceSuiteTests",
            dependencies: [
                "CLISupport", "ConformanceHarness", "ConformanceChecks", "ConformanceReports", "AdapterCLI",
                "ConformanceCLI", "WireJSON", "ProtocolModel",
            ],
            swiftSettings: settings),
        /// Replays the fuzz seeds and every input libFuzzer found crashing (Tests/FuzzTargetsTests/Regressions).
        .testTarget(
            name: "FuzzTargetsTests", dependencies: ["FuzzTargets", "ProtocolModel", "WireAudio"],
            exclude: ["Regressions"],
            swiftSettings: settings),
        .testTarget(name: "CLISupportTests", dependencies: ["CLISupport"], swiftSettings: settings),
        .testTarget(
            name: "MockCaptureTests",
            dependencies: ["MockCapture", "MockSessions", "ProtocolModel", "ScenarioEngine", "WireJSON"],
            swiftSettings: settings),
        .testTarget(
            name: "MockControlTests",
            dependencies: ["AnswerAudio", "MockControl", "MockSessions", "ScenarioEngine", "WireJSON", "WireSocket"],
            swiftSettings: settings),
        .testTarget(name: "TimelineViewTests", dependencies: ["TimelineView"], swiftSettings: settings),
        .testTarget(name: "MockDashboardTests", dependencies: ["MockDashboard"], swiftSettings: settings),
        .testTarget(
            name: "MockSessionsTests", dependencies: ["MockSessions", "ProtocolModel", "WireJSON"],
            swiftSettings: settings),
        .testTarget(
            name: "MockServerTests",
            dependencies: [
                "MockServer", "MockCapture", "MockControl", "MockSessions", "WireSocket", "WireJSON", "ProtocolModel",
                "ScenarioEngine", "SessionCore",
            ],
            swiftSettings: settings),
        /// Runs the built `mock-server` and `dialogmock-bench` binaries as a user would (depends on them so they are built).
        .testTarget(
            name: "MockServerCLITests",
            dependencies: [
                "CLISupport", "MockServerCLI", "BenchmarkCLI", "LoadGenerator", "WireAudio", "WireSocket", "WireJSON",
                "ProtocolModel",
            ],
            swiftSettings: settings),
    ]
)

/// The targets a product is made of.
func targets(of product: Product) -> [String] {
    (product as? Product.Executable)?.targets ?? (product as? Product.Library)?.targets ?? []
}

/// Keeps only the targets named and those they depend on, and the products made of kept targets.
@MainActor func keepOnly(_ roots: [String]) {
    var byName: [String: Target] = [:]
    for target in package.targets { byName[target.name] = target }
    var kept = Set<String>()
    var queue = roots
    while let name = queue.popLast() {
        guard let target = byName[name], kept.insert(name).inserted else { continue }
        for dependency in target.dependencies {
            switch dependency {
            case .targetItem(let name, _), .byNameItem(let name, _): queue.append(name)
            default: break
            }
        }
    }
    package.targets.removeAll { !kept.contains($0.name) }
    package.products.removeAll { !targets(of: $0).allSatisfy(kept.contains) }
}

// `DIALOGMOCK_TEST_TARGETS=A,B` keeps only those test targets and what they need: `.ci/sanitize --ci`
// builds just the suites it runs under AddressSanitizer (not the executables and targets only other
// suites use).
if let kept = Context.environment["DIALOGMOCK_TEST_TARGETS"] {
    keepOnly(kept.split(separator: ",").map(String.init))
}

// `DIALOGMOCK_PRODUCTS=A,B` keeps only those products and the targets they need (no tests):
// `.ci/package` builds just the binaries it ships (not `dialogmock-bench` and the fuzz targets).
if let kept = Context.environment["DIALOGMOCK_PRODUCTS"] {
    let names = Set(kept.split(separator: ",").map(String.init))
    keepOnly(package.products.filter { names.contains($0.name) }.flatMap(targets(of:)))
}

// `dialogmock-fuzz`, libFuzzer's driver of the fuzz targets, exists only in fuzz builds
// (`DIALOGMOCK_FUZZ=1 swift build -Xswiftc -sanitize=fuzzer,address`, what `.ci/fuzz` runs):
// without libFuzzer's `main` it would not link.
if Context.environment["DIALOGMOCK_FUZZ"] != nil {
    package.products.append(.executable(name: "dialogmock-fuzz", targets: ["FuzzCLI"]))
    package.targets.append(
        .executableTarget(
            name: "FuzzCLI", dependencies: ["FuzzTargets"],
            swiftSettings: settings))
}
