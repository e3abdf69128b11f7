internal import CLame
internal import COpus

/// The audio libraries the process runs with (recorded in health output and reports).
package enum AudioLibraryVersions {
    package static var opus: String { String(cString: opus_get_version_string()) }
    package static var lame: String { String(cString: get_lame_version()) }
}
