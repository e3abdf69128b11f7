import ProtocolModel
import ScenarioEngine
import SessionCore
import WireJSON

extension QwenRealtimeSession {
    /// `conversation.item.create` (S15, S16): validate per §4.6, match tool outputs to calls,
    /// insert after `previous_item_id`, reply `conversation.item.created`.
    func createItem(_ event: JSONObject) -> [SessionCommand] {
        let validated = ClientItem.validate(event["item"], conversation: conversation) {
            scenario.runtime.ids.id(prefix: "item_")
        }
        let item: JSONObject
        switch validated {
        case .failure(let error): return reject(error, "qrt.C15")
        case .success(let value): item = value
        }
        var previousID: String?
        if let previous = event["previous_item_id"], !previous.isNull {
            guard let id = previous.stringValue else {
                return reject(.invalidValue("previous_item_id", "previous_item_id must be a string."), "qrt.C15")
            }
            guard id == "root" || conversation.contains(id) else {
                return reject(.itemNotFound(id, param: "previous_item_id"), "qrt.C15")
            }
            previousID = id
        }
        var commands: [SessionCommand] = []
        if item["type"]?.stringValue == "function_call_output", let callID = item["call_id"]?.stringValue {
            guard tools.awaits(callID) || knownCall(callID) else {
                return reject(
                    .invalidValue("item.call_id", "No function call with call_id '\(callID)' is waiting for output."),
                    "qrt.C13")
            }
            if !tools.outputArrived(callID) {
                commands += violation("qrt.C13", "second function_call_output for \(callID)")
            }
        }
        guard let after = conversation.insert(item, after: previousID) else { return commands }
        turns.itemAdded()
        if item["role"]?.stringValue == "user" { scenario.runtime.report.turns += 1 }
        commands += emit(
            .conversationItemCreated,
            ["previous_item_id": after.map(JSONValue.string) ?? .null, "item": .object(item)],
            delay: delay(before: .conversationItemCreated))
        if phase == .awaitingToolOutput, !tools.isAwaitingOutput { commands += enter(.listening) }
        return commands
    }

    /// Whether a `function_call` item with this call id is in the conversation.
    private func knownCall(_ callID: String) -> Bool {
        conversation.items.contains {
            $0["type"]?.stringValue == "function_call" && $0["call_id"]?.stringValue == callID
        }
    }

    /// `conversation.item.retrieve` (S17): audio content carries its transcript only.
    func retrieveItem(_ event: JSONObject) -> [SessionCommand] {
        guard let id = event["item_id"]?.stringValue else {
            return reject(.invalidValue("item_id", "item_id must be a string."), "qrt.C15")
        }
        guard let item = conversation.item(id) else {
            return error(.itemNotFound(id))
        }
        return emit(
            .conversationItemRetrieved, ["item": .object(item)], delay: delay(before: .conversationItemRetrieved))
    }

    /// `conversation.item.delete` (S17).
    func deleteItem(_ event: JSONObject) -> [SessionCommand] {
        guard let id = event["item_id"]?.stringValue else {
            return reject(.invalidValue("item_id", "item_id must be a string."), "qrt.C15")
        }
        guard conversation.delete(id) else {
            return error(.itemNotFound(id))
        }
        turns.itemDeleted(id)
        return emit(
            .conversationItemDeleted, ["item_id": .string(id)], delay: delay(before: .conversationItemDeleted))
    }
}
