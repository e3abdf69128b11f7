// MockServer module: see README architecture section.
