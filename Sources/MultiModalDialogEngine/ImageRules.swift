package import WireJSON

/// The image rules of RequestToRespond / UpdateInfo (C14, S12): each image is
/// `{type: "url"|"base64", value: <non-empty string>}` and base64 payloads decode to less than
/// 180 KB.
package enum ImageRules {
    /// One accepted image.
    package struct Image: Sendable, Hashable {
        /// `url` or `base64`.
        package var type: String
        /// Decoded size of a base64 image, or nil for a URL.
        package var decodedBytes: Int?
    }

    /// The base64 size limit: decoded payloads must be smaller (180 KB = 184 320 bytes).
    package static let maximumDecodedBytes = 180 * 1024

    /// Validates `parameters.images`.
    /// - Returns: the images in order (empty when absent or null).
    /// - Throws: a ``ParameterProblem`` for `mmd.C14` naming the first bad image.
    package static func validate(_ images: JSONValue?) throws(ParameterProblem) -> [Image] {
        guard let images, !images.isNull else { return [] }
        guard let list = images.arrayValue else {
            throw ParameterProblem("mmd.C14", "parameters.images must be an array, got \(images.typeName)")
        }
        var result: [Image] = []
        for (index, element) in list.enumerated() {
            let name = "parameters.images[\(index)]"
            guard case .object(let object) = element else {
                throw ParameterProblem("mmd.C14", "\(name) must be an object, got \(element.typeName)")
            }
            guard let type = object["type"]?.stringValue, type == "url" || type == "base64" else {
                throw ParameterProblem("mmd.C14", "\(name).type must be \"url\" or \"base64\"")
            }
            guard let value = object["value"]?.stringValue, !value.isEmpty else {
                throw ParameterProblem("mmd.C14", "\(name).value must be a non-empty string")
            }
            guard type == "base64" else {
                result.append(Image(type: type, decodedBytes: nil))
                continue
            }
            guard let size = Base64.lenientDecodedCount(ofEncoded: value) else {
                throw ParameterProblem("mmd.C14", "\(name).value is not valid base64")
            }
            guard size < maximumDecodedBytes else {
                throw ParameterProblem("mmd.C14", "\(name) decodes to \(size) bytes (limit: under 180 KB)")
            }
            result.append(Image(type: type, decodedBytes: size))
        }
        return result
    }
}
