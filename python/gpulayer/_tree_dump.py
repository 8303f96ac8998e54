"""The trees of the library's text dump (gpulayer_booster_dump_tree) as
nodes, and the nodes written back: as the same text (with other feature
names), as XGBoost's JSON dump, and as rows of XGBoost's
trees_to_dataframe."""

from __future__ import annotations

import re
from typing import Callable, NamedTuple, Optional, Sequence

__all__ = ["Node", "parse_tree", "render_text", "render_json", "read_fmap"]

_LEAF = re.compile(r"^(\t*)(\d+):leaf=([^,]+)(?:,cover=(.+))?$")
_SPLIT = re.compile(r"^(\t*)(\d+):\[(.*)\] yes=(\d+),no=(\d+),missing=(\d+)"
                    r"(?:,gain=([^,]+),cover=(.+))?$")
_CATEGORIES = re.compile(r"^(.*) in \{(.*)\}$", re.S)


class Node(NamedTuple):
    """One node of a dumped tree. Numbers are kept as the dump's text."""

    nodeid: int
    depth: int
    feature: Optional[str]       # split feature as the dump names it; None for a leaf
    condition: Optional[str]     # numeric split: go to yes when value < condition
    categories: Optional[list]   # categorical split: the category names going to yes
    yes: Optional[int]
    no: Optional[int]
    missing: Optional[int]
    gain: Optional[str]
    cover: Optional[str]
    leaf: Optional[str]


def parse_tree(text: str) -> list[Node]:
    """The nodes of one tree's dump, in the dump's order (depth first)."""
    nodes = []
    for line in text.splitlines():
        if not line.strip():
            continue
        m = _LEAF.match(line)
        if m:
            tabs, nid, value, cover = m.groups()
            nodes.append(Node(int(nid), len(tabs), None, None, None, None, None, None,
                              None, cover, value))
            continue
        m = _SPLIT.match(line)
        if not m:
            raise ValueError(f"cannot read the tree dump line {line!r}")
        tabs, nid, test, yes, no, missing, gain, cover = m.groups()
        cats = _CATEGORIES.match(test)
        if cats:
            feature, condition = cats.group(1), None
            categories = cats.group(2).split(", ") if cats.group(2) else []
        else:
            feature, _, condition = test.rpartition("<")
            categories = None
        nodes.append(Node(int(nid), len(tabs), feature, condition, categories, int(yes),
                          int(no), int(missing), gain, cover, None))
    return nodes


def render_text(nodes: Sequence[Node], rename: Callable[[str], str] = str) -> str:
    """The dump's text of the nodes, feature names passed through rename."""
    lines = []
    for n in nodes:
        tabs = "\t" * n.depth
        if n.feature is None:
            stats = f",cover={n.cover}" if n.cover is not None else ""
            lines.append(f"{tabs}{n.nodeid}:leaf={n.leaf}{stats}")
            continue
        name = rename(n.feature)
        test = (f"{name} in {{{', '.join(n.categories)}}}" if n.categories is not None
                else f"{name}<{n.condition}")
        stats = f",gain={n.gain},cover={n.cover}" if n.gain is not None else ""
        lines.append(f"{tabs}{n.nodeid}:[{test}] yes={n.yes},no={n.no},"
                     f"missing={n.missing}{stats}")
    return "\n".join(lines) + "\n" if lines else ""


def _json_string(s: str) -> str:
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def render_json(nodes: Sequence[Node], with_stats: bool,
                rename: Callable[[str], str] = str,
                category_codes: Callable[[str, list], list] | None = None) -> str:
    """One tree in XGBoost's JSON dump layout. category_codes(feature,
    names) gives the codes a categorical split lists (XGBoost's
    split_condition); by default the names, as JSON strings."""
    if not nodes:
        return ""
    by_id = {n.nodeid: n for n in nodes}
    # A node's children in the dump's order (depth first: its next lines).
    children: dict[int, list[int]] = {}
    stack: list[Node] = []
    for n in nodes:
        while stack and stack[-1].depth >= n.depth:
            stack.pop()
        if stack:
            children.setdefault(stack[-1].nodeid, []).append(n.nodeid)
        stack.append(n)

    def write(n: Node) -> str:
        pad = "  " * (n.depth + 1)
        if n.feature is None:
            stats = f" , \"cover\": {n.cover} " if with_stats and n.cover is not None else " "
            return f'{pad}{{ "nodeid": {n.nodeid}, "leaf": {n.leaf}{stats}}}'
        if n.categories is not None:
            codes = (category_codes(n.feature, n.categories) if category_codes
                     else [_json_string(c) for c in n.categories])
            condition = "[" + ", ".join(str(c) for c in codes) + "]"
        else:
            condition = n.condition
        stats = (f' , "gain": {n.gain}, "cover": {n.cover}, '
                 if with_stats and n.gain is not None else " , ")
        head = (f'{pad}{{ "nodeid": {n.nodeid}, "depth": {n.depth}, '
                f'"split": {_json_string(rename(n.feature))}, "split_condition": {condition}, '
                f'"yes": {n.yes}, "no": {n.no}, "missing": {n.missing}{stats}"children": [\n')
        kids = ", \n".join(write(by_id[c]) for c in children.get(n.nodeid, []))
        return head + kids + f"\n{pad}]}}"

    return write(nodes[0])


def read_fmap(path: str) -> dict[int, str]:
    """XGBoost's feature map file: lines ``index<TAB>name<TAB>type``."""
    names = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            parts = line.rstrip("\n").split("\t")
            if len(parts) >= 2 and parts[0].strip():
                names[int(parts[0])] = parts[1]
    return names
