"""What the log means: reading a table's log back (audit) and the start and set-up rules it records (setup)."""
