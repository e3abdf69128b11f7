internal import CLame
internal import COpus

/// The audio libraries the process runs with (recorded in health output and reports).
public enum AudioLibraryVersions {
    public static var opus: String { String(cString: opus_get_version_string()) }
    public static var lame: String { String(cString: get_lame_version()) }
}
