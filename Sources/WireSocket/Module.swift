// WireSocket module: see README architecture section.
