"""JSON text for what goes out to pages: payloads, stream events, change digests.

A change serialises the payload of each viewer whose payload changed; with the standard
library that was the largest single cost of an action. orjson does the same in about a
tenth of the time (the figures: docs/performance.md, "Why each speed trick is there").
The engine's own canonical form (journal, action matching) stays with the standard
library, so nothing stored changes.
"""
from __future__ import annotations

import json
from typing import Any

try:
    import orjson
except ImportError:  # a platform without its wheel: the standard library, slower
    orjson = None  # type: ignore[assignment]

_COMPACT = (",", ":")


def check(value: Any) -> None:
    """Raise TypeError unless ``value`` is made of JSON values (checked as quickly as
    :func:`dumps` writes it; orjson writes NaN and infinities as null, the standard
    library refuses them)."""
    if orjson is not None:
        orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS)  # JSONEncodeError is a TypeError
    else:
        json.dumps(value, allow_nan=False)


def dumps(value: Any, sort_keys: bool = False) -> str:
    """Compact JSON text of ``value`` (keys in the order given, or sorted)."""
    if orjson is not None:
        option = orjson.OPT_NON_STR_KEYS | (orjson.OPT_SORT_KEYS if sort_keys else 0)
        try:
            return orjson.dumps(value, option=option).decode()
        except TypeError:  # something only the standard library takes (a huge int)
            pass
    return json.dumps(value, separators=_COMPACT, sort_keys=sort_keys)
