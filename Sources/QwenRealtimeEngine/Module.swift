// QwenRealtimeEngine: see README architecture section.
