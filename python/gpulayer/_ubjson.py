"""Universal Binary JSON (draft 12) encoding of a JSON document, for
``Booster.save_model("model.ubj")``: XGBoost's binary model format.

Numbers keep the kind the JSON text gave them, as XGBoost's reader tells
them apart: an integer becomes an int64, a float a float32 when it is one
exactly (every value of an exported model is), else a float64. Lengths
and counts are int64 and arrays are counted, as XGBoost writes them;
arrays hold their elements one by one, with a type marker each (XGBoost
writes typed arrays, and reads both). Big-endian, as the format says.
"""

from __future__ import annotations

import struct

__all__ = ["encode"]


def _integer(n: int, out: bytearray) -> None:
    """An int64 ('L'): XGBoost writes every integer, length and count so,
    and its reader asks for 'L' where a length is due."""
    if not -(1 << 63) <= n < (1 << 63):
        raise ValueError(f"integer {n} does not fit UBJSON's int64")
    out += b"L" + struct.pack(">q", n)


def _string(s: str, out: bytearray) -> None:
    """A string's length and bytes (an object key; values add b"S")."""
    data = s.encode("utf-8")
    _integer(len(data), out)
    out += data


def _value(v, out: bytearray) -> None:
    if v is None:
        out += b"Z"
    elif v is True:
        out += b"T"
    elif v is False:
        out += b"F"
    elif isinstance(v, int):
        _integer(v, out)
    elif isinstance(v, float):
        single = struct.pack(">f", v) if abs(v) <= 3.4028234663852886e38 else None
        if single is not None and struct.unpack(">f", single)[0] == v:
            out += b"d" + single
        else:
            out += b"D" + struct.pack(">d", v)
    elif isinstance(v, str):
        out += b"S"
        _string(v, out)
    elif isinstance(v, dict):
        out += b"{"
        for key, item in v.items():
            _string(str(key), out)
            _value(item, out)
        out += b"}"
    elif isinstance(v, (list, tuple)):
        # A counted array, as XGBoost writes one: no closing marker.
        out += b"[#"
        _integer(len(v), out)
        for item in v:
            _value(item, out)
    else:
        raise TypeError(f"cannot encode {type(v).__name__} as UBJSON")


def encode(doc) -> bytes:
    """The UBJSON bytes of a JSON document (dicts, lists, str, int, float,
    bool, None)."""
    out = bytearray()
    _value(doc, out)
    return bytes(out)
