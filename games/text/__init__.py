"""Words in the reader's language: engine sentences, colours, the glossary of game terms, the lobby's option words."""
