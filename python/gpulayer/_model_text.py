"""Edits of a model file's JSON text that the C library reads back.

The model file ends with a checksum: the CRC-32 of the document's
canonical text (compact, members in file order, numbers as the library
prints them, strings escaped as it escapes them). Numbers are kept here as
the text the library wrote, so that a document parsed, edited and printed
again has the canonical text the library computes on reading; the numbers
written here are integers, whose text is the library's too.
"""

from __future__ import annotations

import json
import zlib
from typing import Any

__all__ = ["Number", "parse", "seal", "ATTRIBUTES"]

# The member holding Booster.set_attr's attributes; the library's reader
# skips members it does not know.
ATTRIBUTES = "attributes"


class Number(str):
    """A JSON number kept as its text."""


def parse(text: bytes | str) -> dict:
    """The document, members in file order, numbers as :class:`Number`."""
    if isinstance(text, bytes):
        text = text.decode("utf-8")
    return json.loads(text, parse_float=Number, parse_int=Number)


def _string(s: str) -> str:
    out = ['"']
    for ch in s:
        if ch == '"':
            out.append('\\"')
        elif ch == "\\":
            out.append("\\\\")
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\t":
            out.append("\\t")
        elif ch == "\r":
            out.append("\\r")
        elif ord(ch) < 0x20:
            out.append(f"\\u{ord(ch):04x}")
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


def _breaks(value, depth: int, pretty: bool) -> bool:
    """The library's layout: each top-level member on a line, and each
    element of a second-level container that holds containers."""
    if not pretty or depth > 1:
        return False
    if depth == 0:
        return True
    children = value.values() if isinstance(value, dict) else value
    return any(isinstance(c, (dict, list)) for c in children)


def _print(value: Any, out: list, depth: int, pretty: bool) -> None:
    if isinstance(value, Number):
        out.append(str(value))
    elif isinstance(value, str):
        out.append(_string(value))
    elif value is True:
        out.append("true")
    elif value is False:
        out.append("false")
    elif value is None:
        out.append("null")
    elif isinstance(value, int):
        out.append(str(value))
    elif isinstance(value, (dict, list)):
        obj = isinstance(value, dict)
        breaks = _breaks(value, depth, pretty)
        out.append("{" if obj else "[")
        items = value.items() if obj else ((None, v) for v in value)
        first = True
        for key, child in items:
            if not first:
                out.append(",")
            first = False
            if breaks:
                out.append("\n" + "  " * (depth + 1))
            if obj:
                out.append(_string(key) + ":")
            _print(child, out, depth + 1, pretty)
        if breaks and not first:
            out.append("\n" + "  " * depth)
        out.append("}" if obj else "]")
    else:
        raise TypeError(f"cannot write {type(value).__name__} into a model file")


def seal(doc: dict) -> bytes:
    """The file text of doc (its checksum member, if any, replaced)."""
    doc = {k: v for k, v in doc.items() if k != "checksum"}
    compact: list = []
    _print(doc, compact, 0, False)
    crc = zlib.crc32("".join(compact).encode("utf-8"))
    pretty: list = []
    _print(doc, pretty, 0, True)
    text = "".join(pretty)
    if doc:
        text = text[:-2] + f",\n  \"checksum\":\"{crc:08x}\"\n}}\n"
    else:
        text = f"{{\n  \"checksum\":\"{crc:08x}\"\n}}\n"
    return text.encode("utf-8")
