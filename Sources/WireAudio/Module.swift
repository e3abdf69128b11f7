// WireAudio module: see README architecture section.
