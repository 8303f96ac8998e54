"""Every document in docs/ is listed in docs/README.md, and the README
points to the categorical features' document."""
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_every_document_is_in_the_index():
    index = (ROOT / "docs" / "README.md").read_text()
    missing = [p.name for p in (ROOT / "docs").glob("*.md")
               if p.name != "README.md" and f"]({p.name})" not in index]
    assert not missing, f"docs/README.md does not list {missing}"


def test_readme_points_to_the_categorical_document():
    assert "docs/categorical.md" in (ROOT / "README.md").read_text()
    assert (ROOT / "docs" / "categorical.md").is_file()
