// DialogClients: see README architecture section.
