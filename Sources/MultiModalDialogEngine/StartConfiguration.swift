package import ProtocolModel
package import WireJSON

/// A validated `Start` (§5.1): everything the session needs from `run-task`.
package struct StartConfiguration: Sendable, Hashable {
    /// The client's task id, echoed in every server header.
    package var taskID: String
    /// `input.app_id`.
    package var appID: String
    /// `input.workspace_id` (null tolerated).
    package var workspaceID: String?
    /// `input.dialog_id` to resume, or nil for a new dialog.
    package var dialogID: String?
    /// `upstream.type == "AudioAndVideo"`.
    package var allowsVideo = false
    /// `upstream.mode`.
    package var mode: InteractionMode = .tapToTalk
    /// `upstream.audio_format`.
    package var uplinkFormat: UplinkFormat = .pcm
    /// `upstream.sample_rate`.
    package var uplinkSampleRate = 16000
    /// `upstream.asr_post_processing.replace_words`, applied to recognised transcripts.
    package var replaceWords: [WordReplacement] = []
    /// `upstream.vocabulary_id` (hot words; accepted and noted in the session log, recognition is scripted).
    package var vocabularyID: String?
    /// The downstream settings.
    package var downlink = DownlinkSettings()
    /// `client_info.user_id`.
    package var userID: String
    /// `parameters.biz_params` (sub-keys replaced by UpdateInfo).
    package var bizParams = JSONObject()
    /// SHOULD-level problems found (journaled, not fatal): model null, workspace_id null, …
    package var warnings: [ParameterProblem] = []
    /// SDK quirks the service tolerates, journaled as notes (e.g. the Java SDK's unset
    /// `downstream.sample_rate: 0`).
    package var notes: [String] = []

    /// Creates a configuration with defaults for everything optional.
    package init(taskID: String, appID: String, userID: String) {
        self.taskID = taskID
        self.appID = appID
        self.userID = userID
    }

    /// The allowed audio sample rates (C5).
    package static let sampleRates = [8000, 16000, 24000, 48000]
    /// The allowed opus frame sizes in ms (§5.1).
    package static let frameSizes = [10, 20, 40, 60, 100, 120]
}
