// CLISupport module: see README architecture section.
