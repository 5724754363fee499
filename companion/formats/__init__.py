"""Date and time formats for the languages Django ships none for (``FORMAT_MODULE_PATH``): Pashto."""
