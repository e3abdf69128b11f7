import CLISupport
import Glibc
import Synchronization
import WireSocket

/// Compresses the last block of journals that have been quiet a while, on a thread of its own
/// (never a service thread). A journal compresses a block once it is full (see
/// ``JournalStorage``), so an idle session's first events (`session.created`, its update and
/// answer: about 1.6 KB of JSON for a Qwen session) would otherwise stay uncompressed for as
/// long as it stays idle.
package final class JournalCompactor: Sendable {
    /// A journal with nothing appended for this long has its last block compressed.
    package static let quietMicros: Int64 = 1_000_000
    /// How often the open journals are looked at.
    static let intervalMicros: UInt32 = 250_000

    private let registry: SessionRegistry
    /// Bumped by every start and stop: a thread runs while the value it started with is current.
    private let generation = Atomic<Int>(0)

    package init(registry: SessionRegistry) { self.registry = registry }

    /// Starts the thread (one at a time: a start stops the previous one).
    package func start() {
        let mine = generation.add(1, ordering: .relaxed).newValue
        DetachedThread.start { [self] in
            while generation.load(ordering: .relaxed) == mine {
                usleep(Self.intervalMicros)
                compactQuietJournals(atMicros: MonotonicClock.nowMicros())
            }
        }
    }

    /// Stops the thread (within one interval).
    package func stop() { generation.add(1, ordering: .relaxed) }

    /// One pass: every open journal quiet for ``quietMicros`` at `now` compresses its last block.
    package func compactQuietJournals(atMicros now: Int64) {
        for journal in registry.openJournals {
            journal.compactIfQuiet(atMicros: now, quietMicros: Self.quietMicros)
        }
    }
}
