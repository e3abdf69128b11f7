import Dispatch
import Glibc
import Synchronization

/// The answers' audio, rendered once per distinct `AnswerAudioKey` and shared by every session
/// of every server in the process, bounded in bytes (least recently used answers go first).
///
/// A lookup never renders on the caller's thread when the cache has workers: a miss returns a
/// pending handle and a worker thread (at a lower priority than the service threads) renders
/// it; only the sessions waiting for that answer wait. With `workers: 0` a miss renders inline,
/// which is what pure engine tests want.
package final class AnswerAudioCache: Sendable {
    /// What the cache has done so far (for metrics and benchmarks).
    package struct Statistics: Sendable, Hashable {
        package var hits = 0
        package var misses = 0
        package var entries = 0
        package var bytes = 0
        package var evictions = 0
        /// Wall time spent rendering, in microseconds.
        package var renderMicros: Int64 = 0
        /// Prefetches not queued because ``maxQueuedPrefetches`` were waiting already.
        package var prefetchesSkipped = 0
    }

    /// Most prefetches waiting for a worker. Beyond it a prefetch is dropped (a session that
    /// needs that answer renders it then): queued entries are never evicted, so scenarios
    /// loaded faster than their answers render (a script putting scenarios in a loop) would
    /// otherwise grow the queue and its entries without bound.
    package static let maxQueuedPrefetches = 256

    private struct Entry {
        let handle: AnswerAudioHandle
        var lastUse: UInt64
        var bytes: Int
        /// Waiting for a worker (not yet taken from a queue).
        var queued = false
        /// A session asked for it while it was queued: it is in `urgent` too.
        var urgent = false
    }

    private struct State {
        var entries: [AnswerAudioKey: Entry] = [:]
        var tick: UInt64 = 0
        var statistics = Statistics()
        var jobs: [AnswerAudioHandle] = []
        var jobHead = 0
        /// Queued answers a session is waiting for, rendered before the prefetches ahead of them.
        var urgent: [AnswerAudioHandle] = []
        var workersStarted = 0
    }

    /// The process-wide cache servers use: one worker per core but one (at least one).
    package static let shared = AnswerAudioCache(workers: max(1, AnswerAudioCache.processorCount - 1))
    /// A cache that renders on the caller's thread (engine tests, tools).
    package static let inline = AnswerAudioCache(workers: 0)

    /// Upper bound of the rendered bytes kept.
    package let byteBudget: Int
    /// Worker threads rendering misses (0: render inline).
    package let workers: Int
    /// Turns a key into its audio: ``AnswerRenderer/render(_:)`` unless a tool bounds the work
    /// (the engine fuzz targets render a prefix of arbitrarily long texts).
    private let renderer: @Sendable (AnswerAudioKey) -> RenderedAnswer
    private let state = Mutex(State())
    private let jobsAvailable = DispatchSemaphore(value: 0)

    package init(
        byteBudget: Int = 256 << 20, workers: Int,
        renderer: @escaping @Sendable (AnswerAudioKey) -> RenderedAnswer = AnswerRenderer.render
    ) {
        self.byteBudget = byteBudget
        self.workers = workers
        self.renderer = renderer
    }

    /// The handle of `key`'s audio, rendering it (on a worker) if nobody has yet.
    package func answer(_ key: AnswerAudioKey) -> AnswerAudioHandle {
        lookup(key, urgent: true)!
    }

    /// The handle of `key`; `urgent` when a session waits for it: one still queued behind
    /// prefetches (a scenario's answers queued at load) goes first. Nil only for a prefetch
    /// miss while the prefetch queue is full.
    private func lookup(_ key: AnswerAudioKey, urgent: Bool) -> AnswerAudioHandle? {
        let found = state.withLock { state -> (AnswerAudioHandle, Bool)? in
            state.tick += 1
            if var entry = state.entries[key] {
                entry.lastUse = state.tick
                if urgent, entry.queued, !entry.urgent {
                    entry.urgent = true
                    state.urgent.append(entry.handle)
                }
                state.entries[key] = entry
                state.statistics.hits += 1
                return (entry.handle, false)
            }
            if !urgent, workers > 0, state.jobs.count - state.jobHead >= Self.maxQueuedPrefetches {
                state.statistics.prefetchesSkipped += 1
                return nil
            }
            state.statistics.misses += 1
            let handle = AnswerAudioHandle(key: key)
            state.entries[key] = Entry(
                handle: handle, lastUse: state.tick, bytes: 0, queued: workers > 0, urgent: urgent && workers > 0)
            if workers > 0 {
                if urgent { state.urgent.append(handle) } else { state.jobs.append(handle) }
                if state.workersStarted < workers {
                    state.workersStarted += 1
                    startWorker()
                }
            }
            return (handle, true)
        }
        guard let (handle, isNew) = found else { return nil }
        if isNew {
            if workers > 0 { jobsAvailable.signal() } else { render(handle) }
        }
        return handle
    }

    /// Starts rendering `keys` now so that later lookups hit (a scenario's scripted answers
    /// when it loads).
    /// - Returns: their handles.
    @discardableResult
    package func prefetch(_ keys: some Sequence<AnswerAudioKey>) -> [AnswerAudioHandle] {
        keys.compactMap { lookup($0, urgent: false) }
    }

    package var statistics: Statistics {
        state.withLock { state in
            var statistics = state.statistics
            statistics.entries = state.entries.count
            return statistics
        }
    }

    private func render(_ handle: AnswerAudioHandle) {
        let started = DispatchTime.now().uptimeNanoseconds
        let answer = renderer(handle.key)
        let elapsed = Int64((DispatchTime.now().uptimeNanoseconds - started) / 1000)
        state.withLock { state in
            state.statistics.renderMicros += elapsed
            guard var entry = state.entries[handle.key], entry.handle === handle else { return }
            entry.bytes = answer.byteCount
            state.entries[handle.key] = entry
            state.statistics.bytes += entry.bytes
            if state.statistics.bytes > byteBudget { evict(&state) }
        }
        handle.fulfil(answer)
    }

    /// Drops the least recently used rendered answers until the cache is at 3/4 of its budget
    /// (sessions still holding a handle keep theirs).
    private func evict(_ state: inout State) {
        let ready = state.entries.filter { $0.value.bytes > 0 }.sorted { $0.value.lastUse < $1.value.lastUse }
        for (key, entry) in ready where state.statistics.bytes > byteBudget * 3 / 4 {
            state.entries[key] = nil
            state.statistics.bytes -= entry.bytes
            state.statistics.evictions += 1
        }
    }

    /// The next answer to render: urgent ones first, then prefetches in order; each once.
    private func nextJob() -> AnswerAudioHandle? {
        state.withLock { state in
            while !state.urgent.isEmpty {
                let job = state.urgent.removeFirst()
                if take(job, &state) { return job }
            }
            while state.jobHead < state.jobs.count {
                let job = state.jobs[state.jobHead]
                state.jobHead += 1
                if state.jobHead == state.jobs.count {
                    state.jobs.removeAll(keepingCapacity: true)
                    state.jobHead = 0
                }
                if take(job, &state) { return job }
            }
            return nil
        }
    }

    /// Marks a queued job as taken; false when a worker already took it (it was urgent too).
    private func take(_ job: AnswerAudioHandle, _ state: inout State) -> Bool {
        guard var entry = state.entries[job.key], entry.handle === job, entry.queued else { return false }
        entry.queued = false
        state.entries[job.key] = entry
        return true
    }

    private func startWorker() {
        let box = Unmanaged.passRetained(WorkerContext(cache: self)).toOpaque()
        var thread = pthread_t()
        let rc = pthread_create(
            &thread, nil,
            { argument in
                let context = Unmanaged<WorkerContext>.fromOpaque(argument!).takeRetainedValue()
                // Below the service threads: rendering yields the cores to sessions that are sending
                // (on Linux, PRIO_PROCESS with id 0 sets the calling thread's nice value).
                setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 10)
                context.cache.workLoop()
                return nil
            }, box)
        if rc == 0 { pthread_detach(thread) } else { Unmanaged<WorkerContext>.fromOpaque(box).release() }
    }

    private func workLoop() {
        while true {
            jobsAvailable.wait()
            while let job = nextJob() { render(job) }
        }
    }

    private final class WorkerContext {
        let cache: AnswerAudioCache
        init(cache: AnswerAudioCache) { self.cache = cache }
    }

    private static var processorCount: Int { Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))) }

}
