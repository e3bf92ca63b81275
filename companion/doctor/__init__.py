"""``mutiny doctor``: find what is wrong with a table before a game night
(``checks``: the doctor, which puts together the checks by job, ``buses``, ``pins``,
``service`` and ``stress``; ``sim``: the simulated parts and the faults that can be
put into them)."""
from .checks import Doctor
from .report import Check, describe_error
from .service import DEFAULT_BOOT_CONFIG, doctor_data_dir, read_unit
from .sim import ModelBus, SimFaults, SimParts, sim_doctor

__all__ = ["Check", "DEFAULT_BOOT_CONFIG", "Doctor", "ModelBus", "SimFaults", "SimParts",
           "describe_error", "doctor_data_dir", "read_unit", "sim_doctor"]
