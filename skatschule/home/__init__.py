"""The home page: what Skatschule is, with links to its parts (the shared kernel is ``core``)."""
