"""The htmx pages door: views, forms and URLs of the lobby, the phone page, the table screen, host tools, rules, history."""
