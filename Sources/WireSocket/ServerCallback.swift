internal import CLibWebSockets

/// The one lws callback of the server protocol; recovers the Swift server from the context user
/// pointer (set in `createContext`, valid for the context's lifetime).
func serverCallback(
    _ wsi: OpaquePointer?, _ reason: lws_callback_reasons, _ user: UnsafeMutableRawPointer?,
    _ input: UnsafeMutableRawPointer?, _ length: Int
) -> Int32 {
    guard let wsi, let context = lws_get_context(wsi), let owner = lws_context_user(context) else {
        return lws_callback_http_dummy(wsi, reason, user, input, length)
    }
    let server = Unmanaged<WebSocketServer>.fromOpaque(owner).takeUnretainedValue()
    return server.handle(wsi, reason, user, input, length)
}

extension WebSocketServer {
    func handle(
        _ wsi: OpaquePointer, _ reason: lws_callback_reasons, _ user: UnsafeMutableRawPointer?,
        _ input: UnsafeMutableRawPointer?, _ length: Int
    ) -> Int32 {
        switch reason {
        case LWS_CALLBACK_EVENT_WAIT_CANCELLED:
            loop.drainInbox()
            return 0

        case LWS_CALLBACK_FILTER_NETWORK_CONNECTION:
            return draining ? 1 : 0  // stop accepting once shutdown began

        case LWS_CALLBACK_HTTP_CONFIRM_UPGRADE:
            let head = requestHead(wsi, method: "GET")
            switch delegate.upgrade(head) {
            case .accept(let handler, let cap):
                pendingUpgrades[wsi] = (handler, cap ?? configuration.maxMessageBytes, head)
                return 0
            case .reject(let response):
                writeImmediateResponse(wsi, response)
                return 1
            }

        case LWS_CALLBACK_ESTABLISHED:
            guard let (handler, cap, head) = pendingUpgrades.removeValue(forKey: wsi) else { return -1 }
            let connection = Connection(
                id: nextConnectionID, request: head, handler: handler,
                maxMessageBytes: cap, loop: loop, wsi: wsi)
            connection.validatesUTF8 = true
            connection.writesAtOnce =
                !(table.offersDeflate
                && head.headers["sec-websocket-extensions"]?.contains("permessage-deflate") == true)
            nextConnectionID += 1
            connections[wsi] = connection
            handler.connectionOpened(connection)
            return 0

        case LWS_CALLBACK_RECEIVE:
            return connections[wsi]?.receive(input, length) ?? -1

        case LWS_CALLBACK_SERVER_WRITEABLE:
            return connections[wsi]?.writeNext() ?? 0

        case LWS_CALLBACK_WS_PEER_INITIATED_CLOSE:
            return connections[wsi]?.notePeerClose(input, length) ?? 0

        case LWS_CALLBACK_CLOSED:
            if let connection = connections.removeValue(forKey: wsi) {
                connection.markClosed()
                connection.handler.connectionClosed(
                    connection, peerCode: connection.peerCloseCode,
                    peerReason: connection.peerCloseReason)
            }
            return 0

        case LWS_CALLBACK_HTTP:
            return beginHTTP(wsi)
        case LWS_CALLBACK_HTTP_BODY:
            if let input, let exchange = httpExchanges[wsi] {
                exchange.body.append(contentsOf: UnsafeRawBufferPointer(start: input, count: length))
            }
            return 0
        case LWS_CALLBACK_HTTP_BODY_COMPLETION:
            guard let exchange = httpExchanges[wsi] else { return -1 }
            return respond(wsi, exchange)
        case LWS_CALLBACK_HTTP_WRITEABLE:
            guard let exchange = httpExchanges[wsi] else { return 0 }
            return writeHTTP(wsi, exchange)
        case LWS_CALLBACK_CLOSED_HTTP, LWS_CALLBACK_WSI_DESTROY:
            httpExchanges[wsi] = nil
            pendingUpgrades[wsi] = nil
            return lws_callback_http_dummy(wsi, reason, user, input, length)

        default:
            return lws_callback_http_dummy(wsi, reason, user, input, length)
        }
    }
}
