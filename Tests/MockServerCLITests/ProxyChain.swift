import CLISupport
import Foundation
import Glibc
import WireJSON
import WireSocket

/// A `mock-server` in proxy mode in front of an upstream `mock-server` (both binaries, loopback,
/// port 0, trace logs), for ``ProxyModeTests``.
final class ProxyChain: Sendable {
    let upstream: MockServerProcess
    let proxy: MockServerProcess
    /// The proxy's `--record` folder.
    let record: String

    /// - Parameter upstreamURL: what `--proxy-upstream` gets; nil for the upstream mock itself.
    init(upstreamArguments: [String], upstreamURL: String? = nil, proxyArguments: [String] = []) throws {
        upstream = try MockServerTestProcess.start(["--port", "0", "--log-level", "trace"] + upstreamArguments)
        record = NSTemporaryDirectory() + "dialogmock-proxy-\(UUID().uuidString)"
        do {
            proxy = try MockServerTestProcess.start(
                [
                    "--port", "0", "--log-level", "trace", "--record", record, "--proxy-upstream",
                    upstreamURL ?? "ws://127.0.0.1:\(upstream.port)",
                ] + proxyArguments)
        } catch {
            upstream.stop()
            throw error
        }
    }

    var proxyURL: String { "ws://127.0.0.1:\(proxy.port)" }

    /// Stops both and returns everything they wrote: ready lines, stderr, the record files.
    func stop() -> String {
        proxy.stop()
        upstream.stop()
        var outputs = [proxy.readyLine, upstream.readyLine, proxy.child.standardError, upstream.child.standardError]
        for name in (try? FileManager.default.contentsOfDirectory(atPath: record)) ?? [] {
            outputs.append((try? String(contentsOfFile: record + "/" + name, encoding: .utf8)) ?? "")
        }
        try? FileManager.default.removeItem(atPath: record)
        return outputs.joined(separator: "\n")
    }

    /// A session's journal entries from a server's control API.
    static func journal(port: UInt16, session: String = "s1") -> [JSONValue] {
        guard let body = RawWebSocket.get(port: port, path: "/_mock/sessions/\(session)/journal") else { return [] }
        return String(decoding: body, as: UTF8.self).split(separator: "\n").compactMap {
            try? JSONValue.decode(Array($0.utf8))
        }
    }

    /// `POST path` with a JSON body to a server's control API; the status.
    static func post(port: UInt16, path: String, body: String) -> Int? {
        guard let fd = LoopbackTCP.connect(port: port) else { return nil }
        defer { Glibc.close(fd) }
        let request = Array(
            "POST \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)"
                .utf8)
        _ = request.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        guard count > 12 else { return nil }
        return Int(String(decoding: buffer[9..<12], as: UTF8.self))
    }
}

/// A TLS terminator in front of a plain port, with a self-signed certificate made by the
/// `openssl` CLI for this test (Python's `ssl` serves it; TCP bytes are relayed both ways).
final class SelfSignedTLSRelay: Sendable {
    let child: ChildProcess
    let port: UInt16
    let folder: String

    static let script = """
        import asyncio, ssl, sys
        cert, key, target = sys.argv[1], sys.argv[2], int(sys.argv[3])
        async def pipe(reader, writer):
            try:
                while data := await reader.read(65536):
                    writer.write(data)
                    await writer.drain()
            except Exception:
                pass
            finally:
                writer.close()
        async def handle(reader, writer):
            try:
                up_reader, up_writer = await asyncio.open_connection("127.0.0.1", target)
            except Exception:
                writer.close()
                return
            await asyncio.gather(pipe(reader, up_writer), pipe(up_reader, writer))
        async def main():
            context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
            context.load_cert_chain(cert, key)
            server = await asyncio.start_server(handle, "127.0.0.1", 0, ssl=context)
            print(server.sockets[0].getsockname()[1], flush=True)
            async with server:
                await server.serve_forever()
        asyncio.run(main())
        """

    struct Failure: Error, CustomStringConvertible { let description: String }

    init(forwardingTo target: UInt16) async throws {
        folder = NSTemporaryDirectory() + "dialogmock-tls-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let made = try await ChildProcess.run(
            "/usr/bin/openssl",
            [
                "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=localhost",
                "-keyout", folder + "/key.pem", "-out", folder + "/cert.pem",
            ])
        guard made.status == 0 else { throw Failure(description: "openssl: \(made.stderr)") }
        child = try ChildProcess(
            "/usr/bin/python3", ["-c", Self.script, folder + "/cert.pem", folder + "/key.pem", "\(target)"])
        var port: UInt16?
        for _ in 0..<500 where port == nil && child.isRunning {
            try await Task.sleep(for: .milliseconds(10))
            port = child.standardOutput.split(separator: "\n").first.flatMap { UInt16($0) }
        }
        guard let port else {
            _ = child.kill()
            throw Failure(description: "the TLS relay did not start: \(child.standardError)")
        }
        self.port = port
    }

    func stop() {
        _ = child.kill()
        try? FileManager.default.removeItem(atPath: folder)
    }
}
