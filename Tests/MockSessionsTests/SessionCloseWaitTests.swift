import Foundation
import Testing

@testable import MockSessions

/// The harness awaits a case's sessions closing (issue 11: it polled 50 × 20 ms before).
@Suite("Waiting for a case's sessions to close")
struct SessionCloseWaitTests {
    static func open(_ registry: SessionRegistry, caseID: String?) throws -> String {
        let journal = try #require(
            registry.add(
                limit: 10,
                { id in
                    SessionJournal(
                        id: id, protocolName: "qwen-realtime", path: "/", testID: nil, caseID: caseID,
                        startedAtMicros: 0, recordWriter: nil)
                }, control: SessionRegistry.SessionControl(arm: { _ in }, disarm: { _ in }), armNow: { _ in }))
        return journal.id
    }

    static func millis(_ body: () async -> Void) async -> Double {
        let start = ContinuousClock.now
        await body()
        let elapsed = ContinuousClock.now - start
        return Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
    }

    @Test func returnsAtOnceWhenNoSessionOfTheCaseIsOpen() async throws {
        let registry = SessionRegistry()
        _ = try Self.open(registry, caseID: "other")
        let waited = await Self.millis { await registry.waitUntilClosed(caseID: "c1", timeoutMillis: 5_000) }
        #expect(waited < 1_000)
    }

    @Test func wakesWhenTheLastSessionOfTheCaseCloses() async throws {
        let registry = SessionRegistry()
        let first = try Self.open(registry, caseID: "c1")
        let second = try Self.open(registry, caseID: "c1")
        let other = try Self.open(registry, caseID: "c2")
        // The closes come from another thread, as from a service thread (not the cooperative
        // pool, which the parallel tests can starve).
        let closer = Thread {
            Thread.sleep(forTimeInterval: 0.1)
            registry.markClosed(first)
            registry.markClosed(other)
            Thread.sleep(forTimeInterval: 0.1)
            registry.markClosed(second)
        }
        closer.start()
        let waited = await Self.millis { await registry.waitUntilClosed(caseID: "c1", timeoutMillis: 120_000) }
        #expect(waited >= 190, "woke before the last session of the case closed")
        #expect(waited < 60_000, "woke by the close, not the timeout")
        #expect(registry.openCount == 0)
    }

    @Test func givesUpAfterTheTimeout() async throws {
        let registry = SessionRegistry()
        _ = try Self.open(registry, caseID: "c1")
        let waited = await Self.millis { await registry.waitUntilClosed(caseID: "c1", timeoutMillis: 150) }
        #expect(waited >= 140)
        #expect(registry.openCount == 1)
    }
}
