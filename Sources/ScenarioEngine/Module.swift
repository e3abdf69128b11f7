// ScenarioEngine module: see README architecture section.
