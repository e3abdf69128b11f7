import CLISupport
import Foundation
import ProtocolModel
import Testing
import WireJSON

@testable import BenchmarkCLI

/// `dialogmock-bench load` as a user runs it: it starts the built mock-server, drives real-time
/// sessions and reports what they experienced. Short runs: this checks the measurement works,
/// not how fast anything is.
@Suite struct LoadBenchCommandTests {
    static func run(_ arguments: [String]) async throws -> ChildProcess.Completed {
        try await ChildProcess.run(ExecutablePath.sibling("dialogmock-bench") ?? "dialogmock-bench", arguments)
    }

    @Test(arguments: DialogProtocol.allCases.map(\.rawValue))
    func aShortLoadAnswersEveryTurn(protocolName: String) async throws {
        let result = try await Self.run([
            "load", "--protocol", protocolName, "-n", "4", "--idle", "0.5", "--warmup", "0.5", "--duration", "3",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let report = try JSONValue.decode(result.stdout)
        let dialogProtocol = try #require(DialogProtocol(rawValue: protocolName))
        #expect(report["path"]?.stringValue == LoadScript.path(of: dialogProtocol))
        #expect(report["sessions"]?["ready"] == 4)
        #expect(report["sessions"]?["failed"] == 0)
        #expect(report["sessions"]?["dropped"] == 0)
        #expect(report["sessions"]?["closedCleanly"] == 4)
        let sent = report["turns"]?["sent"]?.intValue ?? 0
        #expect(sent >= 4)
        #expect(report["turns"]?["answered"]?.intValue == sent)
        #expect((report["downlink"]?["latenessMs"]?["count"]?.intValue ?? 0) > 0)
        // Every protocol tells the client it heard the user, so speech starts are counted.
        #expect((report["downlink"]?["speechStarted"]?.intValue ?? 0) >= 4)
        // The generator speaks the protocol as a conforming client: the mock answers no error.
        #expect(report["downlink"]?["serverErrors"] == 0)
        #expect((report["serverProcess"]?["rssIdleKiB"]?.intValue ?? 0) > 0)
        #expect((report["serverProcess"]?["cpuPercent"]?.doubleValue ?? 0) > 0)
        #expect(report["generator"]?["saturated"] != nil)
    }

    /// Two short rounds of every protocol: every frame the clients sent is in a journal, the
    /// server exits cleanly, and the report carries the round-end samples flatness is judged on.
    @Test func aShortSoakLosesNoJournalFrame() async throws {
        let result = try await Self.run([
            "soak", "-n", "4", "--duration", "22", "--round", "10", "--sample", "2", "--warmup-rounds", "1",
        ])
        let report = try JSONValue.decode(result.stdout)
        #expect(report["lostJournalFrames"] == 0, "\(result.stderr)")
        #expect(report["serverExit"] == "exit 0")
        let rounds = report["rounds"]?.arrayValue ?? []
        #expect(rounds.count == 2)
        #expect(rounds.map { $0["scenario"]?.stringValue } == ["quick", "default"])
        for round in rounds {
            #expect(round["sessions"] == 4)
            #expect(round["connected"] == 4)
            #expect((round["framesUp"]?.intValue ?? 0) > 50)
            #expect(round["journaledIn"] == round["framesUp"])
        }
        #expect(report["roundEnds"]?.arrayValue?.count == 2)
        #expect((report["timeline"]?.arrayValue?.count ?? 0) >= 5)
        #expect(report["rssFlat"]?.boolValue != nil && report["descriptorsFlat"]?.boolValue != nil)
        #expect(result.status == (report["passed"] == true ? 0 : 1))
    }

    /// `load --chaos` at small N: one session of ten faulted, hostile connections of every kind,
    /// the untouched nine reported apart with their frames checked against the server's journal
    /// counts, and a verdict the exit status follows.
    @Test(arguments: [DialogProtocol.qwenRealtime.rawValue, DialogProtocol.multimodalDialog.rawValue])
    func aShortChaosRunReportsTheUntouchedSessionsApart(protocolName: String) async throws {
        let result = try await Self.run([
            "load", "--protocol", protocolName, "-n", "10", "--idle", "0.5", "--warmup", "0.5", "--duration", "4",
            "--chaos", "--hostile", "18",
        ])
        let report = try JSONValue.decode(result.stdout)
        let chaos = try #require(report["chaos"], "\(result.stderr)")
        #expect(chaos["faulted"]?["sessions"] == 1)
        #expect(chaos["faults"]?.arrayValue?.count == 1)
        #expect(chaos["faults"]?[0]?["armStatus"] == 200)
        #expect(chaos["controlStatuses"] == [200])
        let untouched = try #require(chaos["untouched"])
        #expect(untouched["sessions"] == 9)
        #expect(untouched["dropped"] == 0)
        #expect(untouched["failed"] == 0)
        #expect(untouched["closedCleanly"] == 9)
        #expect((untouched["latenessMs"]?["count"]?.intValue ?? 0) > 0)
        // Every untouched frame is in the server's counts, both ways, byte for byte.
        let frames = try #require(untouched["frames"])
        #expect(frames["verifiedSessions"] == 9)
        #expect(frames["lost"] == 0)
        #expect(frames["mismatchedSessions"] == 0)
        #expect((frames["clientSent"]?.intValue ?? 0) > 9 * 20)
        #expect(frames["clientSent"] == frames["serverJournaledIn"])
        #expect(frames["clientReceived"] == frames["serverJournaledOut"])
        // Two connections of each of the nine hostile kinds, each treated as bad-input.md says.
        let hostile = try #require(chaos["hostile"])
        #expect(hostile["opened"] == 18)
        let kinds = hostile["byKind"]?.arrayValue ?? []
        #expect(kinds.count == 9)
        for kind in kinds {
            #expect(kind["opened"] == 2)
            // The handshake timeout (10 s) and the queue limit (8 MiB) outlast this short run.
            if kind["kind"] == "slowloris" || kind["kind"] == "never-reads" { continue }
            #expect(kind["asExpected"] == 2, "\(kind)")
        }
        let verdict = try #require(chaos["verdict"])
        #expect(verdict["lostFrames"] == 0)
        #expect(verdict["faultsArmed"] == true)
        #expect(verdict["hostileOpened"] == true)
        #expect(verdict["pass"]?.boolValue != nil)
        #expect(result.status == (verdict["pass"] == true ? 0 : 1))
    }

    /// The check can fail: two sessions counted as untouched get their answers throttled to a
    /// sixth of real time, and the verdict says so (late audio, frames sent but not received).
    @Test func aHarmedUntouchedSessionFailsTheChaosVerdict() async throws {
        let result = try await Self.run([
            "load", "--protocol", "qwen-realtime", "-n", "4", "--idle", "0.5", "--warmup", "0.5", "--duration", "4",
            "--chaos", "--hostile", "0", "--faulted-percent", "0", "--chaos-sabotage", "2",
        ])
        let report = try JSONValue.decode(result.stdout)
        let chaos = try #require(report["chaos"], "\(result.stderr)")
        #expect(chaos["faulted"]?["sessions"] == 0)
        #expect(chaos["untouched"]?["sessions"] == 4)
        #expect(chaos["untouched"]?["sabotaged"] == 2)
        #expect(chaos["controlStatuses"] == [200, 200])
        let verdict = try #require(chaos["verdict"])
        #expect(verdict["pass"] == false)
        // The throttled answers show as late chunks or as frames still unsent at the end, as the
        // run's timing falls (the test's 4 s window is short): either is the harm, named.
        let reasons = verdict["reasons"]?.arrayValue?.compactMap(\.stringValue) ?? []
        #expect(
            reasons.contains { $0.contains("lateness") || $0.contains("lost") || $0.contains("differ") }, "\(reasons)")
        #expect(result.status == 1)
    }

    @Test func aBadProtocolIsOneLineAndExitTwo() async throws {
        let result = try await Self.run(["load", "--protocol", "smtp"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("--protocol"))
    }
}
