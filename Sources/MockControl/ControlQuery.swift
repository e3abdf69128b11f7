import ScenarioEngine
import WireJSON
package import WireSocket

/// A control request's query parameters, checked against those its route takes
/// (``ControlRoute/queryParameters``): an unknown or repeated parameter is a 400 naming it,
/// never a filter silently ignored (a misspelt `?testid=` on `DELETE /_mock/faults` would
/// otherwise remove every test's faults).
package enum ControlQuery {
    /// The 400 for the first bad parameter of `head` on `route`; nil when each one is known and
    /// given once. An empty fragment (`?` alone, `&&`) is no parameter.
    package static func refusal(_ head: HTTPRequestHead, route: ControlRoute) -> HTTPResponse? {
        let accepted = route.queryParameters
        var seen: Set<String> = []
        for item in head.queryItems where !(item.name.isEmpty && item.value.isEmpty) {
            guard accepted.contains(item.name) else { return unknown(item.name, route: route) }
            guard seen.insert(item.name).inserted else {
                return error(
                    "RepeatedQueryParameter", "query parameter \(item.name) is given more than once; give it once",
                    parameter: item.name)
            }
        }
        return nil
    }

    /// `unknown query parameter testid; did you mean testId?`, or what the route takes.
    private static func unknown(_ name: String, route: ControlRoute) -> HTTPResponse {
        let accepted = route.queryParameters
        let suggestion = DidYouMean.suggestion(for: name, among: accepted)
        let hint =
            if let suggestion {
                "did you mean \(suggestion)?"
            } else if accepted.isEmpty {
                "\(route.method) \(route.path) takes no query parameters"
            } else {
                "\(route.method) \(route.path) takes " + accepted.joined(separator: ", ")
            }
        return error(
            "UnknownQueryParameter", "unknown query parameter \(name); \(hint)", parameter: name,
            didYouMean: suggestion)
    }

    /// `{"code", "message", "parameter", "didYouMean"?}`.
    private static func error(
        _ code: String, _ message: String, parameter: String, didYouMean: String? = nil
    ) -> HTTPResponse {
        var body: JSONObject = [
            "code": .string(code), "message": .string(message), "parameter": .string(parameter),
        ]
        if let didYouMean { body["didYouMean"] = .string(didYouMean) }
        return .json(status: 400, .object(body))
    }
}
