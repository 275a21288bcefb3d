"""The field-time archetype as data: the committed files are the generator's and every vendor is its dialect."""

from __future__ import annotations

from dataclasses import replace

import pytest

from cfab.apps.codegen import stale
from cfab.apps.fieldtime import FIELD_TIME_APPS, gen
from cfab.apps.fieldtime.base import FieldTimeApp
from cfab.apps.fieldtime.dialects import DIALECTS, RHUMBIX, FieldTimeWords
from cfab.apps.fieldtime.model import TABLES
from cfab.apps.registry import get_app


class Reference(FieldTimeApp):
    """The archetype's own tool names (no native renames)."""

    D = replace(RHUMBIX, app="reference", label="Reference", tool_names={})


def test_generated_files_match_generator():
    assert not stale(gen.outputs()), f"regenerate with python -m cfab.apps.fieldtime.gen: {stale(gen.outputs())}"


@pytest.mark.parametrize("app", sorted(DIALECTS))
def test_each_vendor_is_its_dialect(app):
    cls = get_app(app)
    assert FIELD_TIME_APPS[app] is cls and cls.D is DIALECTS[app]
    assert (cls.name, cls.label, cls.TOOL_NAMES) == (cls.D.app, cls.D.label, cls.D.tool_names)
    assert set(cls.D.tool_names) <= {spec.local for spec in Reference.tools().values()}, (
        "a native name for a tool the archetype does not have"
    )
    assert len(cls.tools()) == len(Reference.tools())
    assert set(cls.declared_tables()) == {f"{app}.{getattr(cls.D.tables, t.name)}" for t in TABLES}


def test_a_dialect_with_one_word_for_two_states_is_refused():
    words = dict(record_active="Active", record_inactive="Archived", hours_operating="Operating", hours_idle="Idle")
    with pytest.raises(ValueError, match="different words"):
        FieldTimeWords(**{**words, "timecard_pending": "Open", "timecard_approved": "Open"})
    with pytest.raises(ValueError, match="different words"):
        FieldTimeWords(**{**words, "timecard_pending": "Open", "timecard_approved": "OK", "hours_idle": "Operating"})
