"""Every decision record the code and docs cite is in the repository, and
nothing cites a document that is not."""
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SOURCES = [p for top in ("src", "include", "cli", "python", "docs", "scripts", "tests")
           for p in (ROOT / top).rglob("*")
           if p.is_file() and p.suffix in {".c", ".h", ".cu", ".cpp", ".hpp", ".m",
                                           ".md", ".py", ".cmake", ".sh", ".comp",
                                           ".glsl", ".txt"}]
RECORD = re.compile(r"\bADR[ -](\d{4})\b")


def records():
    return {p.name[:4] for p in (ROOT / "docs" / "adr").glob("[0-9][0-9][0-9][0-9]-*.md")}


def test_every_cited_record_exists():
    known = records()
    missing = []
    for path in SOURCES:
        for n, line in enumerate(path.read_text(errors="replace").splitlines(), 1):
            for number in RECORD.findall(line):
                if number not in known:
                    missing.append(f"{path.relative_to(ROOT)}:{n}: ADR {number}")
    assert not missing, "citations of records not in docs/adr/: " + ", ".join(missing)


def test_no_citation_of_documents_outside_the_repository():
    this = Path(__file__).resolve()
    found = [f"{p.relative_to(ROOT)}:{n}"
             for p in SOURCES if p.resolve() != this
             for n, line in enumerate(p.read_text(errors="replace").splitlines(), 1)
             if "DESIGN.md" in line]
    assert not found, "cites DESIGN.md, which is not in the repository: " + ", ".join(found)
