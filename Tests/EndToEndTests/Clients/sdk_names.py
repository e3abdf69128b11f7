"""Lists every protocol name the installed official clients can send or react to, read from
their own sources: the `dashscope` SDK's MultiModalDialog (directives it sends, the response
constants it dispatches on, every Start / RequestToRespond parameter its request classes can
produce), OmniRealtimeConversation and QwenTtsRealtime (event types they send and match, every
session key `update_session` can produce), and the `openai` package's beta realtime event unions
and session fields.

usage: sdk_names.py
Prints one JSON object on the last stdout line:
{"multimodal-dialog": {"client": {NAME: SOURCE}, "server": {...}, "parameters": {PATH: SOURCE}},
 "qwen-realtime": {...}}
Parameter paths are dotted (`payload.parameters.upstream.vocabulary_id`; `[]` marks array items).
"""
import inspect
import json
import re
import typing

import dashscope
from dashscope.audio.qwen_omni import omni_realtime
from dashscope.audio.qwen_tts_realtime import qwen_tts_realtime
from dashscope.multimodal import multimodal_constants, multimodal_dialog
from dashscope.multimodal import multimodal_request_params as params

MMD = "dashscope %s MultiModalDialog" % dashscope.__version__
OMNI = "dashscope %s OmniRealtimeConversation" % dashscope.__version__
TTS = "dashscope %s QwenTtsRealtime" % dashscope.__version__


def paths(value, prefix, out, source):
    """Every key path of a JSON-like value (objects and arrays of objects)."""
    if isinstance(value, dict):
        for key, child in value.items():
            path = f"{prefix}.{key}" if prefix else key
            out[path] = source
            paths(child, path, out, source)
    elif isinstance(value, list):
        for child in value:
            paths(child, prefix + "[]", out, source)


def multimodal():
    text = inspect.getsource(multimodal_dialog)
    client = {name: MMD for name in re.findall(r'generate_\w+\(\s*(?:direction_name=)?"(\w+)"', text)}
    client.update({name: MMD for name in re.findall(r'direction_name="(\w+)"', text)})
    server = {value: MMD for key, value in vars(multimodal_constants).items() if key.startswith("RESPONSE_NAME_")}
    # Every optional field set, so each key the request classes can write appears once.
    start = params.RequestParameters(
        upstream=params.Upstream(
            vocabulary_id="v", asr_post_processing=params.AsrPostProcessing(
                replace_words=[params.ReplaceWord(source="a", target="b", match_mode="exact")])),
        downstream=params.Downstream(voice="v", sample_rate=24000),
        client_info=params.ClientInfo(
            user_id="u", device=params.Device(uuid="d"), network=params.Network(ip="127.0.0.1"),
            location=params.Locations(city_name="c", latitude="1", longitude="2")),
        dialog_attributes=params.DialogAttributes(agent_id="a", prompt="p", vocabulary_id="v"),
        biz_params=params.BizParams(
            user_defined_params={}, user_defined_tokens={}, tool_prompts={}, user_prompt_params={},
            user_query_params={}, videos=[]),
    )
    parameters = {}
    paths(start.to_dict(), "payload.parameters", parameters, MMD + " Start")
    respond = params.RequestToRespondParameters(images=[], biz_params=params.BizParams(videos=[]))
    paths(respond.to_dict(), "payload.parameters", parameters, MMD + " RequestToRespond")
    return {"client": client, "server": server, "parameters": parameters}


