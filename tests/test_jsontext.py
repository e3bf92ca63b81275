"""Page JSON: the same values as the standard library's, whichever encoder runs."""
from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st

from companion import jsontext

values = st.recursive(
    st.none() | st.booleans() | st.integers(-2 ** 70, 2 ** 70) | st.text()
    | st.floats(allow_nan=False, allow_infinity=False),
    lambda inner: st.lists(inner, max_size=4)
    | st.dictionaries(st.text(max_size=5), inner, max_size=4),
    max_leaves=20)


@given(values)
def test_the_text_reads_back_as_the_standard_library_writes_it(value):
    expected = json.loads(json.dumps(value))
    assert json.loads(jsontext.dumps(value)) == expected
    assert json.loads(jsontext.dumps(value, sort_keys=True)) == expected


def test_sorted_keys_give_one_text_for_equal_values():
    assert jsontext.dumps({"b": 1, "a": [2, {"d": 3, "c": 4}]}, sort_keys=True) == \
        '{"a":[2,{"c":4,"d":3}],"b":1}'
    assert jsontext.dumps({"b": 1, "a": 2}) == '{"b":1,"a":2}'


def test_integer_keys_become_strings_as_with_the_standard_library():
    assert json.loads(jsontext.dumps({1: "a", 2: [3]})) == {"1": "a", "2": [3]}


def test_without_orjson_the_standard_library_answers(monkeypatch):
    monkeypatch.setattr(jsontext, "orjson", None)
    assert jsontext.dumps({1: "é"}) == '{"1":"\\u00e9"}'
