import MockCapture
import MockSessions
import ProtocolModel
import WireSocket

extension Router {
    /// A protocol route under `--proxy-upstream`: the session is the upstream's, forwarded and
    /// journaled; the client's headers (its API key too) go upstream and nowhere else.
    func upgradeProxied(_ route: ProtocolRoute, _ request: HTTPRequestHead, proxy: ProxyClient) -> UpgradeDecision {
        guard sessions.openCount < configuration.maxSessions, let serviceThread = request.serviceThread else {
            return refuseAtCapacity(request)
        }
        let made = sessions.add(
            limit: configuration.maxSessions,
            { id in
                SessionJournal(
                    id: id, protocolName: route.kind.rawValue, path: request.path, testID: request.testID,
                    caseID: route.caseID, startedAtMicros: MonotonicClock.nowMicros(), recordWriter: recordWriter,
                    frameLimit: configuration.journalFrameLimit, upstream: proxy.upstream.origin,
                    events: sessions.events)
            }, control: SessionRegistry.SessionControl(arm: { _ in }, disarm: { _ in }), armNow: { _ in })
        guard let journal = made else { return refuseAtCapacity(request) }
        let session = ProxySession(
            protocolKind: route.kind, journal: journal, metrics: metrics, logger: configuration.logger)
        let id = journal.id
        session.onClose = { [sessions] in sessions.markClosed(id) }
        session.maxQueuedBytes = configuration.maxQueuedBytes
        session.keepsPayloads = configuration.journalAudio || configuration.recordDirectory != nil
        let url = proxy.upstream.url(path: request.path, queryItems: request.queryItems.map { ($0.name, $0.value) })
        configuration.logger(.info, "session \(id): \(route.kind.rawValue) proxied to \(url)")
        session.start(
            client: proxy.client, url: url, headers: ProxyHeaders.forwarded(request.headers),
            insecureTLS: proxy.upstream.insecureTLS, maxMessageBytes: Self.maxProtocolMessageBytes,
            serviceThread: serviceThread)
        return .accept(session, maxMessageBytes: Self.maxProtocolMessageBytes)
    }
}
