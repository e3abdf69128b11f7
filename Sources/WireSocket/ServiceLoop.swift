internal import CLibWebSockets
internal import CLibev
import Dispatch
import Glibc
import Synchronization

/// The service thread and what it owns: one lws context, the cross-thread inbox and the timers.
/// Shared by `WebSocketServer` and `WebSocketClient`.
final class ServiceLoop: @unchecked Sendable {
    // @unchecked Sendable: everything but `inbox`, `stopRequested` and `contextForWakeUp` is
    // touched only on the service thread (or before it starts / after it is joined).

    private let inbox = Mutex<[() -> Void]>([])
    /// The context as the one thing other threads may use it for: `lws_cancel_service`.
    private let contextForWakeUp = Mutex<ContextHandle?>(nil)
    let stopRequested = Atomic<Bool>(false)
    private var thread: pthread_t?
    private let started = DispatchSemaphore(value: 0)
    private var startError: WebSocketError?
    private var makeContext: (() throws(WebSocketError) -> OpaquePointer)?

    let eventLoop: WebSocketServer.EventLoop
    private(set) var context: OpaquePointer?
    /// With `.libev`: the epoll loop this thread creates and runs, handed to lws as its foreign
    /// loop (one per thread: a loop lws created itself would attach SIGINT, and libev allows a
    /// signal on one loop only).
    private var evLoop: OpaquePointer?
    private let foreignLoops: UnsafeMutablePointer<UnsafeMutableRawPointer?>
    /// With `.libev`: the timer of `timers`, and a 250 ms tick that wakes lws (see `prepare`).
    private let evTimer: UnsafeMutablePointer<clibev_timer_t>
    private let evTick: UnsafeMutablePointer<clibev_timer_t>
    private var serviceThreadID: pthread_t?
    private(set) var finished = false
    private var timers = TimerQueue()
    private let timer: UnsafeMutablePointer<clws_timer_t>
    private var timerArmedFor: Int64 = .max
    /// Runs on the service thread after the context is destroyed.
    var onFinished: (() -> Void)?
    /// True while timers fire or the inbox drains: connections that queue a message then are
    /// written at the end of that pass (`flushWrites`) instead of through a writable callback.
    private(set) var batchingWrites = false
    private var connectionsToFlush: [Connection] = []
    /// Kept alive until the service thread ends: the object lws' context user pointer refers to.
    var owner: AnyObject?
    /// Where a queued message is laid out behind lws' headroom for its write: one buffer per
    /// thread, grown to the largest message up to ``frameScratchLimit``, instead of a copy with
    /// headroom per queued message.
    private var frameScratch: UnsafeMutableRawPointer?
    private var frameScratchCapacity = 0
    /// Messages longer than this are laid out in a buffer of their own (freed after the write).
    static let frameScratchLimit = 256 * 1024

    init(eventLoop: WebSocketServer.EventLoop) {
        self.eventLoop = eventLoop
        timer = .allocate(capacity: 1)
        timer.initialize(to: clws_timer_t())
        foreignLoops = .allocate(capacity: 2)
        foreignLoops.initialize(repeating: nil, count: 2)
        evTimer = .allocate(capacity: 1)
        evTimer.initialize(to: clibev_timer_t())
        evTick = .allocate(capacity: 1)
        evTick.initialize(to: clibev_timer_t())
    }

    deinit {
        frameScratch?.deallocate()
        timer.deallocate()
        foreignLoops.deallocate()
        evTimer.deallocate()
        evTick.deallocate()
    }

    /// Sets what `info` needs for this loop's event library (service thread, in `makeContext`).
    func prepare(_ info: inout lws_context_creation_info) throws(WebSocketError) {
        switch eventLoop {
        case .poll:
            break
        case .libuv:
            info.options |= UInt64(LWS_SERVER_OPTION_LIBUV) | UInt64(LWS_SERVER_OPTION_UV_NO_SIGSEGV_SIGFPE_SPIN)
        case .libev:
            guard let created = ev_loop_new(UInt32(EVBACKEND_EPOLL)) ?? ev_loop_new(0) else {
                throw WebSocketError("cannot create a libev loop")
            }
            evLoop = created
            foreignLoops[0] = UnsafeMutableRawPointer(created)
            info.foreign_loops = foreignLoops
            info.options |= UInt64(LWS_SERVER_OPTION_LIBEV)
            // lws' libev glue cannot move its timer earlier once armed, so its own timeouts
            // (handshake, close) are serviced only on I/O or when that timer fires. Waking the
            // loop every 250 ms (lws_cancel_service is an I/O event) bounds their lateness.
            evTick.pointee.owner = Unmanaged.passUnretained(self).toOpaque()
            clibev_timer_arm(
                created, evTick,
                { _, watcher, _ in
                    let loop = ServiceLoop.owner(of: watcher)
                    if let context = loop.context, !loop.finished { lws_cancel_service(context) }
                }, 0.25, 0.25)
        }
    }

