"""`gpulayer train --report FILE`: the HTML page on a training run. The
page is parsed and what it shows checked against what the command printed
and saved: one curve point a round, the best round marked where early
stopping put it, the importance bars in the order `gpulayer importance`
gives, the parameters, the device, time and memory, nothing fetched from
outside; then a headless browser draws it."""
import json
import os
import random
import re
import shutil
import struct
import subprocess
import xml.etree.ElementTree as ET
import zlib
from html.parser import HTMLParser

import numpy as np
import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CLI = os.environ.get("GPULAYER_CLI", os.path.join(ROOT, "build", "gpulayer"))

if not os.path.exists(CLI):
    pytest.skip(f"the gpulayer command is not built ({CLI})", allow_module_level=True)

# A name the page must escape, and more features than the chart shows.
SPECIAL = "gamma <&x>"
FEATURES = ["alpha", "beta", SPECIAL] + [f"n{i:02d}" for i in range(21)]
TOP = 20


def run(*args):
    return subprocess.run([CLI, *args], capture_output=True, text=True)


def write_data(path, rows, seed):
    rng = random.Random(seed)
    with open(path, "w") as f:
        f.write("y," + ",".join(FEATURES) + "\n")
        for _ in range(rows):
            x = [rng.random() for _ in FEATURES]
            score = x[0] + 0.5 * x[1] + 0.25 * x[2] + rng.gauss(0, 0.35)
            f.write(f"{int(score > 0.9)}," + ",".join(f"{v:.5f}" for v in x) + "\n")
    return str(path)


@pytest.fixture(scope="module")
def trained(tmp_path_factory):
    """One run with two evaluation sets, two metrics and early stopping."""
    tmp = tmp_path_factory.mktemp("report")
    # enough rows that the trees use every feature, more than the chart shows
    train = write_data(tmp / "train.csv", 1500, 1)
    valid_a = write_data(tmp / "valid_a.csv", 300, 2)
    valid_b = write_data(tmp / "valid_b.csv", 300, 3)
    model, report = str(tmp / "model.json"), str(tmp / "report.html")
    r = run("train", "--data", train, "--label", "y", "--valid", valid_a, "--valid", valid_b,
            "--objective", "binary:logistic", "--param", "eval_metric=auc",
            "--param", "eval_metric=logloss", "--max-depth", "3", "--num-round", "200",
            "--early-stopping", "5", "--device", "cpu", "--nthread", "1",
            "--model", model, "--report", report)
    assert r.returncode == 0, r.stderr
    rounds = int(re.search(r"trained (\d+) rounds", r.stderr).group(1))
    best = int(re.search(r"best round (\d+)", r.stderr).group(1))
    assert rounds < 200, "the data must make early stopping stop the run"
    assert f"report written to {report}" in r.stderr
    with open(report, encoding="utf-8") as f:
        html = f.read()
    return {"dir": tmp, "train": train, "valid": [valid_a, valid_b], "model": model,
            "report": report, "html": html, "stderr": r.stderr, "rounds": rounds,
            "best": best}


def svgs(html, css_class):
    """The page's inline SVG charts of a class, parsed as XML."""
    found = [ET.fromstring(m) for m in re.findall(r"<svg\b.*?</svg>", html, re.S)]
    return [s for s in found if s.get("class") == css_class]


class Tables(HTMLParser):
    """Each table's rows as {th: td} by the table's class; the h1 text."""

    def __init__(self):
        super().__init__()
        self.tables, self.h1, self._table, self._cell, self._row = {}, "", None, None, []

    def handle_starttag(self, tag, attrs):
        if tag == "table":
            self._table = self.tables.setdefault(dict(attrs).get("class"), {})
        elif tag in ("th", "td", "h1"):
            self._cell = tag
            self._row.append("")

    def handle_endtag(self, tag):
        if tag == "tr" and self._table is not None and len(self._row) == 2:
            key, value = self._row
            self._table[key] = (self._table[key] + "\n" + value) if key in self._table else value
        if tag == "tr":
            self._row = []
        if tag == "h1":
            self.h1 = self._row.pop()
        if tag in ("th", "td", "h1"):
            self._cell = None
        if tag == "table":
            self._table = None

    def handle_data(self, data):
        if self._cell:
            self._row[-1] += data


