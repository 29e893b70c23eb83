"""The rules page's Beijing factor table in words (issue 11: no code shown raw)."""


def test_every_beijing_factor_has_words_in_each_language():
    """The factor table shows no code: each factor's kind and meaning come from the translated
    words, which must cover every factor the engine knows (a new factor without words fails)."""
    from django.utils import translation

    from scoring.engine.beijing import FACTORS
    from scoring.option_words import BEIJING_FACTOR_KINDS, BEIJING_FACTOR_MEANINGS, beijing_factor_rows

    assert {f["id"] for f in FACTORS} == set(BEIJING_FACTOR_MEANINGS)
    assert {f["kind"] for f in FACTORS} <= set(BEIJING_FACTOR_KINDS)
    with translation.override("zh-hant"):
        rows = beijing_factor_rows()
    english = {str(BEIJING_FACTOR_MEANINGS[f["id"]]) for f in FACTORS}
    assert all(r["meaning"] not in english and r["kind_words"] not in BEIJING_FACTOR_KINDS for r in rows)
    assert next(r for r in rows if r["id"] == "menqing")["meaning"].startswith("門前清")
