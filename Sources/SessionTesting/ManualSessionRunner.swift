import AnswerAudio
import Dispatch
import ProtocolModel
package import ScenarioEngine
package import SessionCore

/// Runs one protocol session the way the server's session driver does, without sockets or
/// threads: a `ManualClock`, a timer table fired in time order, and every command recorded.
/// Engine tests and the fuzz targets drive sessions through it.
package final class ManualSessionRunner<Session: ProtocolSession> where Session.Clock == ManualClock {
    package let clock: ManualClock
    package let session: Session
    /// Timers the session has scheduled and not yet seen fire or cancelled, by due time.
    package private(set) var timers: [SessionTimer: Int64] = [:]
    /// Frames in the order the session handed them over (each carries its send time).
    package private(set) var sent: [ScheduledFrame] = []
    /// Journal notes in order.
    package private(set) var notes: [JournalNote] = []
    /// Every transport action the session asked for (closes, abrupt and slow closes, stalls,
    /// caps, fragmenting), in order, with its time.
    package private(set) var transports: [(action: TransportAction, atMicros: Int64)] = []
    /// The close handshakes among ``transports``.
    package var closes: [(code: Int, reason: String, atMicros: Int64)] {
        transports.compactMap { entry in
            guard case .close(let code, let reason) = entry.action else { return nil }
            return (code, reason, entry.atMicros)
        }
    }
    /// How often the session waited for answer audio a worker was still rendering.
    package private(set) var awaited = 0

    /// Opens `session` (its `open()` commands are run at once).
    package init(session: Session, clock: ManualClock) {
        self.session = session
        self.clock = clock
        process(session.open())
    }

    package var nowMicros: Int64 { clock.nowMicros }

    /// Carries out commands as the driver would. An awaited answer blocks until a worker has
    /// rendered it (the driver resumes the session from the service thread instead).
    package func process(_ commands: [SessionCommand]) {
        for command in commands {
            switch command {
            case .send(let frame): sent.append(frame)
            case .transport(let action, let at): transports.append((action, at))
            case .scheduleTimer(let timer, let at): timers[timer] = at
            case .cancelTimer(let timer): timers[timer] = nil
            case .journal(let note): notes.append(note)
            case .awaitAudio(let handle, let timer):
                awaited += 1
                let done = DispatchSemaphore(value: 0)
                handle.whenReady { done.signal() }
                done.wait()
                timers[timer] = clock.nowMicros
            }
        }
    }

    /// A client text frame, classified as the driver classifies it.
    package func receive(text bytes: [UInt8]) {
        process(session.receive(text: bytes, classification: session.classify(text: bytes)))
    }

    /// A client binary frame.
    package func receive(binary bytes: [UInt8]) {
        process(session.receive(binary: bytes))
    }

    /// Moves time to `micros`, firing every timer due on the way in time order.
    package func advance(toMicros micros: Int64) {
        while let (timer, at) = timers.min(by: { $0.value < $1.value }), at <= micros {
            timers[timer] = nil
            if at > clock.nowMicros { clock.set(toMicros: at) }
            process(session.timerFired(timer))
        }
        if micros > clock.nowMicros { clock.set(toMicros: micros) }
    }

    /// Moves time forward by `ms` milliseconds.
    package func advance(ms: Int64) { advance(toMicros: clock.nowMicros + ms * 1000) }
}
