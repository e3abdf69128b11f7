package import WireJSON

/// Validation of the omni `audio` session object (§3.2): `input.format`, `output.format`,
/// `output.voice`.
package enum AudioFormatSettings {
    /// Sample rates omni accepts for input and output.
    package static let sampleRates: Set<Int64> = [8000, 16000, 24000, 48000]

    /// Validates `audio` and returns it unchanged when valid.
    package static func validate(_ value: JSONValue) -> Result<JSONValue, QwenError> {
        guard value.objectValue != nil else {
            return .failure(.invalidValue("session.audio", "audio must be an object."))
        }
        for direction in ["input", "output"] {
            guard let section = value[direction] else { continue }
            let param = "session.audio.\(direction)"
            guard section.objectValue != nil else {
                return .failure(.invalidValue(param, "\(direction) must be an object."))
            }
            if let voice = section["voice"], direction == "output", voice.stringValue == nil {
                return .failure(.invalidValue("\(param).voice", "voice must be a string."))
            }
            guard let format = section["format"] else { continue }
            if let error = validateFormat(format, param: "\(param).format", isInput: direction == "input") {
                return .failure(error)
            }
        }
        return .success(value)
    }

    private static func validateFormat(_ format: JSONValue, param: String, isInput: Bool) -> QwenError? {
        guard format.objectValue != nil else { return .invalidValue(param, "format must be an object.") }
        if let type = format["type"], !["pcm", "wav"].contains(type.stringValue ?? "") {
            return .invalidValue("\(param).type", "format type must be 'pcm' or 'wav'.")
        }
        if let rate = format["sample_rate"], !(rate.intValue.map(sampleRates.contains) ?? false) {
            return .invalidValue("\(param).sample_rate", "sample_rate must be 8000, 16000, 24000 or 48000.")
        }
        if let sampleFormat = format["sample_format"], sampleFormat.stringValue != "s16le" {
            return .invalidValue("\(param).sample_format", "sample_format must be 's16le'.")
        }
        if let channels = format["channels"] {
            guard isInput, let count = channels.intValue, [1, 2, 4].contains(count) else {
                return .invalidValue("\(param).channels", "channels must be 1, 2 or 4 (input only).")
            }
        }
        return nil
    }
}
