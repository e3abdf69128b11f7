internal import CLibWebSockets
import Glibc
import Synchronization

/// One listening socket for several `WebSocketServer`s (one per service thread): an accept
/// thread takes each new connection and hands it to the next server in turn, which adopts it
/// into its own lws context (`lws_adopt_socket_vhost`). Debian's lws 4.1 has one service
/// thread per context (`LWS_MAX_SMP` 1) and no `SO_REUSEPORT` listener, so this is how a
/// session lands on one of several threads and stays there.
package final class SharedListener: Sendable {
    private let servers: [WebSocketServer]
    private let socket: Int32
    /// The bound port.
    package let port: UInt16
    private let stopping = Atomic<Bool>(false)
    private let next = Atomic<Int>(0)
    private let thread = Mutex<pthread_t?>(nil)

    /// Binds `host:port` (0 picks a free port) and listens; `servers` must have been made with
    /// `ownsListener` false.
    package init(host: String, port: UInt16, servers: [WebSocketServer]) throws(WebSocketError) {
        precondition(!servers.isEmpty, "a listener needs servers")
        self.servers = servers
        let ipv6 = host.contains(":")
        let fd = Glibc.socket(ipv6 ? AF_INET6 : AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw WebSocketError("cannot create a socket: \(String(cString: strerror(errno)))") }
        var one: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        var bound = false
        if ipv6 {
            var address = sockaddr_in6()
            address.sin6_family = sa_family_t(AF_INET6)
            address.sin6_port = port.bigEndian
            bound =
                inet_pton(AF_INET6, host.trimmingBrackets, &address.sin6_addr) == 1
                && withUnsafePointer(to: &address) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                        bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in6>.size)) == 0
                    }
                }
        } else {
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = port.bigEndian
            bound =
                inet_pton(AF_INET, host == "localhost" ? "127.0.0.1" : host, &address.sin_addr) == 1
                && withUnsafePointer(to: &address) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                        bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
                    }
                }
        }
        guard bound, listen(fd, 4096) == 0 else {
            close(fd)
            throw WebSocketError("cannot listen on \(host):\(port) (address in use, or not available)")
        }
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        _ = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        let boundPort = withUnsafePointer(to: &storage) { pointer -> UInt16 in
            ipv6
                ? pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) {
                    UInt16(bigEndian: $0.pointee.sin6_port)
                }
                : pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) {
                    UInt16(bigEndian: $0.pointee.sin_port)
                }
        }
        socket = fd
        self.port = boundPort
    }

    /// Starts the accept thread.
    package func start() throws(WebSocketError) {
        let box = Unmanaged.passRetained(self).toOpaque()
        var tid = pthread_t()
        let rc = pthread_create(
            &tid, nil,
            { argument in
                let listener = Unmanaged<SharedListener>.fromOpaque(argument!).takeRetainedValue()
                clws_name_current_thread("lws-accept")
                listener.acceptLoop()
                return nil
            }, box)
        guard rc == 0 else {
            Unmanaged<SharedListener>.fromOpaque(box).release()
            throw WebSocketError("cannot start the accept thread: error \(rc)")
        }
        thread.withLock { $0 = tid }
    }

    /// Stops accepting (connections already handed out go on) and joins the accept thread.
    package func stop() {
        guard !stopping.exchange(true, ordering: .acquiringAndReleasing) else { return }
        shutdown(socket, Int32(SHUT_RDWR))
        if let tid = thread.withLock({ $0 }) { pthread_join(tid, nil) }
        close(socket)
    }

    private func acceptLoop() {
        while !stopping.load(ordering: .acquiring) {
            let fd = accept(socket, nil, nil)
            if fd < 0 {
                if stopping.load(ordering: .acquiring) { return }
                // Out of descriptors, or the peer gave up: wait a moment and go on.
                if errno != EINTR && errno != ECONNABORTED { usleep(10_000) }
                continue
            }
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)  // no child process inherits a session's socket
            // What lws' own listener sets: without it Nagle holds small frames back for the
            // peer's delayed ACK (tens of ms of downlink lateness).
            var one: Int32 = 1
            setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
            let index = next.add(1, ordering: .relaxed).oldValue % servers.count
            servers[index].adopt(socket: fd)
        }
    }
}

extension String {
    fileprivate var trimmingBrackets: String {
        hasPrefix("[") && hasSuffix("]") ? String(dropFirst().dropLast()) : self
    }
}
