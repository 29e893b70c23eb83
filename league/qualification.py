"""Qualification tiers as data (seed 003: from 2023 S3 the A division admits players on
several categories, confirmed before each season, not for life).

A tier's ``requirements``::

    {"accounts": [                       # any one alternative suffices
        {"platform": "tenhou", "min_rank": "7-dan", "min_rating": 2000,
         "min_games_in_year": 40, "min_room": "phoenix"},
        {"platform": "mahjongsoul", "min_rank": "celestial",
         "min_games_in_year": 40, "min_room": "throne"}],
     "proof_required": true}

An empty ``accounts`` list means the admin judges the proof alone (e.g. category 1,
earned by league results). Validity: ``yearly`` runs to the end of the evidence year's 4th
season; ``season`` covers the season applied for only.
"""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.utils.translation import gettext

# Ordered ranks and rooms per platform: later = higher.
RANKS = {
    "tenhou": [
        "1-kyu",
        "1-dan",
        "2-dan",
        "3-dan",
        "4-dan",
        "5-dan",
        "6-dan",
        "7-dan",
        "8-dan",
        "9-dan",
        "10-dan",
        "tenhoui",
    ],
    "mahjongsoul": ["novice", "adept", "expert", "master", "saint", "celestial"],
}
ROOMS = {
    "tenhou": ["general", "upper", "special", "phoenix"],  # 一般 上級 特上 鳳凰
    "mahjongsoul": ["bronze", "silver", "gold", "jade", "throne"],  # 銅 銀 金 玉 王座
}
PLATFORMS = {"tenhou": "Tenhou 天鳳", "mahjongsoul": "Mahjong Soul 雀魂", "league": "League record"}
ACCOUNT_KEYS = {"platform", "min_rank", "min_rating", "min_games_in_year", "min_room"}


def validate_requirements(requirements: dict) -> None:
    """Raise ValidationError naming the bad key of a tier's requirements, in the reader's words."""
    from django.utils.translation import gettext as _

    if not isinstance(requirements, dict):
        raise ValidationError({"requirements": [_("must be an object")]})
    unknown = set(requirements) - {"accounts", "proof_required"}
    if unknown:
        raise ValidationError({"requirements": [_("unknown keys: %(keys)s") % {"keys": ", ".join(sorted(unknown))}]})
    if not isinstance(requirements.get("proof_required", False), bool):
        raise ValidationError({"requirements.proof_required": [_("true or false")]})
    if not isinstance(requirements.get("accounts", []), list):
        raise ValidationError({"requirements.accounts": [_("must be a list")]})
    for i, alt in enumerate(requirements.get("accounts", [])):
        where = f"requirements.accounts[{i}]"
        if not isinstance(alt, dict) or alt.get("platform") not in RANKS:
            raise ValidationError({where: [_("platform must be one of %(names)s") % {"names": ", ".join(RANKS)}]})
        if set(alt) - ACCOUNT_KEYS:
            keys = ", ".join(sorted(set(alt) - ACCOUNT_KEYS))
            raise ValidationError({where: [_("unknown keys: %(keys)s") % {"keys": keys}]})
        platform = PLATFORMS[alt["platform"]]
        if "min_rank" in alt and alt["min_rank"] not in RANKS[alt["platform"]]:
            raise ValidationError({f"{where}.min_rank": [_("not a rank on %(platform)s") % {"platform": platform}]})
        if "min_room" in alt and alt["min_room"] not in ROOMS[alt["platform"]]:
            raise ValidationError({f"{where}.min_room": [_("not a room on %(platform)s") % {"platform": platform}]})
        for key in ("min_rating", "min_games_in_year"):
            value = alt.get(key, 0)
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise ValidationError({f"{where}.{key}": [_("a whole number, 0 or more")]})


def _ordinal(year: int, number: int) -> int:
    return year * 4 + number - 1


def check_tier_in_force(*, tier, season) -> None:
    if not tier.active:
        raise ValidationError({"tier": [gettext("this tier is no longer offered")]})
    if season.ordinal < _ordinal(tier.effective_year, tier.effective_number):
        raise ValidationError(
            {
                "tier": [
                    gettext("in force only from %(year)s S%(number)s")
                    % {"year": tier.effective_year, "number": tier.effective_number}
                ]
            }
        )


def valid_until(*, tier, season, evidence_year: int) -> int:
    """Ordinal of the last season the qualification covers."""
    if tier.validity == "yearly":
        return _ordinal(evidence_year, 4)
    return season.ordinal


