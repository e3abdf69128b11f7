internal import CLibWebSockets
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

    let usesLibuv: Bool
    private(set) var context: OpaquePointer?
    private var serviceThreadID: pthread_t?
    private(set) var finished = false
    private var timers = TimerQueue()
    private let timer: UnsafeMutablePointer<clws_timer_t>
    private var timerArmedFor: Int64 = .max
    /// Runs on the service thread after the context is destroyed.
    var onFinished: (() -> Void)?
    /// Kept alive until the service thread ends: the object lws' context user pointer refers to.
    var owner: AnyObject?

    init(usesLibuv: Bool) {
        self.usesLibuv = usesLibuv
        timer = .allocate(capacity: 1)
        timer.initialize(to: clws_timer_t())
    }

    deinit { timer.deallocate() }

    /// Starts the service thread, which creates the context with `makeContext`; returns once the
    /// context exists (or throws its error).
    func start(_ makeContext: @escaping () throws(WebSocketError) -> OpaquePointer) throws(WebSocketError) {
        precondition(thread == nil, "start() called twice")
        signal(SIGPIPE, SIG_IGN)
        self.makeContext = makeContext
        var tid = pthread_t()
        let box = Unmanaged.passRetained(self).toOpaque()
        let rc = pthread_create(&tid, nil, { argument in
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
        for item in work { item() }
    }

    // MARK: - Timers

    func schedule(atMicros due: Int64, _ action: @escaping () -> Void) -> TimerID {
        assertServiceThread()
        let id = timers.insert(due: due, action: action)
        armTimer()
        return id
    }

    func cancelTimer(_ id: TimerID) {
        assertServiceThread()
        timers.cancel(id)
    }

    private func armTimer() {
        guard !finished, let context, let due = timers.nextDue(), due != timerArmedFor else { return }
        timerArmedFor = due
        timer.pointee.owner = Unmanaged.passUnretained(self).toOpaque()
        lws_sul_schedule(context, 0, clws_timer_sul(timer), { sul in
            let loop = Unmanaged<ServiceLoop>.fromOpaque(clws_timer_from_sul(sul)!.pointee.owner).takeUnretainedValue()
            loop.fireTimers()
        }, lws_usec_t(max(0, due - MonotonicClock.nowMicros())))
    }

    private func fireTimers() {
        timerArmedFor = .max
        while !finished {
            let due = timers.popDue(now: MonotonicClock.nowMicros())
            if due.isEmpty { break }
            for action in due { action() }
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
        }
        makeContext = nil
        started.signal()
        guard let context else { return }
        while !finished {
            if lws_service(context, 0) < 0 { break }
        }
        contextForWakeUp.withLock { $0 = nil }
        lws_context_destroy(context)
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
        if usesLibuv {
            // With libuv, lws_service blocks inside uv_run until the context is destroyed from
            // within the loop (from a sul, as the foundation notes found clean under valgrind);
            // lws_context_destroy is called again after lws_service returns.
            timer.pointee.owner = Unmanaged.passUnretained(self).toOpaque()
            lws_sul_schedule(context, 0, clws_timer_sul(timer), { sul in
                let loop = Unmanaged<ServiceLoop>.fromOpaque(clws_timer_from_sul(sul)!.pointee.owner).takeUnretainedValue()
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
public struct ServiceThreadExecutor: Sendable {
    let loop: ServiceLoop

    public func execute(_ work: @escaping @Sendable () -> Void) { loop.execute(work) }
}
