import MockServer
import SessionCore
import WireJSON
import WireSocket

/// How the `control-api` target reads its bytes: a request line `METHOD PATH[?QUERY]`, a
/// newline, optional `name: value` header lines, an empty line, and the body.
enum ControlAPIFuzzing {
    nonisolated(unsafe) static let api: OfflineControlAPI = {
        do { return try OfflineControlAPI() } catch { fatalError("the default scenario does not load: \(error)") }
    }()

    static func run(_ bytes: [UInt8]) {
        let request = request(bytes)
        let response = api.respond(to: request)
        let asked = "\(request.head.method) \(request.head.path)"
        precondition((200..<600).contains(response.status), "\(asked): status \(response.status)")
        if response.contentType == "application/json" {
            precondition(
                (try? JSONValue.decode(response.body, options: .allowNul)) != nil,
                "\(Array(asked.utf8).prefix(200)): a JSON answer that is not JSON: \(response.body.prefix(300))")
        }
        // A clean slate for the next input (faults armed, scenario replaced).
        _ = api.respond(
            to: HTTPRequest(head: HTTPRequestHead(method: "POST", path: "/_mock/reset", headers: [:]), body: []))
    }

    static func request(_ bytes: [UInt8]) -> HTTPRequest {
        var rest = bytes[...]
        var lines: [String] = []
        while let end = rest.firstIndex(of: UInt8(ascii: "\n")) {
            let line = String(decoding: rest[..<end], as: UTF8.self)
            rest = rest[(end + 1)...]
            if line.isEmpty || (!lines.isEmpty && !line.contains(":")) { break }
            lines.append(line)
        }
        if lines.isEmpty {
            lines = [String(decoding: rest, as: UTF8.self)]
            rest = []
        }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            let colon = line.firstIndex(of: ":")!
            headers[line[..<colon].lowercased()] = String(line[line.index(after: colon)...]).trimmingSpaces
        }
        let parts = lines[0].split(separator: " ", maxSplits: 1)
        let method = parts.first.map(String.init) ?? "GET"
        let target = parts.count > 1 ? String(parts[1]) : "/_mock/"
        let pathAndQuery = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        let query =
            pathAndQuery.count > 1
            ? pathAndQuery[1].split(separator: "&").map { HTTPRequestHead.QueryItem(parsing: String($0)) } : []
        return HTTPRequest(
            head: HTTPRequestHead(method: method, path: String(pathAndQuery[0]), queryItems: query, headers: headers),
            body: Array(rest))
    }
}