def tables(html):
    parser = Tables()
    parser.feed(html)
    parser.close()
    return parser


def points(polyline):
    return np.array([[float(v) for v in p.split(",")]
                     for p in polyline.get("points").split()])


def printed_values(stderr, name, metric):
    """The value of name-metric on each progress line, in round order."""
    pattern = re.compile(r"^\[\d+/\d+\].* " + re.escape(f"{name}-{metric}:") + r"([-0-9.]+)",
                         re.M)
    return np.array([float(v) for v in pattern.findall(stderr)])


def test_curves_have_a_point_a_round_and_mark_the_best_round(trained):
    charts = svgs(trained["html"], "curve")
    assert len(charts) == 2  # one chart a metric
    seen = set()
    for chart in charts:
        lines = chart.findall("polyline")
        assert len(lines) == 3  # the training rows', then one curve a --valid set
        metric = lines[0].get("data-metric")
        assert metric in ("auc", "logloss")
        assert [ln.get("data-set") for ln in lines] == ["train"] + trained["valid"]
        marker = chart.find("line[@class='best-round']")
        assert marker is not None and int(marker.get("data-round")) == trained["best"]
        for ln in lines:
            seen.add((ln.get("data-set"), metric))
            xy = points(ln)
            assert len(xy) == trained["rounds"]
            assert np.all(np.diff(xy[:, 0]) > 0)
            # The marker stands on the best round's point.
            assert float(marker.get("x1")) == pytest.approx(xy[trained["best"] - 1, 0], abs=0.01)
            # The heights are the printed values, larger ones higher up.
            values = printed_values(trained["stderr"], ln.get("data-set"), metric)
            assert len(values) == trained["rounds"]
            slope, intercept = np.polyfit(values, xy[:, 1], 1)
            assert slope < 0
            assert np.max(np.abs(slope * values + intercept - xy[:, 1])) < 0.05
        dots = chart.findall("circle[@class='best-point']")
        assert len(dots) == 3
        # Axes: ticks with numbers on both, and their names.
        for axis in ("x-axis", "y-axis"):
            group = chart.find(f"g[@class='{axis}']")
            labels = [t.text for t in group.findall("text[@class='tick-label']")]
            assert len(labels) >= 2 and all(re.fullmatch(r"-?[0-9.e+]+", t) for t in labels)
            assert len(group.findall("line[@class='tick']")) == len(labels)
        names = [t.text for t in chart.iter("text") if t.get("class") == "axis-label"]
        assert names == ["round", metric]
    assert len(seen) == 6


def test_command_data_best_round_and_device_reasons(trained):
    page = tables(trained["html"])
    summary = page.tables["summary"]
    assert summary["command"].startswith("gpulayer train --data " + trained["train"])
    assert "--early-stopping 5" in summary["command"]
    assert re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC", summary["written"])
    data = page.tables["data"]
    labels = np.loadtxt(trained["train"], delimiter=",", skiprows=1, usecols=0)
    assert data["rows"] == str(len(labels)) and data["features"] == str(len(FEATURES))
    assert data["categorical features"] == "0"
    assert data["missing values"] == "0.00% of the cells"
    ones = int(labels.sum())
    zeros = len(labels) - ones
    assert data["label classes"] == (f"0: {zeros} ({100 * zeros / len(labels):.1f}%), "
                                      f"1: {ones} ({100 * ones / len(labels):.1f}%)")
    # The best round's values and the last round's, as printed.
    best = re.search(r'<table class="best">(.*?)</table>', trained["html"], re.S).group(1)
    head = re.findall(r"<th>(.*?)</th>", best)
    assert head == ["data", "metric", f"best round {trained['best']}",
                    f"last round {trained['rounds']}"]
    rows = re.findall(r"<tr><td>(.*?)</td><td>(.*?)</td><td>(.*?)</td><td>(.*?)</td></tr>",
                      best)
    assert [(d, m) for d, m, _, _ in rows] == [
        (d, m) for d in ["train"] + trained["valid"] for m in ("auc", "logloss")]
    for name, metric, at_best, at_last in rows:
        values = printed_values(trained["stderr"], name, metric)
        assert float(at_best) == pytest.approx(values[trained["best"] - 1], rel=1e-5)
        assert float(at_last) == pytest.approx(values[-1], rel=1e-5)
    # Every device considered, with its reason.
    placement = re.search(r'<pre class="placement">(.*?)</pre>', trained["html"], re.S).group(1)
    assert "devices considered:" in placement
    assert re.search(r"^ +cpu:0 +chosen", placement, re.M)


