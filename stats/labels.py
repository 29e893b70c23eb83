"""Names of the yaku, patterns and factors the statistics count, in the reader's language: riichi
yaku by the keys of ``online.tenhou.details`` (the glossary gives them in zh-Hant and ja), Zung
Jung patterns by the engine's table and the rules pages' names, Beijing factors by their Chinese
names (what the Beijing pages show in every language) and pinyin."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

YAKU_NAMES = {
    "menzen_tsumo": _("Fully concealed self-draw"),
    "riichi": _("Riichi"),
    "ippatsu": _("Ippatsu"),
    "chankan": _("Robbing a kan"),
    "rinshan": _("After a kan"),
    "haitei": _("Last tile self-draw"),
    "houtei": _("Last discard win"),
    "pinfu": _("Pinfu"),
    "tanyao": _("All simples"),
    "iipeikou": _("Pure double sequence"),
    "seat_wind": _("Seat wind"),
    "round_wind": _("Round wind"),
    "haku": _("White dragon"),
    "hatsu": _("Green dragon"),
    "chun": _("Red dragon"),
    "double_riichi": _("Double riichi"),
    "chiitoitsu": _("Seven pairs"),
    "chanta": _("Half outside hand"),
    "ittsu": _("Pure straight"),
    "sanshoku": _("Mixed triple sequence"),
    "sanshoku_doukou": _("Triple triplets"),
    "sankantsu": _("Three kans"),
    "toitoi": _("All triplets"),
    "sanankou": _("Three concealed triplets"),
    "shousangen": _("Little three dragons"),
    "honroutou": _("All terminals and honours"),
    "ryanpeikou": _("Twice pure double sequence"),
    "junchan": _("Fully outside hand"),
    "honitsu": _("Half flush"),
    "chinitsu": _("Full flush"),
    "renhou": _("Blessing of man"),
    "tenhou": _("Blessing of heaven"),
    "chiihou": _("Blessing of earth"),
    "daisangen": _("Big three dragons"),
    "suuankou": _("Four concealed triplets"),
    "tsuuiisou": _("All honours"),
    "ryuuiisou": _("All green"),
    "chinroutou": _("All terminals"),
    "chuuren": _("Nine gates"),
    "kokushi": _("Thirteen orphans"),
    "daisuushii": _("Big four winds"),
    "shousuushii": _("Little four winds"),
    "suukantsu": _("Four kans"),
}


def yaku_label(system: str, key: str) -> str:
    """A counted yaku, pattern or factor by its stored key, in the reader's language."""
    if system == "zung-jung":
        from scoring.engine.zung_jung import CHICKEN, PATTERNS
        from scoring.option_words import ZUNG_JUNG_PATTERN_NAMES

        for p in (CHICKEN, *PATTERNS):
            if str(p["id"]) == key or p["key"] == key:
                return str(ZUNG_JUNG_PATTERN_NAMES.get(str(p["key"]), p["en"]))
        return key
    if system == "beijing":
        from scoring.engine.beijing import FACTORS

        for f in FACTORS:
            if f["id"] == key:
                return f"{f['zh']} ({f['pinyin']})"
        return key
    return str(YAKU_NAMES.get(key, key))
