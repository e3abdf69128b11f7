package import WireJSON

/// Everything the mock and the harness need to know about one protocol, asked of it instead of
/// branching on which protocol it is. One conforming type per protocol, registered in
/// ``DialogProtocol/descriptor`` (the one list). What needs a higher module (the engine factory,
/// the latency and state extractors) is registered there by one exhaustive `switch` over
/// ``DialogProtocol``, so a new protocol case makes the compiler name each place to fill.
package protocol ProtocolDescriptor: Sendable {
    /// The service path (§2.1 of the protocol reference), without the case prefix or query.
    var servicePath: String { get }
    /// Another protocol's service path on which this one is chosen by the URL's model (Qwen-Audio-
    /// Live on the realtime path), or nil.
    var modelRoutedPath: String? { get }
    /// Whether a URL's `model` names this protocol on ``modelRoutedPath``.
    func claims(model: String) -> Bool
    /// The model a client of this protocol names when nothing else does, or nil (no model).
    var defaultModel: String? { get }
    /// The prefix of the protocol's obligation ids (`mmd` for `mmd.C1`).
    var obligationPrefix: String { get }
    /// The obligation a refused connect breaks (the endpoint, the API key, Qwen's model).
    var connectObligation: String { get }
    /// The obligation on the uplink audio's format (raw audio in the declared codec, rate and
    /// channels): a rate mislabel and a too fast or too slow uplink are filed under it.
    var audioFormatObligation: String { get }
    /// Where the uplink audio travels in a journal: `binary` frames or `base64` in text frames.
    var uplinkAudioSource: String { get }

    /// What follows the service path in a client's URL for `model` (`?model=…` or nothing).
    func query(model: String?) -> String
    /// The model a conformance case's client is given: the case's own, else the protocol's
    /// default or the run's (`--model`).
    func clientModel(caseModel: String?, runModel: String) -> String

    /// A client frame's event name in this protocol.
    func clientMessageName(of frame: JSONValue?) -> String?
    /// A server frame's event name in this protocol.
    func serverMessageName(of frame: JSONValue?) -> String?

    /// Whether ``errorFrame(code:message:taskID:)`` needs the client's task id (a reply frame
    /// without one would not reach the client's task).
    var errorFrameNeedsTaskID: Bool { get }
    /// Whether a first client frame that is not JSON ends the session (multimodal: `task-failed`,
    /// close 1000) rather than getting an error event on a connection that stays open (Qwen).
    var notJSONFirstFrameEndsTheSession: Bool { get }
    /// The frame that tells a client the server failed (a proxy's upstream, a replay's injected
    /// error), in this protocol: `code` and `message` as the client reads them.
    func errorFrame(code: String, message: String, taskID: String?) -> JSONValue
}
