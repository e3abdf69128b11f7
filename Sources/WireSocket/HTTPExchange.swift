internal import CLibWebSockets

/// One HTTP request in flight on the service thread: the body as it arrives, then the response
/// as it is written in chunks.
final class HTTPExchange {
    let head: HTTPRequestHead
    var body: [UInt8] = []
    var response: HTTPResponse?
    /// The delegate has the request and has not replied yet (``HTTPReply``).
    var awaitingReply = false
    var headersWritten = false
    var bodyOffset = 0

    init(head: HTTPRequestHead) { self.head = head }
}

private let httpChunkBytes = 32 * 1024
private let methodTokens: [(lws_token_indexes, String)] = [
    (WSI_TOKEN_GET_URI, "GET"), (WSI_TOKEN_POST_URI, "POST"), (WSI_TOKEN_PUT_URI, "PUT"),
    (WSI_TOKEN_DELETE_URI, "DELETE"), (WSI_TOKEN_PATCH_URI, "PATCH"), (WSI_TOKEN_OPTIONS_URI, "OPTIONS"),
    (WSI_TOKEN_HEAD_URI, "HEAD"),
]

extension WebSocketServer {
    /// Copies method, path, query and headers while lws still holds them.
    func requestHead(_ wsi: OpaquePointer, method knownMethod: String? = nil) -> HTTPRequestHead {
        var method = knownMethod ?? "GET"
        var path = ""
        for (token, name) in methodTokens where lws_hdr_total_length(wsi, token) > 0 {
            if knownMethod == nil { method = name }
            path = copyHeader(wsi, token)
            break
        }
        var headers: [String: String] = [:]
        for index in 0..<Int(WSI_TOKEN_COUNT.rawValue) {
            let token = lws_token_indexes(rawValue: UInt32(index))
            guard lws_hdr_total_length(wsi, token) > 0, let cName = lws_token_to_string(token) else { continue }
            let name = String(cString: UnsafeRawPointer(cName).assumingMemoryBound(to: CChar.self))
            guard name.hasSuffix(":") else { continue }  // method tokens are "get " etc.
            headers[String(name.dropLast()).lowercased()] = copyHeader(wsi, token)
        }
        for name in configuration.extraHeaderNames {
            let key = name + ":"
            let length = key.withCString { lws_hdr_custom_length(wsi, $0, Int32(key.utf8.count)) }
            guard length > 0 else { continue }
            var buffer = [CChar](repeating: 0, count: Int(length) + 1)
            let copied = key.withCString {
                lws_hdr_custom_copy(wsi, &buffer, Int32(buffer.count), $0, Int32(key.utf8.count))
            }
            if copied >= 0 {
                headers[name] = String(
                    decoding: buffer.prefix(Int(copied)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
            }
        }
        var peer = [CChar](repeating: 0, count: 64)
        lws_get_peer_simple(wsi, &peer, peer.count)
        var head = HTTPRequestHead(
            method: method, path: path, queryItems: queryItems(wsi),
            headers: headers,
            peer: String(decoding: peer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        head.serviceThread = ServiceThreadExecutor(loop: loop)
        return head
    }

    private func copyHeader(_ wsi: OpaquePointer, _ token: lws_token_indexes) -> String {
        let length = lws_hdr_total_length(wsi, token)
        guard length > 0 else { return "" }
        // lws_hdr_copy joins URI-argument fragments with '&' and needs room for the terminator.
        var buffer = [CChar](repeating: 0, count: Int(length) + 64)
        let copied = lws_hdr_copy(wsi, &buffer, Int32(buffer.count), token)
        guard copied >= 0 else { return "" }
        return String(decoding: buffer.prefix(Int(copied)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Each URI argument is a separate lws header fragment, already percent-decoded.
    private func queryItems(_ wsi: OpaquePointer) -> [HTTPRequestHead.QueryItem] {
        var items: [HTTPRequestHead.QueryItem] = []
        var buffer = [CChar](repeating: 0, count: 4096)
        var index: Int32 = 0
        while true {
            let copied = lws_hdr_copy_fragment(wsi, &buffer, Int32(buffer.count), WSI_TOKEN_HTTP_URI_ARGS, index)
            if copied < 0 { break }
            items.append(
                .init(
                    parsing: String(decoding: buffer.prefix(Int(copied)).map { UInt8(bitPattern: $0) }, as: UTF8.self)))
            index += 1
        }
        return items
    }

    func beginHTTP(_ wsi: OpaquePointer) -> Int32 {
        let exchange = HTTPExchange(head: requestHead(wsi))
        httpExchanges[wsi] = exchange
        let declared = Int(exchange.head.headers["content-length"] ?? "") ?? 0
        if declared > configuration.maxHTTPBodyBytes {
            exchange.response = HTTPResponse(
                status: 413, contentType: "application/json",
                text:
                    #"{"code":"PayloadTooLarge","message":"request body exceeds \#(configuration.maxHTTPBodyBytes) bytes"}"#
            )
            lws_callback_on_writable(wsi)
            return 0
        }
        if exchange.head.headers["transfer-encoding"]?.lowercased().contains("chunked") == true {
            // lws 4.1 does not deliver chunked request bodies: say so rather than read an empty one.
            exchange.response = HTTPResponse(
                status: 411, contentType: "application/json",
                text:
                    #"{"code":"LengthRequired","message":"send the request body with Content-Length; chunked request bodies are not supported"}"#
            )
            lws_callback_on_writable(wsi)
            return 0
        }
        if declared > 0 && ["POST", "PUT", "PATCH"].contains(exchange.head.method) { return 0 }  // wait for the body
        return respond(wsi, exchange)
    }

    func respond(_ wsi: OpaquePointer, _ exchange: HTTPExchange) -> Int32 {
        // lws reports a body completion even for `Content-Length: 0`, after `beginHTTP` has
        // answered already: a request is handled once (a POST is not idempotent).
        guard exchange.response == nil, !exchange.awaitingReply else { return 0 }
        exchange.awaitingReply = true
        let request = HTTPRequest(head: exchange.head, body: exchange.body)
        exchange.body = []
        // The exchange and its wsi are used only on the service thread; the reply checks that
        // the exchange is still the wsi's (its client may have gone, and lws reuse the pointer).
        let target = SendableBox((wsi, exchange))
        let loop = loop
        let reply = HTTPReply { [weak self] response in
            let deliver: @Sendable () -> Void = { [weak self] in
                let (wsi, exchange) = target.value
                guard let self, self.httpExchanges[wsi] === exchange, exchange.response == nil else { return }
                exchange.response = response
                exchange.awaitingReply = false
                lws_callback_on_writable(wsi)
            }
            if loop.isOnServiceThread { deliver() } else { loop.execute(deliver) }
        }
        delegate.respond(to: request, reply: reply)
        return 0
    }

    /// Writes the headers, then the body in chunks, one step per writable callback.
    func writeHTTP(_ wsi: OpaquePointer, _ exchange: HTTPExchange) -> Int32 {
        guard let response = exchange.response else { return 0 }
        let pre = clws_pre()
        if !exchange.headersWritten {
            var buffer = [UInt8](repeating: 0, count: pre + 4096)
            let failed = buffer.withUnsafeMutableBufferPointer { raw -> Bool in
                let start = raw.baseAddress! + pre
                var cursor: UnsafeMutablePointer<UInt8>? = start
                let end = raw.baseAddress! + raw.count
                if lws_add_http_common_headers(
                    wsi, UInt32(response.status), response.contentType,
                    lws_filepos_t(response.body.count), &cursor, end) != 0
                {
                    return true
                }
                for (name, value) in response.headers {
                    let key = name.lowercased() + ":"
                    if lws_add_http_header_by_name(wsi, key, value, Int32(value.utf8.count), &cursor, end) != 0 {
                        return true
                    }
                }
                return lws_finalize_write_http_header(wsi, start, &cursor, end) != 0
            }
            if failed { return -1 }
            exchange.headersWritten = true
            if response.body.isEmpty || exchange.head.method == "HEAD" { return completeHTTP(wsi) }
            lws_callback_on_writable(wsi)
            return 0
        }
        let end = min(exchange.bodyOffset + httpChunkBytes, response.body.count)
        let isFinal = end == response.body.count
        var buffer = [UInt8](repeating: 0, count: pre + end - exchange.bodyOffset)
        buffer.replaceSubrange(pre..<buffer.count, with: response.body[exchange.bodyOffset..<end])
        let written = buffer.withUnsafeMutableBufferPointer { raw in
            lws_write(wsi, raw.baseAddress! + pre, raw.count - pre, isFinal ? LWS_WRITE_HTTP_FINAL : LWS_WRITE_HTTP)
        }
        if written < 0 { return -1 }
        exchange.bodyOffset = end
        if isFinal { return completeHTTP(wsi) }
        lws_callback_on_writable(wsi)
        return 0
    }

    private func completeHTTP(_ wsi: OpaquePointer) -> Int32 {
        httpExchanges[wsi] = nil
        return lws_http_transaction_completed(wsi) != 0 ? -1 : 0
    }

    /// Refuses an upgrade from inside LWS_CALLBACK_HTTP_CONFIRM_UPGRADE: headers and body are
    /// written at once (small), then lws closes the connection.
    func writeImmediateResponse(_ wsi: OpaquePointer, _ response: HTTPResponse) {
        let pre = clws_pre()
        var buffer = [UInt8](repeating: 0, count: pre + 4096 + response.body.count)
        buffer.withUnsafeMutableBufferPointer { raw in
            let start = raw.baseAddress! + pre
            var cursor: UnsafeMutablePointer<UInt8>? = start
            let end = raw.baseAddress! + raw.count
            // lws writes "HTTP/1.0" here (the request's version is not known yet at this point),
            // which WebSocket clients such as Python's websockets refuse to parse: the status
            // line is written by hand.
            let statusLine = Array("HTTP/1.1 \(response.status) \(Self.reasonPhrase(response.status))\r\n".utf8)
            guard statusLine.count < end - start else { return }
            start.update(from: statusLine, count: statusLine.count)
            cursor = start + statusLine.count
            guard
                lws_add_http_header_by_token(
                    wsi, WSI_TOKEN_HTTP_CONTENT_TYPE, response.contentType,
                    Int32(response.contentType.utf8.count), &cursor, end) == 0,
                lws_add_http_header_content_length(wsi, lws_filepos_t(response.body.count), &cursor, end) == 0,
                lws_add_http_header_by_token(wsi, WSI_TOKEN_CONNECTION, "close", 5, &cursor, end) == 0,
                lws_finalize_http_header(wsi, &cursor, end) == 0,
                let headerEnd = cursor
            else { return }
            response.body.withUnsafeBufferPointer { body in
                if let base = body.baseAddress { headerEnd.update(from: base, count: body.count) }
            }
            _ = lws_write(wsi, start, headerEnd + response.body.count - start, LWS_WRITE_HTTP_FINAL)
        }
    }

    /// The reason phrase of the statuses the servers refuse upgrades with (RFC 9110 §15).
    static func reasonPhrase(_ status: Int) -> String {
        switch status {
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 409: "Conflict"
        case 413: "Content Too Large"
        case 426: "Upgrade Required"
        case 429: "Too Many Requests"
        case 500: "Internal Server Error"
        case 503: "Service Unavailable"
        default: "Error"
        }
    }
}
