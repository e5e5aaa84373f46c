"""Every rule code as a checked name: detectors import ``codes.TL001`` (a typo is an import
or attribute error mypy reports), never the bare string. Each code's rule (name, severity,
explanation) is in the catalog, ``passlint.catalog``."""

from __future__ import annotations

from typing import Final

TL001: Final = "TL001"
TL002: Final = "TL002"
TL003: Final = "TL003"
TL004: Final = "TL004"
TL005: Final = "TL005"
TL006: Final = "TL006"
TL007: Final = "TL007"
TL009: Final = "TL009"
VS001: Final = "VS001"
VS002: Final = "VS002"
VS003: Final = "VS003"
VS004: Final = "VS004"
VS005: Final = "VS005"
VS006: Final = "VS006"
VS007: Final = "VS007"
VS008: Final = "VS008"
VS009: Final = "VS009"
E001: Final = "E001"
E002: Final = "E002"
E003: Final = "E003"
E004: Final = "E004"
E005: Final = "E005"
E006: Final = "E006"
E007: Final = "E007"
E008: Final = "E008"
E009: Final = "E009"
PL001: Final = "PL001"
PL002: Final = "PL002"
PL100: Final = "PL100"
