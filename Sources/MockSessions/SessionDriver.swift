import AnswerAudio
import ProtocolModel
package import ScenarioEngine
package import SessionCore
import WireJSON
package import WireSocket

/// Runs one protocol session on one connection: feeds it frames and timers, executes its
/// commands on the socket, and journals everything. Service-thread confined.
package final class SessionDriver<Session: ProtocolSession>: ConnectionHandler {
    package let session: Session
    /// Set by the router right after the driver is made (the registry names the session).
    package var journal: SessionJournal!
    private let metrics: ServerMetrics
    private let logger: Logger
    private weak var connection: Connection?
    /// The session's set timers: a handful at most, so a list searched by equality (no string
    /// hashing per timer, as a dictionary keyed by the timer's name would do).
    private var timers: [(timer: SessionTimer, id: TimerID)] = []
    /// Set by a `fragment` fault: every later frame is split into pieces of this size.
    private var persistentFragmentBytes: Int?
    private var ended = false
    /// Sends and socket actions scheduled but not yet run.
    private var waitingActions = 0
    /// Journal notes from the upgrade (e.g. a C1 warning), recorded when the session opens.
    package var initialNotes: [JournalNote] = []
    /// What faults armed during the upgrade (for the session's test id) did at once, e.g. a
    /// close: it runs once the connection is open, after the session's first commands.
    private var commandsBeforeOpen: [SessionCommand] = []
    /// Called once when the connection is gone.
    package var onClose: (() -> Void)?
    /// Keep audio payloads (base64 fields) in the journal (`--journal-audio`); otherwise audio
    /// frames are journaled as a summary (bytes, duration, codec) so streaming journals stay small.
    package var journalAudio = false
    /// Most bytes queued for the client before the session is closed (it does not read).
    package var maxQueuedBytes = Int.max

    package init(session: Session, metrics: ServerMetrics, logger: Logger) {
        self.session = session
        self.metrics = metrics
        self.logger = logger
    }

    private var now: Int64 { MonotonicClock.nowMicros() }

    // MARK: - Connection events

    package func connectionOpened(_ connection: Connection) {
        self.connection = connection
        journal.serviceThreadName = connection.serviceThreadName
        metrics.sessionOpened()
        execute(initialNotes.map(SessionCommand.journal) + session.open())
        let waiting = commandsBeforeOpen
        commandsBeforeOpen = []
        execute(waiting)
    }

    package func connection(_ connection: Connection, received message: WebSocketMessage) {
        let t = journal.elapsed(atMicros: now)
        // The frame's entry is built first (its audio summary may depend on the state before the
        // frame) and recorded after the engine handled it, with the level of the samples the
        // engine decoded; the engine's commands (journal notes among them) run after the entry.
        var entry: JournalEntry
        let commands: [SessionCommand]
        var wireText: [UInt8]?
        switch message {
        case .text(let bytes):
            wireText = bytes
            let classification = session.classify(text: bytes)
            if let json = classification.json {
                entry = textEntry(t: t, .in, json: json, eventType: classification.eventType, byteLength: bytes.count)
            } else if let audio = classification.inPlaceAudio?.audio, !journalAudio {
                // Read in place by the engine: the event type and the audio summary, as for any audio frame.
                entry = JournalEntry(
                    t: t, direction: .in, kind: .text, byteLength: bytes.count,
                    eventType: classification.eventType, audio: audio)
            } else if classification.inPlaceAudio != nil, let json = try? JSONValue.decode(bytes) {
                // --journal-audio keeps the payload (or the length was not base64's): the whole frame.
                entry = textEntry(t: t, .in, json: json, eventType: classification.eventType, byteLength: bytes.count)
            } else {
                entry = JournalEntry(
                    t: t, direction: .in, kind: .text, byteLength: bytes.count,
                    text: String(decoding: bytes.prefix(4096), as: UTF8.self))
            }
            metrics.frameIn(bytes: bytes.count)
            commands = session.receive(text: bytes, classification: classification)
        case .binary(let bytes):
            entry = .binaryFrame(
                t: t, .in, byteLength: bytes.count, audio: session.audioSummary(ofBinary: bytes, inbound: true))
            metrics.frameIn(bytes: bytes.count)
            commands = session.receive(binary: bytes)
        }
        let level = session.takeReceivedAudioLevel()
        entry.audio?.level = level
        journal.record(entry, wireText: wireText)
        execute(commands)
    }

    package func connectionClosed(_ connection: Connection, peerCode: CloseCode?, peerReason: String) {
        journal.recordClose(.in, atMicros: now, code: peerCode.map { Int($0.rawValue) }, reason: peerReason)
        ended = true
        timers.removeAll()
        session.closed(peerCode: peerCode.map { Int($0.rawValue) })
        for note in session.closingNotes() { record(note) }
        journal.markClosed()
        metrics.sessionClosed()
        onClose?()
    }

    /// Arms a fault on this session (control API). Armed during the upgrade, it acts on the
    /// session's first frames; what it does at once waits for the open connection.
    package func arm(_ fault: FaultSpec) {
        executeOnceOpen(session.handle(session.scenario.runtime.armFault(fault)))
    }

    /// Disarms a fault the control API armed on this session.
    package func disarm(faultID: String) {
        executeOnceOpen(session.handle(session.scenario.runtime.disarmFault(id: faultID)))
    }

    /// Executes now, or after the session's first commands when the connection is not open yet.
    private func executeOnceOpen(_ commands: [SessionCommand]) {
        if connection == nil, !ended { commandsBeforeOpen += commands } else { execute(commands) }
    }

    // MARK: - Commands

    package func execute(_ commands: [SessionCommand]) {
        for command in commands {
            guard !ended, let connection else { return }
            switch command {
            case .send(let frame):
                at(frame.sendAtMicros, on: connection) { [self] in transmit(frame) }
            case .transport(let action, let time):
                at(time, on: connection) { [self] in perform(action) }
            case .scheduleTimer(let timer, let time):
                if let existing = removeTimer(timer) { connection.cancelTimer(existing) }
                let id = connection.schedule(atMicros: time) { [self] in
                    _ = removeTimer(timer)
                    execute(session.timerFired(timer))
                }
                timers.append((timer, id))
            case .cancelTimer(let timer):
                if let existing = removeTimer(timer) { connection.cancelTimer(existing) }
            case .journal(let note):
                record(note)
            case .awaitAudio(let handle, let timer):
                let executor = connection.serviceThread
                let ready = ServiceThreadBound<() -> Void>({ [weak self] in self?.audioReady(timer) })
                handle.whenReady { executor.execute { ready.value() } }
            }
        }
    }

    /// Forgets `timer` and returns its id, when it is set.
    private func removeTimer(_ timer: SessionTimer) -> TimerID? {
        guard let index = timers.firstIndex(where: { $0.timer == timer }) else { return nil }
        return timers.remove(at: index).id
    }

    /// An answer the session waited for is rendered (on this service thread again).
    private func audioReady(_ timer: SessionTimer) {
        guard !ended, connection != nil else { return }
        execute(session.timerFired(timer))
    }

    /// Runs `action` now when it is due and nothing scheduled earlier is still waiting; else at
    /// its time. Sends and socket actions thus keep the order the fault stage gave them (the
    /// timer queue runs equal deadlines in scheduling order).
    private func at(_ time: Int64, on connection: Connection, _ action: @escaping () -> Void) {
        let current = now
        if time <= current && waitingActions == 0 {
            action()
            return
        }
        waitingActions += 1
        connection.schedule(atMicros: max(time, current)) { [self] in
            waitingActions -= 1
            action()
        }
    }

    private func transmit(_ frame: ScheduledFrame) {
        guard let connection, connection.isOpen else { return }
        let sentAt = now
        metrics.frameOut(bytes: frame.bytes.count, latenessMicros: max(0, sentAt - frame.sendAtMicros))
        let t = journal.elapsed(atMicros: sentAt)
        if frame.isText {
            if let json = frame.json ?? (try? JSONValue.decode(frame.bytes)) {
                var entry = textEntry(t: t, .out, json: json, eventType: frame.eventType, byteLength: frame.bytes.count)
                entry.audio?.level = frame.audioLevel
                journal.record(entry, wireText: frame.bytes)
            } else {
                journal.record(
                    JournalEntry(
                        t: t, direction: .out, kind: .text, byteLength: frame.bytes.count,
                        eventType: frame.eventType, text: String(decoding: frame.bytes.prefix(4096), as: UTF8.self)))
            }
        } else {
            var audio = session.audioSummary(ofBinary: frame.bytes, inbound: false)
            audio?.level = frame.audioLevel
            journal.record(.binaryFrame(t: t, .out, byteLength: frame.bytes.count, audio: audio))
        }
        connection.fragmentSize = frame.fragmentBytes ?? persistentFragmentBytes
        connection.send(frame.isText ? .text(frame.bytes) : .binary(frame.bytes))
        connection.fragmentSize = persistentFragmentBytes
        if connection.queuedBytes > maxQueuedBytes { closeSlowReader(connection) }
    }

    /// The client's backlog passed `maxQueuedBytes`: it is not reading. The backlog is dropped
    /// and the session closed with 1008, so one stuck client cannot grow the server's memory.
    private func closeSlowReader(_ connection: Connection) {
        let reason = "client not reading: more than \(maxQueuedBytes) bytes queued"
        journal.recordClose(.out, atMicros: now, code: 1008, reason: reason)
        logger(
            .warn, "session \(journal.id): \(reason); closing with 1008", session: journal.id, testID: journal.testID)
        metrics.slowReaderClosed()
        connection.closeDroppingQueue(code: CloseCode(1008), reason: reason)
    }

    /// A text frame's journal entry: audio payloads summarised (and dropped unless `journalAudio`).
    private func textEntry(
        t: Int64, _ direction: JournalEntry.Direction, json: JSONValue, eventType: String?,
        byteLength: Int
    ) -> JournalEntry {
        guard let summary = session.audioSummary(ofText: json, eventType: eventType, inbound: direction == .in) else {
            return .textFrame(t: t, direction, json: json, eventType: eventType, byteLength: byteLength)
        }
        guard journalAudio else {
            // The event type and the audio summary only: no copy of the frame stays in memory.
            return JournalEntry(
                t: t, direction: direction, kind: .text, byteLength: byteLength, eventType: eventType, audio: summary)
        }
        var entry = JournalEntry.textFrame(t: t, direction, json: json, eventType: eventType, byteLength: byteLength)
        entry.audio = summary
        return entry
    }

    private func perform(_ action: TransportAction) {
        guard let connection, connection.isOpen else { return }
        let now = self.now
        switch action {
        case .close(let code, let reason):
            journal.recordClose(.out, atMicros: now, code: code, reason: reason)
            connection.close(code: CloseCode(UInt16(clamping: code)), reason: reason)
        case .abruptClose:
            journal.recordClose(.out, atMicros: now, code: nil, reason: "abrupt close (no close frame)")
            connection.abort()
        case .stall(let direction, let duration):
            setStalled(true, direction, connection)
            if let duration {
                connection.schedule(afterMicros: duration) { [self] in
                    if let connection = self.connection { setStalled(false, direction, connection) }
                }
            }
        case .slowClose(let delay):
            // The close frame goes out now; the peer's answer is not read and TCP stays up
            // until the delay has passed.
            journal.recordClose(.out, atMicros: now, code: 1000, reason: "slow close")
            connection.setReadsPaused(true)
            connection.close(code: .normal, reason: "slow close")
            connection.schedule(afterMicros: delay) { [weak connection] in connection?.abort() }
        case .bandwidthCap(let bytesPerSecond):
            connection.writeRateLimit = bytesPerSecond
        case .fragment(let frameBytes):
            persistentFragmentBytes = frameBytes
            connection.fragmentSize = frameBytes
        }
    }

    private func setStalled(_ stalled: Bool, _ direction: FaultSpec.StallDirection, _ connection: Connection) {
        if direction != .write { connection.setReadsPaused(stalled) }
        if direction != .read { connection.setWritesPaused(stalled) }
    }

    private func record(_ note: JournalNote) {
        let t = journal.elapsed(atMicros: now)
        switch note {
        case .state(let state):
            journal.record(JournalEntry(t: t, kind: .state, state: state))
        case .violation(let obligation, let message):
            journal.record(
                JournalEntry(t: t, kind: .violation, violation: Violation(obligation: obligation, message: message)))
            logger(
                .debug, "session \(journal.id): client violation \(obligation): \(message)", session: journal.id,
                testID: journal.testID)
        case .fault(let fault):
            journal.record(JournalEntry(t: t, kind: .fault, fault: fault))
        case .info(let text):
            logger(.debug, "session \(journal.id): \(text)", session: journal.id, testID: journal.testID)
        case .report(let report):
            journal.record(JournalEntry(t: t, kind: .report, json: report))
        }
    }
}
