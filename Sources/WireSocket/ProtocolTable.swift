internal import CLibWebSockets
import Glibc

/// The zero-terminated `lws_protocols` and `lws_extension` arrays a context is created with.
/// lws keeps pointers to them (and to their name strings) for the context's whole life, so
/// they live in C memory owned here and freed only after the context is destroyed.
final class ProtocolTable {
    let protocols: UnsafeMutablePointer<lws_protocols>
    /// Holds permessage-deflate when `deflate` was asked for; otherwise just the terminator.
    let extensions: UnsafeMutablePointer<lws_extension>
    private let strings: [UnsafeMutablePointer<CChar>]
    /// permessage-deflate is offered (then a connection that took it writes only from writable
    /// callbacks: see `Connection.writesAtOnce`).
    let offersDeflate: Bool

    typealias Callback =
        @convention(c) (
            OpaquePointer?, lws_callback_reasons, UnsafeMutableRawPointer?,
            UnsafeMutableRawPointer?, Int
        ) -> Int32

    init(name: String, callback: Callback, deflate: Bool) {
        offersDeflate = deflate
        let protocolName = strdup(name)!
        let deflateName = strdup("permessage-deflate")!
        let deflateOffer = strdup("permessage-deflate; client_max_window_bits")!
        strings = [protocolName, deflateName, deflateOffer]
        protocols = .allocate(capacity: 2)
        protocols.initialize(repeating: lws_protocols(), count: 2)
        protocols[0].name = UnsafePointer(protocolName)
        protocols[0].callback = callback
        protocols[0].rx_buffer_size = 65536
        extensions = .allocate(capacity: 2)
        extensions.initialize(repeating: lws_extension(), count: 2)
        if deflate {
            extensions[0].name = UnsafePointer(deflateName)
            extensions[0].callback = lws_extension_callback_pm_deflate
            extensions[0].client_offer = UnsafePointer(deflateOffer)
        }
    }

    deinit {
        protocols.deallocate()
        extensions.deallocate()
        for string in strings { free(string) }
    }
}
