"""cfab.triggers: the one write gate. Declarative rules (``triggers/rules/*.toml``) run
before every write: reject a locked or posted row, guard a money movement (record it,
never execute it), check assertions such as balanced journal entries."""

from cfab.triggers.gate import GuardTripped, WriteGate, WriteRejected
from cfab.triggers.rules import Assertion, Rule, RuleFile, RuleSet, load_rules, parse_rule_text

__all__ = [
    "Assertion",
    "GuardTripped",
    "Rule",
    "RuleFile",
    "RuleSet",
    "WriteGate",
    "WriteRejected",
    "load_rules",
    "parse_rule_text",
]
