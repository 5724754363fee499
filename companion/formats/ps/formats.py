"""Pashto date and time formats (Django has none): a 24-hour clock and year-first dates, as Persian writes them.

Without this module Django used its English defaults on a ps page ("3:51 a.m."). The digits
become Persian at the output boundary (games/web/digits.py). Month names come from Django's
catalogue for the active language.
"""
from __future__ import annotations

DATE_FORMAT = "j F Y"
TIME_FORMAT = "G:i"
DATETIME_FORMAT = "j F Y، G:i"
YEAR_MONTH_FORMAT = "F Y"
MONTH_DAY_FORMAT = "j F"
SHORT_DATE_FORMAT = "Y/n/j"
SHORT_DATETIME_FORMAT = "Y/n/j، G:i"
FIRST_DAY_OF_WEEK = 6  # Saturday
