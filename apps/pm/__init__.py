"""PM archetype: Procore (the reference app), RedTeam Go, INGENIOUS.BUILD, Ressio, SmarteBuild."""

from cfab.apps.pm.base import PMApp
from cfab.apps.pm.ingenious import IngeniousBuild
from cfab.apps.pm.procore import Procore
from cfab.apps.pm.redteam import RedTeam
from cfab.apps.pm.ressio import Ressio
from cfab.apps.pm.smartbuild import SmarteBuild

__all__ = ["PMApp", "Procore", "RedTeam", "IngeniousBuild", "Ressio", "SmarteBuild"]