    /// The loop an ev timer of ours belongs to (its `owner` back pointer).
    private static func owner(of watcher: UnsafeMutablePointer<ev_timer>?) -> ServiceLoop {
        Unmanaged<ServiceLoop>.fromOpaque(clibev_timer_from_watcher(watcher)!.pointee.owner).takeUnretainedValue()
    }

    /// Frees the libev loop when the context could not be created on it.
    private func discardEventLibraryLoop() {
        if let evLoop {
            clibev_timer_stop(evLoop, evTimer)
            clibev_timer_stop(evLoop, evTick)
            ev_loop_destroy(evLoop)
        }
        evLoop = nil
    }

    /// Starts the service thread, which creates the context with `makeContext`; returns once the
    /// context exists (or throws its error).
    func start(_ makeContext: @escaping () throws(WebSocketError) -> OpaquePointer) throws(WebSocketError) {
        precondition(thread == nil, "start() called twice")
        signal(SIGPIPE, SIG_IGN)
        self.makeContext = makeContext
        var tid = pthread_t()
        let box = Unmanaged.passRetained(self).toOpaque()
        let rc = pthread_create(
            &tid, nil,
            { argument in
                let loop = Unmanaged<ServiceLoop>.fromOpaque(argument!).takeRetainedValue()
                loop.run()
                return nil
            }, box)
        guard rc == 0 else {
            Unmanaged<ServiceLoop>.fromOpaque(box).release()
            throw WebSocketError("cannot start the service thread: error \(rc)")
        }
        thread = tid
        started.wait()
        if let startError {
            pthread_join(tid, nil)
            thread = nil
            throw startError
        }
    }

    /// Asks the loop to stop: `beginStop` runs on the service thread and must lead to `finish()`.
    /// Blocks until the service thread has exited.
    func stop(_ beginStop: @escaping @Sendable () -> Void) {
        guard let thread else { return }
        precondition(!isOnServiceThread, "stop() called on the service thread it would join")
        if !stopRequested.exchange(true, ordering: .acquiringAndReleasing) { execute(beginStop) }
        pthread_join(thread, nil)
        self.thread = nil
    }

    /// Runs `work` on the service thread, soon. Safe from any thread.
    func execute(_ work: @escaping @Sendable () -> Void) {
        inbox.withLock { $0.append(work) }
        contextForWakeUp.withLock { handle in if let handle { lws_cancel_service(handle.context) } }
    }

    var isOnServiceThread: Bool {
        guard let serviceThreadID else { return false }
        return pthread_equal(serviceThreadID, pthread_self()) != 0
    }

    func assertServiceThread() {
        assert(serviceThreadID == nil || isOnServiceThread, "WireSocket used off its service thread")
    }

    /// Drains the cross-thread inbox (from LWS_CALLBACK_EVENT_WAIT_CANCELLED).
    func drainInbox() {
        let work = inbox.withLock { pending -> [() -> Void] in
            defer { pending.removeAll() }
            return pending
        }
        batchingWrites { for item in work { item() } }
    }

