package import WireJSON

/// The Qwen realtime client events of §4.0, spelled as on the wire (the `type` member).
package enum QwenClientEvent: String, Sendable, Hashable, CaseIterable {
    /// Patches the session configuration; answered by `session.updated` or `error`.
    case sessionUpdate = "session.update"
    /// A chunk of base64 input audio; no reply.
    case inputAudioBufferAppend = "input_audio_buffer.append"
    /// Commits the buffered audio as a user item (push-to-talk).
    case inputAudioBufferCommit = "input_audio_buffer.commit"
    /// Discards the buffered audio.
    case inputAudioBufferClear = "input_audio_buffer.clear"
    /// A base64 JPEG video frame (omni); no reply.
    case inputImageBufferAppend = "input_image_buffer.append"
    /// Adds an item (text message or function call output) to the conversation.
    case conversationItemCreate = "conversation.item.create"
    /// Asks for an item by id (audio profile).
    case conversationItemRetrieve = "conversation.item.retrieve"
    /// Deletes an item by id (audio profile).
    case conversationItemDelete = "conversation.item.delete"
    /// Asks for a response.
    case responseCreate = "response.create"
    /// Cancels the response in progress.
    case responseCancel = "response.cancel"
    /// Ends the session: pending results, then `session.finished` and close.
    case sessionFinish = "session.finish"
    /// Text to speak (text-to-speech); no reply.
    case inputTextBufferAppend = "input_text_buffer.append"
    /// Speaks the buffered text (text-to-speech).
    case inputTextBufferCommit = "input_text_buffer.commit"
    /// Discards the buffered text (text-to-speech).
    case inputTextBufferClear = "input_text_buffer.clear"

    /// The event as a JSON object: `type` first, then `fields` in their order.
    package func object(_ fields: JSONObject = [:]) -> JSONObject {
        var object: JSONObject = ["type": .string(rawValue)]
        for (key, value) in fields { object[key] = value }
        return object
    }
}

/// The Qwen realtime server events of §5.0, spelled as on the wire (the `type` member).
package enum QwenServerEvent: String, Sendable, Hashable, CaseIterable {
    /// An invalid request or a service failure (`error{type, code, message, param, event_id}`).
    case error
    /// The first event after connect, with the session.
    case sessionCreated = "session.created"
    /// The full session after a valid `session.update`.
    case sessionUpdated = "session.updated"
    /// VAD: speech began.
    case inputAudioBufferSpeechStarted = "input_audio_buffer.speech_started"
    /// VAD: speech ended (`reason: turn_invalid` on a smart_turn non-turn).
    case inputAudioBufferSpeechStopped = "input_audio_buffer.speech_stopped"
    /// The input audio became a user item (VAD auto-commit or reply to commit).
    case inputAudioBufferCommitted = "input_audio_buffer.committed"
    /// Reply to `input_audio_buffer.clear`.
    case inputAudioBufferCleared = "input_audio_buffer.cleared"
    /// An item joined the conversation.
    case conversationItemCreated = "conversation.item.created"
    /// Reply to `conversation.item.retrieve`.
    case conversationItemRetrieved = "conversation.item.retrieved"
    /// Reply to `conversation.item.delete`.
    case conversationItemDeleted = "conversation.item.deleted"
    /// The user transcript so far (`text` confirmed, `stash` tentative).
    case conversationItemInputAudioTranscriptionDelta = "conversation.item.input_audio_transcription.delta"
    /// The final user transcript.
    case conversationItemInputAudioTranscriptionCompleted = "conversation.item.input_audio_transcription.completed"
    /// Input transcription failed (separate from `error`).
    case conversationItemInputAudioTranscriptionFailed = "conversation.item.input_audio_transcription.failed"
    /// smart_turn: a non-turn sound recognised so far.
    case conversationItemAmbientAudioTranscriptionDelta = "conversation.item.ambient_audio_transcription.delta"
    /// smart_turn: the end of that ambient segment.
    case conversationItemAmbientAudioTranscriptionCompleted = "conversation.item.ambient_audio_transcription.completed"
    /// A response began.
    case responseCreated = "response.created"
    /// A new output item (message or function call).
    case responseOutputItemAdded = "response.output_item.added"
    /// A new content part.
    case responseContentPartAdded = "response.content_part.added"
    /// A chunk of text (text-only modality).
    case responseTextDelta = "response.text.delta"
    /// The text part finished.
    case responseTextDone = "response.text.done"
    /// A chunk of the spoken answer's transcript.
    case responseAudioTranscriptDelta = "response.audio_transcript.delta"
    /// The spoken answer's transcript finished.
    case responseAudioTranscriptDone = "response.audio_transcript.done"
    /// A chunk of base64 output audio.
    case responseAudioDelta = "response.audio.delta"
    /// The output audio finished.
    case responseAudioDone = "response.audio.done"
    /// A content part finished.
    case responseContentPartDone = "response.content_part.done"
    /// A chunk of a function call's arguments.
    case responseFunctionCallArgumentsDelta = "response.function_call_arguments.delta"
    /// A function call's arguments are complete.
    case responseFunctionCallArgumentsDone = "response.function_call_arguments.done"
    /// An output item finished.
    case responseOutputItemDone = "response.output_item.done"
    /// The response finished (completed, cancelled, incomplete or failed).
    case responseDone = "response.done"
    /// Voiceprint enrolment started (audio profile).
    case voiceprintAudioListInProgress = "voiceprint_audio_list.in_progress"
    /// Voiceprint enrolment succeeded.
    case voiceprintAudioListCompleted = "voiceprint_audio_list.completed"
    /// Voiceprint enrolment failed; the dialog continues.
    case voiceprintAudioListFailed = "voiceprint_audio_list.failed"
    /// After `session.finish`: the session is over.
    case sessionFinished = "session.finished"
    /// The transcription-only models' user transcript so far (`text`, `stash`).
    case conversationItemInputAudioTranscriptionText = "conversation.item.input_audio_transcription.text"
    /// Reply to `input_text_buffer.commit` (text-to-speech).
    case inputTextBufferCommitted = "input_text_buffer.committed"
    /// Reply to `input_text_buffer.clear` (text-to-speech).
    case inputTextBufferCleared = "input_text_buffer.cleared"
}
