"""The web front end: static HTML, CSS and JavaScript modules, served by kafeneio.server."""
