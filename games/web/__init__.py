"""Web plumbing every door passes through: middleware, the phone's digit system, error pages, strict input, Jinja2."""
