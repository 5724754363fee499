"""The one entry every door shares: who is asking (access), one tap entry (taps), one table of refusals."""
