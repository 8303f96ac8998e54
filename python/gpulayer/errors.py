"""Exceptions raised by the gpulayer package.

Every failing call into libgpulayer raises a subclass of
:class:`GPULayerError` whose message is the C library's own message
(``gpulayer_last_error()``). Where a built-in exception means the same thing
the class derives from it too, so ``except ValueError`` catches a bad
parameter and ``except OSError`` an unreadable file.
"""

from __future__ import annotations

__all__ = [
    "GPULayerError",
    "LibraryNotFoundError",
    "InvalidArgumentError",
    "FileIOError",
    "ParseError",
    "OutOfMemoryError",
    "ModelError",
    "DeviceError",
    "UnsupportedError",
    "TrainingInterruptedError",
    "PlacementError",
    "InternalError",
]


class GPULayerError(Exception):
    """An error reported by libgpulayer.

    ``status`` is the C ``gpulayer_status`` code (``None`` for errors raised
    on the Python side) and ``status_name`` its short name.
    """

    status: int | None = None
    status_name = "error"

    def __init__(self, message: str, status: int | None = None):
        super().__init__(message)
        if status is not None:
            self.status = status


class LibraryNotFoundError(GPULayerError):
    """libgpulayer could not be found or loaded."""

    status_name = "library not found"


class InvalidArgumentError(GPULayerError, ValueError):
    """A bad parameter or value (GPULAYER_ERR_INVALID_ARGUMENT)."""

    status, status_name = 1, "invalid argument"


class FileIOError(GPULayerError, OSError):
    """A file could not be read or written (GPULAYER_ERR_IO)."""

    status, status_name = 2, "I/O error"

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""


class ParseError(GPULayerError, ValueError):
    """Malformed input data (GPULAYER_ERR_PARSE)."""

    status, status_name = 3, "parse error"


class OutOfMemoryError(GPULayerError, MemoryError):
    """Host or device memory exhausted (GPULAYER_ERR_OUT_OF_MEMORY)."""

    status, status_name = 4, "out of memory"


class ModelError(GPULayerError, ValueError):
    """A model file is damaged or not a gpulayer model (GPULAYER_ERR_MODEL)."""

    status, status_name = 5, "model error"


class DeviceError(GPULayerError):
    """A device or its runtime failed (GPULAYER_ERR_DEVICE)."""

    status, status_name = 6, "device error"


class UnsupportedError(GPULayerError):
    """Not available in this build or on this host (GPULAYER_ERR_UNSUPPORTED)."""

    status, status_name = 7, "unsupported"


class TrainingInterruptedError(GPULayerError):
    """Training was stopped by a callback (GPULAYER_ERR_INTERRUPTED)."""

    status, status_name = 8, "interrupted"


class PlacementError(GPULayerError):
    """No device satisfies the request (GPULAYER_ERR_PLACEMENT)."""

    status, status_name = 9, "placement refused"


class InternalError(GPULayerError):
    """A bug in libgpulayer (GPULAYER_ERR_INTERNAL): please report it."""

    status, status_name = 10, "internal error"


_BY_STATUS = {
    cls.status: cls
    for cls in (
        InvalidArgumentError,
        FileIOError,
        ParseError,
        OutOfMemoryError,
        ModelError,
        DeviceError,
        UnsupportedError,
        TrainingInterruptedError,
        PlacementError,
        InternalError,
    )
}


def error_for_status(status: int, message: str) -> GPULayerError:
    """The exception for a C status code and message."""
    cls = _BY_STATUS.get(status, GPULayerError)
    return cls(message or f"libgpulayer failed with status {status}", status)