def _meets(alt: dict, ev: dict) -> list[tuple[str, str]]:
    platform, problems = alt["platform"], []
    if "min_rank" in alt:
        order = RANKS[platform]
        if ev.get("rank") not in order or order.index(ev["rank"]) < order.index(alt["min_rank"]):
            problems.append(("rank", f"{PLATFORMS[platform]} needs rank {alt['min_rank']} or above"))
    if "min_rating" in alt and (ev.get("rating") or 0) < alt["min_rating"]:
        problems.append(("rating", f"{PLATFORMS[platform]} needs rating {alt['min_rating']} or above"))
    if "min_games_in_year" in alt and (ev.get("games_in_year") or 0) < alt["min_games_in_year"]:
        problems.append(("games_in_year", f"needs {alt['min_games_in_year']} games in the year"))
    if "min_room" in alt:
        rooms = ROOMS[platform]
        if ev.get("room") not in rooms or rooms.index(ev["room"]) < rooms.index(alt["min_room"]):
            problems.append(("room", f"games must be in the {alt['min_room']} room or above"))
    return problems


# The model's column sizes: longer text is refused (naming the field), never cut or stored raw.
TEXT_LIMITS = {"platform": 16, "account_id": 40, "rank": 20, "room": 20, "note": 2000}
# Real ranges: a Tenhou/Mahjong Soul rating is a few thousand; a year's games a few thousand.
NUMBER_RANGES = {"rating": (0, 10_000), "games_in_year": (0, 100_000), "evidence_year": (2000, 2100)}


def _text_field(key: str, value, limit: int) -> str:
    from kyoku.safe_json import text_problem

    if not isinstance(value, str):
        raise ValidationError({key: [gettext("must be text")]})
    value = value.strip()
    if len(value) > limit:
        raise ValidationError({key: [gettext("at most %(limit)s characters") % {"limit": limit}]})
    problem = text_problem(value)
    if problem:
        raise ValidationError({key: [problem]})
    return value


def clean_evidence(*, tier, evidence: dict, season) -> dict:
    """Evidence fields → model fields, checked against the tier. Errors name the field."""
    allowed = {"platform", "account_id", "rank", "rating", "games_in_year", "room", "evidence_year", "note"}
    unknown = set(evidence) - allowed
    if unknown:
        raise ValidationError({sorted(unknown)[0]: [gettext("unknown evidence field")]})
    ev = {k: v for k, v in evidence.items() if v not in (None, "")}
    for key, limit in TEXT_LIMITS.items():
        if key in ev:
            ev[key] = _text_field(key, ev[key], limit)
    if "account_id" in ev:  # an online account's name: the names' normal form (kyoku.text)
        from kyoku.text import name_clean

        ev["account_id"] = name_clean(ev["account_id"], field="account_id", max_length=TEXT_LIMITS["account_id"])
    for key, (low, high) in NUMBER_RANGES.items():
        if key in ev:
            try:
                ev[key] = int(ev[key])
            except (TypeError, ValueError, OverflowError):
                raise ValidationError({key: [gettext("a whole number")]}) from None
            if not low <= ev[key] <= high:
                raise ValidationError(
                    {key: [gettext("a whole number from %(low)s to %(high)s") % {"low": low, "high": high}]}
                )
    if "platform" in ev and ev["platform"] not in PLATFORMS:
        raise ValidationError(
            {"platform": [gettext("one of %(platforms)s") % {"platforms": ", ".join(sorted(PLATFORMS))}]}
        )
    ev.setdefault("evidence_year", season.year)
    if season.ordinal > valid_until(tier=tier, season=season, evidence_year=ev["evidence_year"]):
        raise ValidationError(
            {
                "evidence_year": [
                    gettext("evidence from %(year)s has expired for %(season)s")
                    % {"year": ev["evidence_year"], "season": season}
                ]
            }
        )
    if ev["evidence_year"] > season.year:
        raise ValidationError({"evidence_year": [gettext("evidence cannot come from a later year")]})
    alternatives = tier.requirements.get("accounts", [])
    if alternatives:
        if ev.get("platform") not in {a["platform"] for a in alternatives}:
            names = " or ".join(PLATFORMS[a["platform"]] for a in alternatives)
            raise ValidationError({"platform": [gettext("this tier needs a %(names)s account") % {"names": names}]})
        if not ev.get("account_id"):
            raise ValidationError({"account_id": [gettext("give the account's ID")]})
        matching = [a for a in alternatives if a["platform"] == ev["platform"]]
        failures = [_meets(a, ev) for a in matching]
        best = min(failures, key=len)
        if best:
            raise ValidationError({field: [msg] for field, msg in best})
    return ev


def check_not_expired(*, application) -> None:
    season = application.season
    if season.status == "closed":
        raise ValidationError({"season": [gettext("the season is closed; the qualification has expired")]})
    if season.ordinal > valid_until(tier=application.tier, season=season, evidence_year=application.evidence_year):
        raise ValidationError({"evidence_year": [gettext("the qualification has expired")]})
