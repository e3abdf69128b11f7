extension String {
    /// The string without leading and trailing spaces and tabs (HTTP header values: the
    /// engines' upgrade checks, the control API's token).
    package var trimmingSpaces: String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else {
            return ""
        }
        return String(self[first...last])
    }
}
