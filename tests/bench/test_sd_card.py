"""The SD-card run really slows the flushes below SQLite, and its audit holds: no phone
hears of an action before the commit returned, and the journal reads back equal. No
time is checked (speed is measured in bench/, never asserted in a test)."""
from __future__ import annotations

from bench import sd_card


def test_the_shim_is_in_the_path_and_nothing_is_sent_before_its_commit():
    found = sd_card.run(presses=4, commits=4, delay_ms=1)
    assert found["delayed_fsyncs"] >= 8  # a commit per journal action and per press
    assert len(found["commit_ms"]) == 4 and len(found["phones_ms"]) == 4
    assert found["audited_presses"] == 4
    assert found["sent_before_commit"] == 0
    assert found["journal_holds_the_match"] is True
