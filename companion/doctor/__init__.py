"""``mutiny doctor``: find what is wrong with a table before a game night
(``checks``: the checks over real or injected parts; ``sim``: the simulated parts and
the faults that can be put into them)."""
from .checks import Check, Doctor, describe_error, read_unit
from .sim import ModelBus, SimFaults, SimParts, sim_doctor

__all__ = ["Check", "Doctor", "ModelBus", "SimFaults", "SimParts", "describe_error",
           "read_unit", "sim_doctor"]
