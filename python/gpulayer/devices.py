"""The device layer: which compute devices this host has
(:func:`devices`), and where a job would run (:func:`place`): what the
``gpulayer devices``, ``diagnose``, ``place`` and ``support-matrix``
commands print, from the same C functions.

Discovery runs on the first call that needs it, never at import; the C
library probes each runtime in a separate process with a time limit, so a
missing or broken driver gives a note, not an error. Results are cached for
the life of the process.
"""

from __future__ import annotations

import json
from ctypes import byref, c_uint64, c_void_p
from dataclasses import dataclass, field
from typing import Sequence

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
    # Framework capabilities it lacks, with the framework probe's reason
    # (only after discovery with frameworks=True).
    absent_capabilities: dict[str, str] = field(default_factory=dict)

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
            absent_capabilities=dict(record.get("absent_capabilities", {})),
        )


@dataclass(frozen=True)
class Placement:
    """A placement decision: where a request would run, or why it cannot.

    ``placed`` says whether the request fits; ``why`` explains the choice or
    the refusal; ``assignments`` lists the chosen devices (one per rank);
    ``considered`` every device with ``fits``, ``chosen`` and the ``reason``
    it was or was not chosen; ``explanation`` is all of it as text, as
    ``gpulayer place`` prints it. A Placement is true when placed.
    """

    placed: bool
    accelerator: str | None
    why: str
    request: dict
    assignments: list[dict]
    considered: list[dict]
    explanation: str = ""

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
    def from_json(cls, record: dict, explanation: str = "") -> "Placement":
        return cls(
            placed=bool(record.get("placed")),
            accelerator=record.get("accelerator"),
            why=record.get("why", ""),
            request=record.get("request", {}),
            assignments=list(record.get("assignments", [])),
            considered=list(record.get("considered", [])),
            explanation=explanation,
        )


def _render_format(format: str, allowed: Sequence[str]) -> int:
    if format not in allowed:
        raise ValueError(f"format must be one of {sorted(allowed)}, got {format!r}")
    return _lib.RENDER_FORMATS[format]


def _report(function: str, format: str, allowed: Sequence[str] = ("json", "text")):
    """A rendered report: parsed for ``format="json"``, text otherwise."""
    kind = _render_format(format, allowed)
    text = _lib.take_buffer(function, kind).decode("utf-8")
    return json.loads(text) if format == "json" else text


_DISCOVER_FRAMEWORKS = 1  # GPULAYER_DISCOVER_FRAMEWORKS


def discovery(format: str = "json", frameworks: bool = False):
    """The full discovery report: ``{"devices": [...], "notes": [...]}``,
    where notes say what each runtime probe found or why it found nothing.
    ``format="text"`` gives the table ``gpulayer devices`` prints.

    ``frameworks=True`` also runs the framework probe, as ``gpulayer devices
    --frameworks`` does: a Python interpreter (``GPULAYER_PYTHON``, else
    ``python3`` on PATH) imports torch and mlx in a child process with a
    time limit (``GPULAYER_FRAMEWORK_TIMEOUT_MS``), the devices gain the
    capabilities ``torch.cuda``, ``torch.mps`` and ``mlx``, and the notes say
    why each absent one is absent. Without it, discovery never starts
    Python."""
    if not frameworks:
        return _report("gpulayer_devices_report", format)
    kind = _render_format(format, ("json", "text"))
    text = _lib.take_buffer("gpulayer_devices_report_ex", kind,
                            _DISCOVER_FRAMEWORKS).decode("utf-8")
    return json.loads(text) if format == "json" else text


def devices(frameworks: bool = False) -> list[Device]:
    """This host's compute devices (the CPU first; GPUs through CUDA, Metal
    and Vulkan where present); with ``frameworks=True`` their framework
    capabilities too (see :func:`discovery`)."""
    return [Device.from_json(d) for d in discovery(frameworks=frameworks)["devices"]]


def diagnose(format: str = "json"):
    """A capability summary safe to paste into a bug report (no serial
    numbers, UUIDs, host or user names): a dict, or with ``format="text"``
    the text ``gpulayer diagnose`` prints."""
    return _report("gpulayer_diagnose_report", format)


