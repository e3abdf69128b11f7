import CLISupport

/// The built `mock-server` (beside the test bundle, `.build/<config>/mock-server`) as these tests run it.
enum MockServerTestProcess {
    static var binary: String { MockServerProcess.sibling ?? "mock-server" }

    /// Starts it and reads its ready line (stderr kept for the test).
    static func start(_ arguments: [String]) throws -> MockServerProcess {
        try MockServerProcess(path: binary, arguments: arguments, timeout: .seconds(5))
    }

    /// Runs it to its end (for commands that exit by themselves).
    static func run(_ arguments: [String]) async throws -> ChildProcess.Completed {
        try await ChildProcess.run(binary, arguments)
    }
}
