"""The payroll archetype as data: the committed files are the generator's and every vendor is its dialect."""

from __future__ import annotations

from dataclasses import replace

import pytest

from cfab.apps.codegen import stale
from cfab.apps.payroll import PAYROLL_APPS, gen
from cfab.apps.payroll.base import PayrollApp
from cfab.apps.payroll.dialects import ADP, DIALECTS, PayrollWords
from cfab.apps.payroll.model import TABLES
from cfab.apps.registry import get_app


class Reference(PayrollApp):
    """The archetype's own tool names (no native renames)."""

    D = replace(ADP, app="reference", label="Reference", tool_names={})


# ------------------------------------------------------------------ the committed vendors
def test_generated_files_match_generator():
    assert not stale(gen.outputs()), f"regenerate with python -m cfab.apps.payroll.gen: {stale(gen.outputs())}"


@pytest.mark.parametrize("app", sorted(DIALECTS))
def test_each_vendor_is_its_dialect(app):
    cls = get_app(app)
    assert PAYROLL_APPS[app] is cls and cls.D is DIALECTS[app]
    assert (cls.name, cls.label, cls.TOOL_NAMES) == (cls.D.app, cls.D.label, cls.D.tool_names)
    assert set(cls.D.tool_names) <= {spec.local for spec in Reference.tools().values()}, (
        "a native name for a tool the archetype does not have"
    )
    assert len(cls.tools()) == len(Reference.tools())
    assert set(cls.declared_tables()) == {f"{app}.{getattr(cls.D.tables, t.name)}" for t in TABLES}


def test_a_dialect_with_two_equal_batch_words_is_refused():
    with pytest.raises(ValueError, match="must differ"):
        PayrollWords(
            employee_active="A",
            employee_terminated="T",
            batch_open="Open",
            batch_staged="Open",
            batch_released="Posted",
            payment_check="Check",
            payment_direct_deposit="Direct Deposit",
        )
