// ConformanceReports: see README architecture section.
