"""The websocket door: one socket per phone, taps over it, its database thread, its routing."""
