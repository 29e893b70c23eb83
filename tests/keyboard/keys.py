"""Keyboard-only driving of a Playwright page: Tab / Shift+Tab to a control, watching each stop.

At every stop the focused control must show a focus ring (``:focus-visible`` with an outline or a
box-shadow), and the stops must follow the page: each Tab lands on a control after the previous
one in the document and on its line or below it on the screen (no positive tabindex, no order set by CSS).
Nothing here clicks or fills: text is typed into the focused control."""

from __future__ import annotations

from typing import Any

# What the focused element is, whether its focus shows, and whether it follows the last stop.
STOP = """async (back) => {
  await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));  // styles settled
  const e = document.activeElement;
  if (!e || e === document.body) return null;
  // a date or time field's focus is on its part (day, hour…) inside it: the field itself is :focus
  const DATES = /^(date|datetime-local|time|month|week)$/;
  const s = getComputedStyle(e);
  const r = e.getBoundingClientRect();
  const top = r.top + window.scrollY, bottom = r.bottom + window.scrollY;
  const prev = window.__kbPrev;
  let follows = true, below = true;
  if (prev && prev.isConnected && prev !== e) {
    const pos = prev.compareDocumentPosition(e);
    follows = back ? !!(pos & Node.DOCUMENT_POSITION_PRECEDING) : !!(pos & Node.DOCUMENT_POSITION_FOLLOWING);
    const pr = window.__kbPrevRect;
    // on the same line (their heights overlap) or below it; above it going back
    below = back ? top < pr.bottom : bottom > pr.top;
  }
  window.__kbPrev = e; window.__kbPrevRect = {top, bottom};
  const ring = (s.outlineStyle !== "none" && parseFloat(s.outlineWidth) > 0) || s.boxShadow !== "none";
  return {tag: e.tagName.toLowerCase(), id: e.id, name: e.getAttribute("name"),
          text: (e.innerText || e.value || e.getAttribute("aria-label") || "").trim().slice(0, 60),
          focusVisible: e.matches(":focus-visible") || (e.matches(":focus-within") && DATES.test(e.type || "")), ring, follows, below,
          tabindex: e.getAttribute("tabindex")};
}"""


def focused(page, selector: str) -> bool:
    return page.evaluate("(sel) => !!document.activeElement && document.activeElement.matches(sel)", selector)


def check_stop(stop: dict[str, Any], back: bool = False) -> None:
    where = f"<{stop['tag']} id={stop['id']!r} name={stop['name']!r}> {stop['text']!r}"
    assert stop["focusVisible"] and stop["ring"], f"no visible focus on {where}"
    assert stop["follows"], f"Tab order leaves the page's order at {where}"
    assert stop["below"], f"Tab jumps back up the screen at {where}"
    assert stop["tabindex"] is None or int(stop["tabindex"]) <= 0, f"a positive tabindex on {where}"


def tab_to(page, selector: str, *, back: bool = False, limit: int = 80) -> list[dict[str, Any]]:
    """Press Tab (Shift+Tab when ``back``) until the focused element matches ``selector``,
    checking each stop on the way; returns the stops (none when it has the focus already)."""
    stops: list[dict[str, Any]] = []
    if focused(page, selector):
        return stops
    for _ in range(limit):
        page.keyboard.press("Shift+Tab" if back else "Tab")
        stop = page.evaluate(STOP, back)
        if stop is None:
            continue
        check_stop(stop, back)
        stops.append(stop)
        if focused(page, selector):
            return stops
    raise AssertionError(f"{selector} was not reached in {limit} presses of Tab; last stops: {stops[-5:]}")


def start(page) -> None:
    """Forget the last stop (a new page, or focus moved by the page itself)."""
    page.evaluate("() => { window.__kbPrev = null; }")


def sign_in(page, base_url: str, username: str, password: str, next_url: str = "") -> None:
    """Sign in with allauth's form, by keyboard: Tab to the name, type it, Tab to the password,
    type it, Enter."""
    page.goto(f"{base_url}/accounts/login/" + (f"?next={next_url}" if next_url else ""))
    tab_to(page, "input[name=login]")
    page.keyboard.type(username)
    tab_to(page, "input[name=password]")
    page.keyboard.type(password)
    with page.expect_navigation():
        page.keyboard.press("Enter")