def test_importance_bars_largest_first_with_feature_names(trained):
    (chart,) = svgs(trained["html"], "importance")
    bars = chart.findall("rect[@class='bar']")
    labels = [t.text for t in chart.findall("text[@class='bar-label']")]
    r = run("importance", "--model", trained["model"], "--type", "gain")
    assert r.returncode == 0, r.stderr
    ranked = [line.split("\t") for line in r.stdout.splitlines()]
    assert len(ranked) > TOP  # the chart has to leave some out
    assert labels == [name for name, _, _ in ranked[:TOP]]
    assert SPECIAL in labels and "gamma &lt;&amp;x&gt;" in trained["html"]
    values = [float(b.get("data-value")) for b in bars]
    assert values == pytest.approx([float(v) for _, v, _ in ranked[:TOP]], rel=1e-6)
    assert values == sorted(values, reverse=True) and values[0] > values[-1]
    widths = [float(b.get("width")) for b in bars]
    tops = [float(b.get("y")) for b in bars]
    assert widths == sorted(widths, reverse=True)
    assert tops == sorted(tops)  # the largest on top


def test_parameters_device_time_and_memory(trained):
    page = tables(trained["html"])
    assert page.h1 == "Training report"
    summary = page.tables["summary"]
    assert summary["data"] == trained["train"]
    assert summary["validation set"].split("\n") == trained["valid"]
    assert summary["best round"] == str(trained["best"])
    with open(trained["model"]) as f:
        model = json.load(f)
    assert summary["rounds in the model"] == str(len(model["trees"]))
    params = page.tables["params"]
    assert params["objective"] == "binary:logistic"
    assert params["max_depth"] == "3"
    assert params["eta"] == "0.3"
    assert params["early_stopping_rounds"] == "5"
    assert params["eval_metric"] == "auc,logloss"
    assert params["nthread"] == "1"
    device = page.tables["device"]
    assert device["requested"] == "cpu"
    assert re.search(r"\bcpu:0\b", device["used"])
    timing = page.tables["timing"]
    assert float(timing["training time"].removesuffix(" s")) > 0
    assert timing["rounds trained"] == str(trained["rounds"])
    mean = float(timing["mean time a round"].removesuffix(" ms"))
    total = float(timing["training time"].removesuffix(" s"))
    # Both are rounded as printed: the total to the millisecond.
    slack = 0.5 / trained["rounds"] + 0.0005
    assert mean == pytest.approx(1000 * total / trained["rounds"], abs=slack)
    assert float(timing["peak resident memory (this process)"].removesuffix(" MiB")) > 1


def test_page_needs_nothing_from_outside(trained):
    html = trained["html"]
    assert html.startswith("<!DOCTYPE html>")
    assert "http" not in html.lower()
    for needle in ("<script", "<link", "<img", "<iframe", "src=", "href=", "url(", "@import"):
        assert needle not in html.lower(), needle
    # Written in place: no temporary file left beside it.
    assert sorted(os.listdir(trained["dir"])) == [
        "model.json", "report.html", "train.csv", "valid_a.csv", "valid_b.csv"]


