internal import CLibWebSockets

/// The receive side: reassembly with the size cap, the UTF-8 check of text messages, and the
/// peer's close frame.
extension Connection {
    /// Appends one RECEIVE chunk; delivers the message when it is complete. -1 closes (1009).
    func receive(_ input: UnsafeMutableRawPointer?, _ length: Int) -> Int32 {
        guard let wsi else { return -1 }
        if !messageInProgress {
            messageInProgress = true
            receivingBinary = lws_frame_is_binary(wsi) != 0
        }
        if receiveBuffer.count + length > maxMessageBytes {
            var reason = Array("message exceeds \(maxMessageBytes) bytes".utf8)
            reason.withUnsafeMutableBufferPointer { raw in
                lws_close_reason(wsi, LWS_CLOSE_STATUS_MESSAGE_TOO_LARGE, raw.baseAddress, raw.count)
            }
            receiveBuffer = []
            return -1
        }
        if let input, length > 0 {
            let chunk = UnsafeRawBufferPointer(start: input, count: length)
            if validatesUTF8, !receivingBinary, !utf8.feed(chunk) { return failInvalidUTF8(wsi) }
            receiveBuffer.append(contentsOf: chunk)
        }
        guard lws_is_final_fragment(wsi) != 0 && lws_remaining_packet_payload(wsi) == 0 else { return 0 }
        if validatesUTF8, !receivingBinary, !utf8.finish() { return failInvalidUTF8(wsi) }
        let bytes = receiveBuffer
        receiveBuffer = []
        messageInProgress = false
        handler.connection(self, received: receivingBinary ? .binary(bytes) : .text(bytes))
        return 0
    }

    /// Fails the connection with 1007 (RFC 6455 §8.1): a text message that is not UTF-8.
    private func failInvalidUTF8(_ wsi: OpaquePointer) -> Int32 {
        var reason = Array("text message is not valid UTF-8".utf8)
        reason.withUnsafeMutableBufferPointer { raw in
            lws_close_reason(wsi, LWS_CLOSE_STATUS_INVALID_PAYLOAD, raw.baseAddress, raw.count)
        }
        receiveBuffer = []
        return -1
    }

    /// Records the code and reason of the peer's close frame. Returns -1 (hang up now) when it
    /// answers our own close frame, 0 to let lws echo the close.
    func notePeerClose(_ input: UnsafeMutableRawPointer?, _ length: Int) -> Int32 {
        if closeSent { return -1 }
        guard let input, length >= 2 else {
            peerCloseCode = .noStatus
            return 0
        }
        let bytes = UnsafeRawBufferPointer(start: input, count: length)
        peerCloseCode = CloseCode(UInt16(bytes[0]) << 8 | UInt16(bytes[1]))
        var reason = UTF8Validator()
        guard !validatesUTF8 || (reason.feed(UnsafeRawBufferPointer(rebasing: bytes.dropFirst(2))) && reason.finish())
        else {
            // A close reason that is not UTF-8 fails the connection (RFC 6455 §7.1.7, Autobahn 7.5.1).
            peerCloseReason = ""
            return -1
        }
        peerCloseReason = String(decoding: bytes.dropFirst(2), as: UTF8.self)
        return 0
    }
}