    /// Runs `body` with `capacity` writable bytes (service thread): the loop's scratch buffer,
    /// or for a message past ``frameScratchLimit`` a buffer of its own.
    func withFrameScratch<Result>(capacity: Int, _ body: (UnsafeMutableRawPointer) -> Result) -> Result {
        guard capacity <= Self.frameScratchLimit else {
            let buffer = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 16)
            defer { buffer.deallocate() }
            return body(buffer)
        }
        if capacity > frameScratchCapacity {
            frameScratch?.deallocate()
            frameScratchCapacity = max(capacity, 8192)
            frameScratch = UnsafeMutableRawPointer.allocate(byteCount: frameScratchCapacity, alignment: 16)
        }
        return body(frameScratch!)
    }

    // MARK: - Timers

    func schedule(atMicros due: Int64, _ action: @escaping () -> Void) -> TimerID {
        assertServiceThread()
        let id = timers.insert(due: due, action: action)
        armTimer()
        return id
    }

    /// A new timer's id, for ``schedule(_:atMicros:_:)``: an action that needs its own id
    /// captures a constant, not a variable boxed on the heap.
    func makeTimerID() -> TimerID { timers.makeID() }

    /// Schedules `action` under an id from ``makeTimerID()``.
    func schedule(_ id: TimerID, atMicros due: Int64, _ action: @escaping () -> Void) {
        assertServiceThread()
        timers.insert(id, due: due, action: action)
        armTimer()
    }

    /// Remembers `connection` for the flush at the end of the current pass.
    func flushAtEndOfPass(_ connection: Connection) {
        connectionsToFlush.append(connection)
    }

    /// Runs `pass` (timers or the inbox), then writes what its connections queued meanwhile:
    /// every frame due in one pass has gone through its session first (so the sends of earlier
    /// frames do not delay later ones), and no frame waits for a writable round trip.
    private func batchingWrites(_ pass: () -> Void) {
        batchingWrites = true
        pass()
        batchingWrites = false
        guard !connectionsToFlush.isEmpty else { return }
        let connections = connectionsToFlush
        connectionsToFlush.removeAll(keepingCapacity: true)
        for connection in connections { connection.flushWrites() }
    }

    func cancelTimer(_ id: TimerID) {
        assertServiceThread()
        timers.cancel(id)
    }

    private func armTimer() {
        guard !finished, let context, let due = timers.nextDue(), due != timerArmedFor else { return }
        timerArmedFor = due
        if let evLoop {
            evTimer.pointee.owner = Unmanaged.passUnretained(self).toOpaque()
            let seconds = Double(max(0, due - MonotonicClock.nowMicros())) / 1_000_000
            clibev_timer_arm(
                evLoop, evTimer, { _, watcher, _ in ServiceLoop.owner(of: watcher).fireTimers() }, seconds, 0)
            return
        }
        timer.pointee.owner = Unmanaged.passUnretained(self).toOpaque()
        lws_sul_schedule(
            context, 0, clws_timer_sul(timer),
            { sul in
                let loop = Unmanaged<ServiceLoop>.fromOpaque(clws_timer_from_sul(sul)!.pointee.owner)
                    .takeUnretainedValue()
                loop.fireTimers()
            }, lws_usec_t(max(0, due - MonotonicClock.nowMicros())))
    }

    private func fireTimers() {
        timerArmedFor = .max
        batchingWrites {
            // Everything due at one reading of the clock, then again for what came due meanwhile.
            var now = MonotonicClock.nowMicros()
            while !finished {
                guard let action = timers.popDue(now: now) else {
                    let later = MonotonicClock.nowMicros()
                    guard let next = timers.nextDue(), next <= later else { break }
                    now = later
                    continue
                }
                action()
            }
        }
        armTimer()
    }

    // MARK: - Loop

    /// The service thread's name, unique in the process (`lws-1`, `lws-2`, …), so tests and
    /// debuggers can tell the loops apart.
    let threadName: String = "lws-\(ServiceLoop.counter.add(1, ordering: .relaxed).newValue)"
    private static let counter = Atomic<Int>(0)

    private func run() {
        serviceThreadID = pthread_self()
        clws_name_current_thread(threadName)
        do throws(WebSocketError) {
            let created = try makeContext!()
            context = created
            contextForWakeUp.withLock { $0 = ContextHandle(context: created) }
        } catch {
            startError = error
            discardEventLibraryLoop()
        }
        makeContext = nil
        started.signal()
        guard let context else { return }
        if let evLoop {
            // lws only registers watchers on a foreign loop; this thread runs it until `finish`
            // breaks out, then destroys the context outside any callback (one step with libev).
            while !finished { ev_run(evLoop, 0) }
        } else {
            while !finished {
                if lws_service(context, 0) < 0 { break }
            }
        }
        contextForWakeUp.withLock { $0 = nil }
        lws_context_destroy(context)
        discardEventLibraryLoop()
        self.context = nil
        timers = TimerQueue()
        onFinished?()
        onFinished = nil
        drainInbox()
        owner = nil
    }

    /// Ends the loop: the context is destroyed on the service thread.
    func finish() {
        guard !finished, let context else { return }
        finished = true
        if let evLoop {
            ev_break(evLoop, Int32(EVBREAK_ALL))
        } else if eventLoop == .libuv {
            // With libuv, lws_service blocks inside uv_run until the context is destroyed from
            // within the loop (from a sul, as the foundation notes found clean under valgrind);
            // lws_context_destroy is called again after lws_service returns.
            timer.pointee.owner = Unmanaged.passUnretained(self).toOpaque()
            lws_sul_schedule(
                context, 0, clws_timer_sul(timer),
                { sul in
                    let loop = Unmanaged<ServiceLoop>.fromOpaque(clws_timer_from_sul(sul)!.pointee.owner)
                        .takeUnretainedValue()
                    if let context = loop.context { lws_context_destroy(context) }
                }, 1)
        } else {
            lws_cancel_service(context)
        }
    }
}

/// An lws context pointer passed across threads only for `lws_cancel_service`, which the lws
/// headers document as safe to call from any thread.
private struct ContextHandle: @unchecked Sendable {
    let context: OpaquePointer
}

/// A service thread as other threads may use it: `execute` queues a closure and wakes the loop.
/// Closures queued after the loop has ended are never run.
package struct ServiceThreadExecutor: Sendable {
    let loop: ServiceLoop

    package func execute(_ work: @escaping @Sendable () -> Void) { loop.execute(work) }
}
