"""The rules of Amun-Re, split by rules-file section.

* :mod:`.config`   the table's settings (6.3) and edition, fixed for a table
* :mod:`.ties`     the one tie-break primitive (2.10)
* :mod:`.hand`     hand building (2.3)
* :mod:`.auction`  auctions, province entry and placement, the Ankh token (2.4, 6.1)
* :mod:`.offering` the secret offering and its rewards (2.5)
* :mod:`.income`   income, buying and placing pyramids (2.6)
* :mod:`.scoring`  honour scoring, next Kingdom, end of game (2.7-2.9)
"""

from __future__ import annotations
