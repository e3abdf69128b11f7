#!/bin/sh
# Regenerates the WireAudioTests fixtures (espeak-ng + sox) and their reference boundaries.
# Usage: sh make-fixtures.sh   (run from any directory; writes next to this script)
set -eu
cd "$(dirname "$0")"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# 1. Plain speech: espeak-ng at 150 wpm, converted to 16 kHz mono s16.
espeak-ng -v en -s 150 -w "$tmp/raw.wav" "What is the weather like today"
sox "$tmp/raw.wav" -r 16000 -c 1 -b 16 speech-16k.wav

# 2. Silence + speech + silence: 1.0 s before, 1.5 s after.
sox speech-16k.wav speech-padded-16k.wav pad 1.0 1.5

# 3. Steady white noise at -45 dBFS RMS (full-scale white noise is about -4.8 dBFS RMS,
#    so vol is set from the measured RMS below), 3 s at 16 kHz.
sox -n -r 16000 -c 1 -b 16 "$tmp/noise0.wav" synth 3 whitenoise vol 0.1
rms=$(sox "$tmp/noise0.wav" -n stat 2>&1 | awk '/RMS.*amplitude/ {print $3}')
vol=$(awk -v r="$rms" 'BEGIN { printf "%.6f", 0.1 * (10 ^ (-45 / 20)) / r }')
sox -n -r 16000 -c 1 -b 16 noise-45dbfs-16k.wav synth 3 whitenoise vol "$vol"

# 4. Digital silence, 2 s.
sox -n -r 16000 -c 1 -b 16 silence-16k.wav trim 0 2

# Reference speech boundaries in the padded file: sox's silence effect trims everything
# below -45 dBFS (1% of full scale ~ -40 dB; -45d is stricter) from the front, then from the back.
total=$(sox --i -D speech-padded-16k.wav)
sox speech-padded-16k.wav "$tmp/front.wav" silence 1 0.01 -45d
front=$(sox --i -D "$tmp/front.wav")
sox speech-padded-16k.wav "$tmp/back.wav" reverse silence 1 0.01 -45d reverse
back=$(sox --i -D "$tmp/back.wav")
awk -v t="$total" -v f="$front" -v b="$back" 'BEGIN {
  printf "{\n  \"file\": \"speech-padded-16k.wav\",\n  \"totalMs\": %d,\n  \"speechStartMs\": %d,\n  \"speechEndMs\": %d,\n  \"method\": \"sox silence 1 0.01 -45d (front, then reversed)\"\n}\n", t*1000+0.5, (t-f)*1000+0.5, b*1000+0.5
}' > speech-padded-16k.json
cat speech-padded-16k.json
ls -l *.wav
