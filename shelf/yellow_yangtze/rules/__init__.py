"""The rules, split by rules-file section: common (§2), turn (§6, §7 end), placement (§4), conflicts (§5), scoring (§7)."""

from __future__ import annotations
