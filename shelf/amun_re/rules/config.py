"""Settings of one table (rules file 6.3) plus its edition profile (6.2)."""

from __future__ import annotations

from dataclasses import dataclass

from shelf.amun_re.edition import PROVINCE_FIELDS, Edition


@dataclass(frozen=True)
class Config:
    """Everything the rules need besides the state; built once per table.

    ``n``: number of players (2-5). The other fields mirror the options of
    the same name (see ``AmunReGame.option_specs``).
    """

    n: int
    edition: Edition
    hand_sum_mode: str = "exact"
    budget_over_36: str = "take_all_lose_rest"
    rebid_same_province: bool = True
    ankh_after_each_auction: bool = True
    visible_ankhs_mid_kingdom: str = "top_cards"
    allow_negative_vp: bool = True
    pyramid_supply: int = 76

    @property
    def fields(self) -> tuple[str, ...]:
        """Province fields a winner enters, in order (printed pyramids only if the edition has any)."""
        if self.edition.bound("printed_pyramids")[1] == 0:
            return PROVINCE_FIELDS[:-1]
        return PROVINCE_FIELDS
