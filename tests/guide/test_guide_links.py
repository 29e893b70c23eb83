"""The guide names only what exists (issue 48): every picture a guide page shows is in
docs/guide/img/, every picture there is one a step of tests/guide/steps.py takes (and each step's
picture is shown by a page), and every URL path a guide page names resolves in the site's URLs
(``<id>``-style parts stand for a number or a slug)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.urls import Resolver404, resolve

from tests.guide.steps import images

DOCS = Path(__file__).resolve().parents[2] / "docs"
GUIDE = DOCS / "guide"
PAGES = sorted(GUIDE.glob("*.md"))
IMAGE = re.compile(r"!\[[^\]]*\]\(img/([^)\s]+)\)")
PATH = re.compile(r"`(/[^`\s]*)`")
PART = re.compile(r"<[a-z_]+>")


def shown() -> dict[str, str]:
    """Each picture a guide page shows -> the page."""
    return {name: page.name for page in PAGES for name in IMAGE.findall(page.read_text(encoding="utf-8"))}


def test_the_guide_has_its_chapters():
    names = {page.name for page in PAGES}
    assert {"index.md", "league-admin.md", "referee.md", "director.md", "player.md", "operator.md"} <= names


def test_every_picture_shown_exists():
    missing = sorted(f"{page}: img/{name}" for name, page in shown().items() if not (GUIDE / "img" / name).is_file())
    assert not missing, f"guide pages show pictures that do not exist: {missing}"


def test_every_picture_is_taken_by_a_step_and_shown():
    on_disk = {p.name for p in (GUIDE / "img").glob("*")}
    assert not on_disk - images(), f"pictures no step takes (remove them): {sorted(on_disk - images())}"
    assert not images() - set(shown()), f"steps whose picture no guide page shows: {sorted(images() - set(shown()))}"


def test_pictures_are_small():
    total = sum(p.stat().st_size for p in (GUIDE / "img").glob("*.png"))
    assert total < 8 * 1024 * 1024, f"the guide's pictures weigh {total} bytes"


def named_paths() -> list[tuple[str, str]]:
    found = []
    for page in PAGES:
        for path in PATH.findall(page.read_text(encoding="utf-8")):
            found.append((page.name, path))
    return found


def test_the_guide_names_paths():
    assert len(named_paths()) > 40


@pytest.mark.parametrize("page,path", named_paths())
def test_every_path_named_resolves(page, path):
    concrete = PART.sub("1", path.split("?")[0].split("#")[0])
    try:
        resolve(concrete)
    except Resolver404:
        pytest.fail(f"{page} names {path}, which is no page of the site")
