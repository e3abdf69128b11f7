package import WireJSON

/// The conversation's items in order (`realtime.item` objects), with insertion after a
/// `previous_item_id`, lookup and deletion (S16, S17), and the history window of
/// `max_history_turns`.
package struct Conversation: Sendable, Hashable {
    /// The items in conversation order.
    package private(set) var items: [JSONObject] = []

    /// Creates an empty conversation.
    package init() {}

    /// The id of the last item, `nil` when empty.
    package var lastItemID: String? { items.last?["id"]?.stringValue }

    /// Whether an item with this id exists.
    package func contains(_ id: String) -> Bool { index(of: id) != nil }

    /// The item with this id.
    package func item(_ id: String) -> JSONObject? { index(of: id).map { items[$0] } }

    /// Inserts `item` after `previousID` (`nil`: at the end; `"root"`: at the start) and
    /// returns the id of the item now before it, or `nil` when `previousID` is unknown.
    @discardableResult
    package mutating func insert(_ item: JSONObject, after previousID: String?) -> String?? {
        guard let previousID else {
            let before = lastItemID
            items.append(item)
            return .some(before)
        }
        if previousID == "root" {
            items.insert(item, at: 0)
            return .some(nil)
        }
        guard let index = index(of: previousID) else { return nil }
        items.insert(item, at: index + 1)
        return .some(previousID)
    }

    /// Replaces the stored item that has the same id.
    package mutating func update(_ item: JSONObject) {
        guard let id = item["id"]?.stringValue, let index = index(of: id) else { return }
        items[index] = item
    }

    /// Deletes the item; returns whether it existed.
    @discardableResult
    package mutating func delete(_ id: String) -> Bool {
        guard let index = index(of: id) else { return false }
        items.remove(at: index)
        return true
    }

    /// The items an inference would see: everything from the `maxTurns`-th last user message on.
    package func history(maxTurns: Int) -> ArraySlice<JSONObject> {
        var userMessages = 0
        for index in items.indices.reversed() where Self.isUserMessage(items[index]) {
            userMessages += 1
            if userMessages == maxTurns { return items[index...] }
        }
        return items[...]
    }

    /// Whether `item` is a message from the user.
    package static func isUserMessage(_ item: JSONObject) -> Bool {
        item["type"]?.stringValue == "message" && item["role"]?.stringValue == "user"
    }

    /// The text an item contributes to a prompt (texts and transcripts, call names, outputs).
    package static func promptText(of item: JSONObject) -> String {
        var parts: [String] = []
        for part in item["content"]?.arrayValue ?? [] {
            if let text = part["text"]?.stringValue ?? part["transcript"]?.stringValue { parts.append(text) }
        }
        for key in ["name", "arguments", "output"] {
            if let text = item[key]?.stringValue { parts.append(text) }
        }
        return parts.joined(separator: " ")
    }

    private func index(of id: String) -> Int? {
        items.firstIndex { $0["id"]?.stringValue == id }
    }
}
