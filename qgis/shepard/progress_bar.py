# SPDX-License-Identifier: GPL-3.0-or-later
"""Reads the command lines' standard error: GDAL-style progress bars ("0...10...20 ... 100 - done.") and messages."""

import re

# The tools draw 40 ticks: a label every fourth tick (0, 10, ... 100), a dot between, " - done." at the end.
_BAR = re.compile(r"^0(?:\.|\d+)*(?: - done\.)?$")
_TICK = re.compile(r"\d+|\.")
_TICKS = 40


class ProgressBarReader:
    """Fed the text of standard error piece by piece; keeps the bar's percentage and hands back the other lines."""

    def __init__(self):
        self._partial = ""
        self.percent = None

    def feed(self, text):
        """Takes more text; returns the complete lines in it that are messages, not progress bars."""
        self._partial += text.replace("\r", "\n")
        *complete, self._partial = self._partial.split("\n")
        messages = [line for line in complete if line.strip() and not self._read_bar(line)]
        # A bar grows on one line until "done": read it as it grows.
        self._read_bar(self._partial)
        return messages

    def finish(self):
        """Returns what is left of a last line without a newline, when it is a message."""
        rest, self._partial = self._partial, ""
        return [rest] if rest.strip() and not self._read_bar(rest) else []

    def _read_bar(self, line):
        if not _BAR.match(line):
            return False
        # The first tick, "0", is 0 %: every later label or dot is one tick more.
        ticks = len(_TICK.findall(line)) - 1
        self.percent = min(100.0, 100.0 * ticks / _TICKS)
        return True
