import Foundation
import Testing
import WireJSON

/// `dialogmock-bench load` as a user runs it: it starts the built mock-server, drives real-time
/// sessions and reports what they experienced. Short runs: this checks the measurement works,
/// not how fast anything is.
@Suite struct LoadBenchCommandTests {
    static var binary: URL { MockServerProcess.binary.deletingLastPathComponent().appendingPathComponent("dialogmock-bench") }

    static func run(_ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let output = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: output, as: UTF8.self),
                String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self))
    }

    @Test(arguments: ["qwen-realtime", "multimodal-dialog"])
    func aShortLoadAnswersEveryTurn(protocolName: String) throws {
        let result = try Self.run(["load", "--protocol", protocolName, "-n", "4", "--idle", "0.5", "--warmup", "0.5", "--duration", "3"])
        #expect(result.status == 0, "\(result.stderr)")
        let report = try JSONValue.decode(result.stdout)
        #expect(report["sessions"]?["ready"] == 4)
        #expect(report["sessions"]?["failed"] == 0)
        #expect(report["sessions"]?["dropped"] == 0)
        #expect(report["sessions"]?["closedCleanly"] == 4)
        let sent = report["turns"]?["sent"]?.intValue ?? 0
        #expect(sent >= 4)
        #expect(report["turns"]?["answered"]?.intValue == sent)
        #expect((report["downlink"]?["latenessMs"]?["count"]?.intValue ?? 0) > 0)
        #expect((report["serverProcess"]?["rssIdleKiB"]?.intValue ?? 0) > 0)
        #expect((report["serverProcess"]?["cpuPercent"]?.doubleValue ?? 0) > 0)
        #expect(report["generator"]?["saturated"] != nil)
    }

    @Test func aBadProtocolIsOneLineAndExitTwo() throws {
        let result = try Self.run(["load", "--protocol", "smtp"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("--protocol"))
    }
}