def support_matrix(format: str = "json"):
    """The support matrix (accelerator x job kind x status): a dict for
    ``format="json"``, text for ``"text"`` and ``"markdown"``."""
    return _report("gpulayer_support_matrix", format, tuple(_lib.RENDER_FORMATS))


def parse_bytes(size: int | str) -> int:
    """A memory size in bytes: an int, or text such as ``"512M"``, ``"8G"``,
    ``"1.5GiB"`` (powers of 1024) or ``"8GB"`` (powers of 1000), read by
    the C library's parser, the one ``gpulayer place --memory`` uses."""
    if isinstance(size, int):
        if size < 0:
            raise ValueError(f"memory size must be >= 0, got {size}")
        return size
    out = c_uint64()
    _lib.call("gpulayer_parse_bytes", _lib.encode(str(size)), byref(out))
    return out.value


def place(
    accelerator: str = "auto",
    min_memory: int | str = 0,
    memory_kind: str = "any",
    capabilities: Sequence[str] = (),
    device_count: int = 1,
    job: str = "independent",
    num_processes: int = 1,
    check: bool = False,
    backend: bool = False,
) -> Placement:
    """Decide where a job would run on this host, as ``gpulayer place``
    does.

    Parameters
    ----------
    accelerator : str
        ``"auto"`` (prefers cuda, then mps, vulkan, cpu), ``"cpu"``,
        ``"cuda"``, ``"mps"`` or ``"vulkan"``, optionally with a device
        index (``"cuda:1"``); or a whole request in the text form that
        ``gpulayer place`` takes, such as
        ``"auto,memory=8G,memory_kind=dedicated"`` or ``"cpu,nproc=4"``,
        whose items override the arguments below.
    min_memory : int or str
        Usable memory needed per device, in bytes or as ``"8G"``.
    memory_kind : str
        ``"any"``, ``"dedicated"`` (a GPU's own memory) or ``"unified"``.
    capabilities : list of str
        Capabilities every chosen device must have, e.g. ``["cuda.sm_80"]``,
        or a framework's: ``"torch.cuda"``, ``"torch.mps"``, ``"mlx"``
        (these run the framework probe, see :func:`discovery`; a refused
        device's reason then says why the framework is absent).
    device_count : int
        Devices per process.
    job : str
        ``"independent"`` (one process) or ``"distributed"``.
    num_processes : int
        Ranks of a distributed job.
    check : bool
        Raise :class:`~gpulayer.errors.PlacementError` when the request is
        refused, instead of returning the refusal.
    backend : bool
        Only devices this library's own backend can use: the choice
        training makes (``gpulayer place --backend``).

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
    base = _lib.DeviceRequest(
        min_memory_bytes=parse_bytes(min_memory),
        memory_kind=mem_kind,
        capabilities=cap_array,
        num_capabilities=len(caps),
        device_count=int(device_count),
        job_kind=job_kind,
        num_processes=int(num_processes),
    )
    lib = _lib.get()
    request, decision = c_void_p(), c_void_p()
    _lib.check(lib.gpulayer_request_create(byref(base), byref(request)))
    try:
        _lib.check(lib.gpulayer_request_parse(request, _lib.encode(accelerator)))
        flags = _lib.PLACE_BACKEND if backend else 0
        status = lib.gpulayer_placement_create(request, flags, byref(decision))
        error = error_for_status(status, _lib.last_error()) if status else None
    finally:
        lib.gpulayer_request_free(request)
    if error is not None and (not decision.value or check):
        lib.gpulayer_placement_free(decision)
        raise error
    try:
        record = json.loads(_lib.take_buffer("gpulayer_placement_render", decision,
                                             _lib.RENDER_FORMATS["json"]))
        text = _lib.take_buffer("gpulayer_placement_render", decision,
                                _lib.RENDER_FORMATS["text"]).decode("utf-8")
    finally:
        lib.gpulayer_placement_free(decision)
    return Placement.from_json(record, explanation=text)