def test_report_from_config_without_evaluation_sets(tmp_path):
    data = write_data(tmp_path / "d.csv", 200, 4)
    report = tmp_path / "r.html"
    report.write_text("an older report")
    conf = tmp_path / "t.conf"
    conf.write_text(f"data = {data}\nlabel = y\nreport = {report}\nnum_round = 4\n")
    r = run("train", "--config", str(conf), "--model", str(tmp_path / "m.json"),
            "--device", "cpu", "--nthread", "1", "--quiet")
    assert r.returncode == 0, r.stderr
    html = report.read_text()
    # No evaluation set and no early stopping: the training rows' curve.
    charts = svgs(html, "curve")
    assert [ln.get("data-set") for c in charts for ln in c.findall("polyline")] == ["train"]
    assert len(svgs(html, "importance")) == 1
    assert tables(html).tables["timing"]["rounds trained"] == "4"
    assert oct(report.stat().st_mode & 0o777) == oct(0o666 & ~current_umask())


def test_long_names_are_cut_on_a_character_boundary(tmp_path):
    long_name = "température moyenne du mois " * 3
    data = tmp_path / "d.csv"
    rng = random.Random(6)
    with open(data, "w", encoding="utf-8") as f:
        f.write(f"y,{long_name},b\n")
        for _ in range(200):
            a, b = rng.random(), rng.random()
            f.write(f"{int(a + rng.gauss(0, 0.2) > 0.5)},{a:.4f},{b:.4f}\n")
    report = tmp_path / "r.html"
    r = run("train", "--data", str(data), "--label", "y", "--num-round", "3", "--device",
            "cpu", "--nthread", "1", "--model", str(tmp_path / "m.json"),
            "--report", str(report), "--quiet")
    assert r.returncode == 0, r.stderr
    html = report.read_bytes().decode("utf-8")  # no character cut in half
    (chart,) = svgs(html, "importance")
    labels = [t.text for t in chart.findall("text[@class='bar-label']")]
    cut = [label for label in labels if label.endswith("\u2026")]
    assert len(cut) == 1 and long_name.startswith(cut[0][:-1])
    assert len(cut[0].encode("utf-8")) <= 43


def test_one_round_is_drawn_as_a_dot(tmp_path):
    data = write_data(tmp_path / "d.csv", 200, 7)
    report = tmp_path / "r.html"
    r = run("train", "--data", data, "--label", "y", "--valid", data, "--num-round", "1",
            "--device", "cpu", "--nthread", "1", "--model", str(tmp_path / "m.json"),
            "--report", str(report), "--quiet")
    assert r.returncode == 0, r.stderr
    (chart,) = svgs(report.read_text(), "curve")
    # The training rows' curve and the --valid set's, the same rows here.
    lines = chart.findall("polyline")
    dots = chart.findall("circle[@class='point']")
    assert len(lines) == len(dots) == 2
    for line, dot in zip(lines, dots):
        ((x, y),) = points(line)
        assert (float(dot.get("cx")), float(dot.get("cy"))) == (x, y)


def test_help_documents_the_option():
    r = run("train", "--help")
    assert r.returncode == 0
    assert re.search(r"^  --report FILE +also write an HTML page", r.stdout, re.M)


def current_umask():
    mask = os.umask(0)
    os.umask(mask)
    return mask


def test_a_report_folder_that_is_missing_is_refused_before_training(tmp_path):
    data = write_data(tmp_path / "d.csv", 200, 5)
    model = tmp_path / "m.json"
    report = tmp_path / "missing" / "r.html"
    r = run("train", "--data", data, "--label", "y", "--num-round", "3", "--device", "cpu",
            "--nthread", "1", "--model", str(model), "--report", str(report))
    assert r.returncode == 2
    assert f"--report {report}: the folder {report.parent} does not exist" in r.stderr
    # Found before the work, not after it: nothing trained, nothing written.
    assert "trained" not in r.stderr and not model.exists()
    assert not report.parent.exists()


