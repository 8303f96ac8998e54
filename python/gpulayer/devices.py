"""The device layer: which compute devices this host has
(:func:`devices`), and where a job would run (:func:`place`).

Discovery runs on the first call that needs it, never at import; the C
library probes each runtime in a separate process with a time limit, so a
missing or broken driver gives a note, not an error. Results are cached for
the life of the process.
"""

from __future__ import annotations

import json
import re
from ctypes import byref, c_size_t, c_void_p, string_at
from dataclasses import dataclass, field
from typing import Any, Sequence

from . import _lib
from .errors import error_for_status

__all__ = [
    "Device",
    "Placement",
    "devices",
    "discovery",
    "diagnose",
    "place",
    "support_matrix",
    "parse_bytes",
]


@dataclass(frozen=True)
class Device:
    """One compute device, as discovered by the C library."""

    accelerator: str  # "cpu", "cuda", "mps" or "vulkan"
    index: int  # within the accelerator
    name: str
    stable_id: str  # the runtime's UUID; "" when it has none
    memory_kind: str  # "host", "dedicated" or "unified"
    memory_bytes: int  # total; host RAM for unified-memory GPUs
    usable_bytes: int  # free (CUDA), recommended working set (mps)
    capabilities: tuple[str, ...] = ()
    properties: dict[str, str] = field(default_factory=dict)
    backend_built: bool = False  # this library has a backend for it
    backend_available: bool = False  # ... and that backend can use it
    backend_reason: str = ""  # why not available

    @property
    def label(self) -> str:
        """The device as requests name it, e.g. ``"cuda:0"``."""
        return f"{self.accelerator}:{self.index}"

    @classmethod
    def from_json(cls, record: dict) -> "Device":
        backend = record.get("backend", {})
        return cls(
            accelerator=record["accelerator"],
            index=int(record["index"]),
            name=record.get("name", ""),
            stable_id=record.get("stable_id", ""),
            memory_kind=record.get("memory_kind", ""),
            memory_bytes=int(record.get("memory_bytes", 0)),
            usable_bytes=int(record.get("usable_bytes", 0)),
            capabilities=tuple(record.get("capabilities", ())),
            properties=dict(record.get("properties", {})),
            backend_built=bool(backend.get("built", False)),
            backend_available=bool(backend.get("available", False)),
            backend_reason=backend.get("reason", ""),
        )


@dataclass(frozen=True)
class Placement:
    """A placement decision: where a request would run, or why it cannot.

    ``placed`` says whether the request fits; ``why`` explains the choice or
    the refusal; ``assignments`` lists the chosen devices (one per rank);
    ``considered`` every device with ``fits``, ``chosen`` and the ``reason``
    it was or was not chosen. A Placement is true when placed.
    """

    placed: bool
    accelerator: str | None
    why: str
    request: dict
    assignments: list[dict]
    considered: list[dict]

    def __bool__(self) -> bool:
        return self.placed

    @property
    def devices(self) -> list[str]:
        """Labels of the chosen devices (e.g. ``["cuda:0"]``)."""
        return [a["device"] for a in self.assignments]

    @property
    def reasons(self) -> dict[str, str]:
        """Each considered device's label and the reason for the decision
        about it."""
        return {k["device"]: k["reason"] for k in self.considered}

    @classmethod
    def from_json(cls, record: dict) -> "Placement":
        return cls(
            placed=bool(record.get("placed")),
            accelerator=record.get("accelerator"),
            why=record.get("why", ""),
            request=record.get("request", {}),
            assignments=list(record.get("assignments", [])),
            considered=list(record.get("considered", [])),
        )


def discovery() -> dict[str, Any]:
    """The full discovery report: ``{"devices": [...], "notes": [...]}``,
    where notes say what each runtime probe found or why it found nothing."""
    return json.loads(_lib.take_buffer("gpulayer_devices_json"))


def devices() -> list[Device]:
    """This host's compute devices (the CPU first; GPUs through CUDA, Metal
    and Vulkan where present)."""
    return [Device.from_json(d) for d in discovery()["devices"]]


def diagnose() -> dict[str, Any]:
    """A capability summary safe to paste into a bug report (no serial
    numbers, UUIDs, host or user names)."""
    return json.loads(_lib.take_buffer("gpulayer_diagnose_json"))


