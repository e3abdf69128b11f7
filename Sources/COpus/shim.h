#ifndef COPUS_SHIM_H
#define COPUS_SHIM_H
#include <opus.h>

/// opus_encoder_ctl / opus_decoder_ctl are variadic; one wrapper per request we use.
static inline int copus_encoder_set_bitrate(OpusEncoder *e, opus_int32 bitrate) { return opus_encoder_ctl(e, OPUS_SET_BITRATE(bitrate)); }
static inline int copus_encoder_set_complexity(OpusEncoder *e, opus_int32 c) { return opus_encoder_ctl(e, OPUS_SET_COMPLEXITY(c)); }
static inline int copus_encoder_get_lookahead(OpusEncoder *e, opus_int32 *out) { return opus_encoder_ctl(e, OPUS_GET_LOOKAHEAD(out)); }
static inline int copus_encoder_set_signal_voice(OpusEncoder *e) { return opus_encoder_ctl(e, OPUS_SET_SIGNAL(OPUS_SIGNAL_VOICE)); }
static inline int copus_decoder_reset(OpusDecoder *d) { return opus_decoder_ctl(d, OPUS_RESET_STATE); }
/// Variadic ctl: samples per channel of the last decoded packet (used to size concealment).
static inline int copus_decoder_get_last_packet_duration(OpusDecoder *d, opus_int32 *out) { return opus_decoder_ctl(d, OPUS_GET_LAST_PACKET_DURATION(out)); }
#endif