# ------------------------------------------------------------ rendering

def decode_png(data):
    """The pixels of an 8-bit, non-interlaced RGB or RGBA PNG (what
    Chromium writes) as an H x W x 3 array."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat = 8, b""
    while pos < len(data):
        size, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + size]
        pos += 12 + size
        if kind == b"IHDR":
            width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
    assert depth == 8 and colour in (2, 6) and interlace == 0
    bpp = 3 if colour == 2 else 4
    raw, stride = zlib.decompress(idat), width * bpp
    pixels = np.zeros((height, stride), np.uint8)
    prev = np.zeros(stride, np.int64)
    for y in range(height):
        start = y * (stride + 1)
        kind = raw[start]
        line = np.frombuffer(raw, np.uint8, stride, start + 1).astype(np.int64)
        if kind == 0:
            cur = line
        elif kind == 1:  # Sub: a running sum along each channel
            cur = np.cumsum(line.reshape(width, bpp), axis=0).reshape(-1) % 256
        elif kind == 2:  # Up
            cur = (line + prev) % 256
        else:  # Average and Paeth depend on the byte just decoded
            cur_l, line_l, prev_l = [0] * stride, line.tolist(), prev.tolist()
            for i in range(stride):
                a = cur_l[i - bpp] if i >= bpp else 0
                b = prev_l[i]
                if kind == 3:
                    v = line_l[i] + ((a + b) >> 1)
                else:
                    c = prev_l[i - bpp] if i >= bpp else 0
                    p = a + b - c
                    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                    v = line_l[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)
                cur_l[i] = v & 255
            cur = np.array(cur_l, np.int64)
        pixels[y] = cur
        prev = cur
    return pixels.reshape(height, width, bpp)[:, :, :3]


def encode_png(pixels, filters):
    """An RGB or RGBA PNG of pixels (H x W x 3 or 4), row y filtered with
    filters[y % len(filters)] as the PNG specification defines them."""
    height, width, bpp = pixels.shape
    rows = [bytes(r) for r in pixels.reshape(height, width * bpp).tolist()]
    raw = b""
    for y, row in enumerate(rows):
        kind, prior = filters[y % len(filters)], rows[y - 1] if y else bytes(len(row))
        out = bytearray()
        for i, x in enumerate(row):
            a = row[i - bpp] if i >= bpp else 0
            b, c = prior[i], prior[i - bpp] if i >= bpp else 0
            p = a + b - c
            paeth = min((abs(p - a), 0, a), (abs(p - b), 1, b), (abs(p - c), 2, c))[2]
            out.append((x - [0, a, b, (a + b) >> 1, paeth][kind]) % 256)
        raw += bytes([kind]) + out

    def chunk(kind, body):
        return (struct.pack(">I", len(body)) + kind + body +
                struct.pack(">I", zlib.crc32(kind + body)))
    header = struct.pack(">IIBBBBB", width, height, 8, 2 if bpp == 3 else 6, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) +
            chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


@pytest.mark.parametrize("bpp", [3, 4])
def test_decode_png_undoes_every_filter(bpp):
    pixels = np.random.default_rng(bpp).integers(0, 256, (10, 7, bpp), dtype=np.uint8)
    decoded = decode_png(encode_png(pixels, [0, 1, 2, 3, 4]))
    assert np.array_equal(decoded, pixels[:, :, :3])


def chromium():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    return None


def test_page_renders_in_a_headless_browser(trained, tmp_path):
    browser = chromium()
    if not browser:
        pytest.skip("no headless Chromium (Debian package chromium; scripts/setup.sh "
                    "installs it with GPULAYER_TEST_BROWSER=1 or in CI)")
    shot = tmp_path / "report.png"
    r = subprocess.run([browser, "--headless", "--disable-gpu", "--no-sandbox",
                        f"--user-data-dir={tmp_path / 'profile'}", f"--screenshot={shot}",
                        "--window-size=1200,2000", "file://" + trained["report"]],
                       capture_output=True, text=True, timeout=180)
    assert r.returncode == 0 and shot.exists(), r.stderr[-2000:]
    pixels = decode_png(shot.read_bytes()).astype(int)
    assert pixels.shape == (2000, 1200, 3)
    # The learning curves fill the top of the page, below the summary:
    # drawn, they leave many pixels that are not white there, and the
    # second set's orange (#ff7f0e, used for nothing else) only they draw.
    top = pixels[150:1000, :900]
    assert np.count_nonzero(np.any(top < 200, axis=2)) > 5000
    r_, g_, b_ = top[:, :, 0], top[:, :, 1], top[:, :, 2]
    orange = (r_ > 200) & (g_ > 90) & (g_ < 170) & (b_ < 90)
    assert np.count_nonzero(orange) > 400


def section(html, title):
    """The page from the h2 that starts with title to the next h2."""
    start = html.index("<h2>" + title)
    end = html.find("<h2>", start + 4)
    return html[start:end if end >= 0 else len(html)]


def pair_table(html, css_class):
    return tables(html).tables[css_class]


def test_binary_validation_curves_confusion_calibration_and_shap(trained):
    part = section(trained["html"], "Validation set: " + trained["valid"][-1])
    # The area under the drawn ROC curve is the AUC printed at the best
    # round, up to which the model predicts.
    auc = float(pair_table(part, "binary")["area under the ROC curve"])
    printed = printed_values(trained["stderr"], trained["valid"][-1], "auc")
    assert auc == pytest.approx(printed[trained["best"] - 1], abs=2e-6)
    (roc,) = svgs(part, "roc")
    xy = points(roc.find("polyline"))
    assert len(xy) >= 10 and np.all(np.diff(xy[:, 0]) >= 0)  # false positive rate grows
    assert len(svgs(part, "precision-recall")) == 1 and len(svgs(part, "calibration")) == 1
    cells = [int(v) for v in re.findall(
        r"<td>(\d+)</td>", re.search(r'<table class="confusion">(.*?)</table>', part, re.S)[1])]
    labels = np.loadtxt(trained["valid"][-1], delimiter=",", skiprows=1, usecols=0)
    assert len(cells) == 4 and sum(cells) == len(labels)
    assert cells[2] + cells[3] == int(labels.sum())  # the label-1 row
    (shap,) = svgs(part, "shap")
    names = [t.text for t in shap.iter("text") if t.get("class") == "bar-label"]
    values = [float(r.get("data-value")) for r in shap.iter("rect")]
    assert 0 < len(names) <= 20 and set(names) <= set(FEATURES) | {"gamma <&x>"}
    assert values == sorted(values, reverse=True)


def test_regression_residuals_and_multiclass_confusion(tmp_path):
    train = write_data(tmp_path / "t.csv", 600, 11)
    valid = write_data(tmp_path / "v.csv", 200, 12)
    report = tmp_path / "r.html"
    r = run("train", "--data", train, "--valid", valid, "--label", "alpha",
            "--objective", "reg:squarederror", "--num-round", "5", "--device", "cpu",
            "--model", str(tmp_path / "m.json"), "--report", str(report))
    assert r.returncode == 0, r.stderr
    html = report.read_text()
    rmse = float(pair_table(html, "residuals")["root mean squared error"])
    assert rmse == pytest.approx(printed_values(r.stderr, "valid", "rmse")[-1], rel=1e-5)
    assert len(svgs(html, "residuals")) == 1 and svgs(html, "roc") == []
    r = run("train", "--data", train, "--valid", valid, "--label", "y",
            "--objective", "multi:softprob", "--param", "num_class=2", "--num-round", "3",
            "--device", "cpu", "--model", str(tmp_path / "m.json"), "--report", str(report))
    assert r.returncode == 0, r.stderr
    table = re.search(r'<table class="confusion">(.*?)</table>', report.read_text(), re.S)[1]
    assert sum(int(v) for v in re.findall(r"<td>(\d+)</td>", table)) == 200
