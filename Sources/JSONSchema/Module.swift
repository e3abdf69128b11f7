// JSONSchema module: see README architecture section.
