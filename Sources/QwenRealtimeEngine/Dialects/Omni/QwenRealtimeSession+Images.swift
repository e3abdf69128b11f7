import SessionCore
import WireJSON

extension QwenRealtimeSession {
    /// The largest accepted base64 image text (256 KB, §4.5).
    static var maximumImageCharacters: Int { 256 * 1024 }

    /// Omni `input_image_buffer.append` (S18): after audio, base64 JPEG ≤ 256 KB; buffered
    /// and committed with the next commit (journaled, not echoed: no documented field).
    func appendImage(_ event: JSONObject) -> [SessionCommand] {
        guard input.started else {
            return reject(
                QwenError(
                    code: "image_before_audio", message: "Append audio before appending an image.", param: "image"),
                "qrt.C16")
        }
        guard let text = event["image"]?.stringValue else {
            return reject(.invalidValue("image", "input_image_buffer.append needs a base64 'image' string."), "qrt.C16")
        }
        guard text.utf8.count <= Self.maximumImageCharacters else {
            return reject(
                QwenError(
                    code: "image_too_large", message: "Image exceeds 256 KB after base64 encoding.", param: "image"),
                "qrt.C16")
        }
        guard let bytes = Base64.decode(text) else {
            return reject(.invalidValue("image", "Invalid base64 image data."), "qrt.C16")
        }
        guard bytes.count >= 3, bytes[0] == 0xFF, bytes[1] == 0xD8, bytes[2] == 0xFF else {
            return reject(.invalidValue("image", "Image must be a JPEG."), "qrt.C16")
        }
        var commands: [SessionCommand] = []
        input.imageTimes = input.imageTimes.filter { now - $0 < 1_000_000 } + [now]
        if input.imageTimes.count > 2 {
            commands += violationOnce("C16-rate", "qrt.C16", "more than 2 images per second")
        }
        input.bufferedImages += 1
        return commands
    }
}
