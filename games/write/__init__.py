"""The write side: the one write path and the commands over it (moves, host tools, corrections, pregame), game files, editions."""
