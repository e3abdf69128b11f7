// ConformanceChecks: see README architecture section.
