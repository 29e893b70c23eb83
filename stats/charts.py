"""The statistics page's charts as SVG coordinates, drawn server-side like the player page's
running total (league.views._chart): no script, no library, nothing for the CSP to allow."""

from __future__ import annotations

from typing import Any

WIDTH, HEIGHT, PAD = 640, 200, 24


def line(
    values: list[float], *, width: int = WIDTH, height: int = HEIGHT, pad: int = PAD, floor0: bool = True
) -> dict[str, Any] | None:
    """A polyline over ``values`` (with 0 kept in range when ``floor0``)."""
    if not values:
        return None
    low, high = min(values + ([0.0] if floor0 else [])), max(values + ([0.0] if floor0 else []))
    span = (high - low) or 1.0
    step = (width - 2 * pad) / max(len(values) - 1, 1)

    def y(v: float) -> float:
        return round(height - pad - (v - low) / span * (height - 2 * pad), 1)

    points = [(round(pad + i * step, 1), y(v)) for i, v in enumerate(values)]
    return {
        "width": width,
        "height": height,
        "pad": pad,
        "points": " ".join(f"{x},{yy}" for x, yy in points),
        "zero_y": y(0.0),
        "high": round(high, 3),
        "low": round(low, 3),
        # the figures drawn, for the table beside the chart (a screen reader reads that, not the line)
        "values": [{"n": i + 1, "value": round(v, 1)} for i, v in enumerate(values)],
    }


def rates(series: list[tuple[float, float]]) -> dict[str, Any] | None:
    """Win rate and deal-in rate over time (cumulative): two polylines on one 0–max scale."""
    if not series:
        return None
    top = max(max(w, d) for w, d in series) or 1.0
    width, height, pad = WIDTH, HEIGHT, PAD
    step = (width - 2 * pad) / max(len(series) - 1, 1)

    def pts(i: int) -> str:
        return " ".join(
            f"{round(pad + k * step, 1)},{round(height - pad - v[i] / top * (height - 2 * pad), 1)}"
            for k, v in enumerate(series)
        )

    return {
        "width": width,
        "height": height,
        "pad": pad,
        "wins": pts(0),
        "deal_ins": pts(1),
        "top": round(top * 100, 1),
        "values": [
            {"n": k + 1, "win": round(w * 100, 1), "deal_in": round(d * 100, 1)} for k, (w, d) in enumerate(series)
        ],
    }


def bars(
    counts: list[int], labels: list[str], *, width: int = 320, height: int = 160, pad: int = 20
) -> dict[str, Any] | None:
    """Vertical bars (placement distribution)."""
    if not any(counts):
        return None
    top = max(counts)
    slot = (width - 2 * pad) / len(counts)
    out = []
    for i, (n, label) in enumerate(zip(counts, labels)):
        h = round(n / top * (height - 2 * pad - 14), 1)
        x = round(pad + i * slot + slot * 0.15, 1)
        out.append(
            {
                "x": x,
                "y": round(height - pad - h, 1),
                "w": round(slot * 0.7, 1),
                "h": h,
                "n": n,
                "label": label,
                "tx": round(x + slot * 0.35, 1),
                "ty": round(height - pad - h - 3, 1),
            }
        )
    return {"width": width, "height": height, "bars": out, "base": height - pad + 14}
