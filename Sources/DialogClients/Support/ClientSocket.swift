import WireSocket

/// Opening a client's WebSocket, the same way for both clients.
enum ClientSocket {
    /// Connects a new socket client to `url`. On failure the client is first handed to
    /// `keepOnFailure`, which must keep it alive: releasing it right after a failed connect races
    /// its service thread's teardown of the failed attempt.
    static func connect(
        _ url: String, headers: [(String, String)], keepOnFailure: (WebSocketClient) -> Void
    ) async throws(WebSocketError) -> (socket: WebSocketClient, connection: ClientConnection) {
        let socket = WebSocketClient()
        do {
            return (socket, try await socket.connect(url, headers: headers))
        } catch {
            keepOnFailure(socket)
            throw error
        }
    }
}