def support_matrix(format: str = "json"):
    """The support matrix (accelerator x job kind x status): a dict for
    ``format="json"``, text for ``"text"`` and ``"markdown"``."""
    try:
        kind = _lib.RENDER_FORMATS[format]
    except KeyError:
        raise ValueError(
            f"format must be one of {sorted(_lib.RENDER_FORMATS)}, got {format!r}"
        ) from None
    text = _lib.take_buffer("gpulayer_support_matrix", kind).decode("utf-8")
    return json.loads(text) if format == "json" else text


_UNITS = {
    "": 1, "b": 1,
    "k": 2**10, "kib": 2**10, "m": 2**20, "mib": 2**20,
    "g": 2**30, "gib": 2**30, "t": 2**40, "tib": 2**40,
    "kb": 10**3, "mb": 10**6, "gb": 10**9, "tb": 10**12,
}


def parse_bytes(size: int | str) -> int:
    """A memory size in bytes: an int, or text such as ``"512M"``, ``"8G"``,
    ``"1.5GiB"`` (powers of 1024) or ``"8GB"`` (powers of 1000)."""
    if isinstance(size, int):
        if size < 0:
            raise ValueError(f"memory size must be >= 0, got {size}")
        return size
    match = re.fullmatch(r"\s*([0-9]*\.?[0-9]+(?:[eE][0-9]+)?)\s*([A-Za-z]*)\s*",
                         str(size))
    unit = match.group(2).lower() if match else None
    if unit not in _UNITS:
        raise ValueError(
            f"memory size {size!r} is not a number with an optional unit "
            "(512M, 8G, 1.5GiB, 8GB)"
        )
    return int(float(match.group(1)) * _UNITS[unit])


def place(
    accelerator: str = "auto",
    min_memory: int | str = 0,
    memory_kind: str = "any",
    capabilities: Sequence[str] = (),
    device_count: int = 1,
    job: str = "independent",
    num_processes: int = 1,
    check: bool = False,
) -> Placement:
    """Decide where a job would run on this host.

    Parameters
    ----------
    accelerator : str
        ``"auto"`` (prefers cuda, then mps, vulkan, cpu), ``"cpu"``,
        ``"cuda"``, ``"mps"`` or ``"vulkan"``, optionally with a device
        index (``"cuda:1"``).
    min_memory : int or str
        Usable memory needed per device, in bytes or as ``"8G"``.
    memory_kind : str
        ``"any"``, ``"dedicated"`` (a GPU's own memory) or ``"unified"``.
    capabilities : list of str
        Capabilities every chosen device must have, e.g. ``["cuda.sm_80"]``.
    device_count : int
        Devices per process.
    job : str
        ``"independent"`` (one process) or ``"distributed"``.
    num_processes : int
        Ranks of a distributed job.
    check : bool
        Raise :class:`~gpulayer.errors.PlacementError` when the request is
        refused, instead of returning the refusal.

    Returns
    -------
    Placement
        The decision, with the reason for every device; also when refused
        (``placement.placed`` is then False).
    """
    try:
        mem_kind = _lib.MEMORY_KINDS[memory_kind]
        job_kind = _lib.JOB_KINDS[job]
    except KeyError as exc:
        raise ValueError(
            f"unknown value {exc.args[0]!r}: memory_kind is one of "
            f"{sorted(_lib.MEMORY_KINDS)}, job one of {sorted(_lib.JOB_KINDS)}"
        ) from None
    caps = list(capabilities)
    cap_array = _lib.string_array(caps) if caps else None
    request = _lib.DeviceRequest(
        accelerator=_lib.encode(accelerator),
        min_memory_bytes=parse_bytes(min_memory),
        memory_kind=mem_kind,
        capabilities=cap_array,
        num_capabilities=len(caps),
        device_count=int(device_count),
        job_kind=job_kind,
        num_processes=int(num_processes),
    )
    lib = _lib.get()
    ptr, size = c_void_p(), c_size_t()
    status = lib.gpulayer_place(byref(request), byref(ptr), byref(size))
    error = error_for_status(status, _lib.last_error()) if status else None
    try:
        text = string_at(ptr, size.value) if ptr.value else None
    finally:
        if ptr.value:
            lib.gpulayer_free_buffer(ptr)
    if error is not None and (text is None or check):
        raise error
    return Placement.from_json(json.loads(text))
