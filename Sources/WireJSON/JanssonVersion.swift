internal import CJansson

/// The Jansson the process runs with (recorded in health output and reports).
public enum JanssonVersion {
    public static var string: String { String(cString: jansson_version_str()) }
}