def omni():
    text = inspect.getsource(omni_realtime)
    client = {name: OMNI for name in re.findall(r'"type":\s*"([a-z_]+(?:\.[a-z_]+)+)"', text)}
    server = {name: OMNI for name in re.findall(r'"([a-z_]+(?:\.[a-z_]+)+)"\s*==\s*json_data', text)}
    server.update({name: OMNI for name in re.findall(r'"(error)"\s*==\s*json_data', text)})
    # update_session with every optional argument (twice: the new-style audio configs make it
    # skip the legacy top-level audio fields): capture the session.update it would send.
    conversation = omni_realtime.OmniRealtimeConversation(
        model="qwen3-omni-flash-realtime", callback=omni_realtime.OmniRealtimeCallback())
    sent = []
    conversation._OmniRealtimeConversation__send_str = lambda data, *rest, **named: sent.append(json.loads(data))
    modalities = [omni_realtime.MultiModality.AUDIO, omni_realtime.MultiModality.TEXT]
    translation = omni_realtime.TranslationParams(language="en", corpus=omni_realtime.TranslationParams.Corpus(phrases={}))
    conversation.update_session(output_modalities=modalities, voice="Cherry", input_audio_transcription_model="m",
                                translation_params=translation,
                                transcription_params=omni_realtime.TranscriptionParams(language="en", corpus_text="c"),
                                input_video_representation_compact="true")
    conversation.config = {}
    conversation.update_session(output_modalities=modalities, voice="Cherry",
                                input_audio_config=omni_realtime.AudioFormatConfig(),
                                output_audio_config=omni_realtime.AudioFormatConfig(sample_rate=24000))
    parameters = {}
    for message in sent:
        if message.get("type") == "session.update":
            paths(message["session"], "session", parameters, OMNI + " update_session")
    return {"client": client, "server": server, "parameters": parameters}


def tts():
    text = inspect.getsource(qwen_tts_realtime)
    client = {name: TTS for name in re.findall(r'"type":\s*"([a-z_]+(?:\.[a-z_]+)+)"', text)}
    server = {name: TTS for name in re.findall(r'"([a-z_]+(?:\.[a-z_]+)+)"\s*==\s*json_data', text)}
    # update_session with every optional argument: capture the session.update it would send.
    synthesizer = qwen_tts_realtime.QwenTtsRealtime(model="qwen3-tts-flash-realtime",
                                                     callback=qwen_tts_realtime.QwenTtsRealtimeCallback())
    sent = []
    synthesizer._QwenTtsRealtime__send_str = lambda data, *rest, **named: sent.append(json.loads(data))
    synthesizer.update_session(voice="Cherry", mode="commit", sample_rate=24000, volume=50, speech_rate=1.0,
                               audio_format="pcm", pitch_rate=1.0, bit_rate=128, language_type="Auto",
                               enable_tn=True, instructions="i", optimize_instructions=True)
    parameters = {}
    for message in sent:
        paths(message["session"], "session", parameters, TTS + " update_session")
    return {"client": client, "server": server, "parameters": parameters}


def literal_types(union):
    """The `type` literals of the event classes of an openai Annotated union."""
    names = []
    stack = list(typing.get_args(union))
    while stack:
        member = stack.pop()
        if typing.get_origin(member) in (typing.Union, typing.Annotated) or str(typing.get_origin(member)) == "typing.Union":
            stack.extend(typing.get_args(member))
            continue
        fields = getattr(member, "model_fields", None)
        if fields and "type" in fields:
            names.extend(typing.get_args(fields["type"].annotation))
    return names


def openai_beta():
    import openai
    from openai.types.beta.realtime import realtime_client_event, realtime_server_event, session_update_event

    source = "openai %s beta realtime" % openai.__version__
    client = {name: source for name in literal_types(realtime_client_event.RealtimeClientEvent)}
    server = {name: source for name in literal_types(realtime_server_event.RealtimeServerEvent)}
    parameters = {}
    session = session_update_event.Session
    for name in session.model_fields:
        parameters[f"session.{name}"] = source + " session.update"
    return {"client": client, "server": server, "parameters": parameters}


qwen = omni()
for other in (tts(), openai_beta()):
    for kind in ("client", "server", "parameters"):
        for name, source in other[kind].items():
            qwen[kind].setdefault(name, source)
print(json.dumps({"multimodal-dialog": multimodal(), "qwen-realtime": qwen}, sort_keys=True))
