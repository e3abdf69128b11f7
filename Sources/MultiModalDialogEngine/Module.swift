// MultiModalDialogEngine: see README architecture section.
