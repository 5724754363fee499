"""The read side: one snapshot per table revision, what each seat is shown, the regions pushed to phones."""
