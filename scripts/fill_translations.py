"""Fill empty msgstr entries of the .po catalogues from locale/glossary.json.

Entries already translated by hand are left alone; fuzzy guesses from makemessages are
replaced by the glossary's text (or cleared) so no wrong translation ships.
"""

import json
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _glossary() -> dict:
    """locale/glossary.json plus every locale/glossary.d/*.json (one file per concern, so
    parallel work adds translations without touching one shared file)."""
    merged = json.loads((ROOT / "locale" / "glossary.json").read_text())
    for extra in sorted((ROOT / "locale" / "glossary.d").glob("*.json")):
        # per language: a file giving only one language keeps the other's translation
        for msgid, langs in json.loads(extra.read_text()).items():
            merged.setdefault(msgid, {}).update(langs)
    return merged


GLOSSARY = _glossary()
# comments, an optional msgctxt (pgettext: the glossary key is "<context>|<msgid>"), msgid, msgstr
ENTRY = re.compile(
    r'((?:#[^\n]*\n)*)((?:msgctxt "(?:[^"\\]|\\.)*"\n)?)msgid ((?:"(?:[^"\\]|\\.)*"\n)+)'
    r'msgstr ((?:"(?:[^"\\]|\\.)*"\n)+)'
)


def _text(block: str) -> str:
    return (
        "".join(re.findall(r'"((?:[^"\\]|\\.)*)"', block)).encode().decode("unicode_escape").encode("latin-1").decode()
    )


def _quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"\n'


def _drop_fuzzy(flags_line: re.Match) -> str:
    """``#, fuzzy, python-format`` → ``#, python-format``; a line left with no flag goes."""
    flags = [f for f in flags_line.group(1).split(", ") if f != "fuzzy"]
    return "#, " + ", ".join(flags) + "\n" if flags else ""


def fill(path: Path, lang: str) -> list[str]:
    missing = []

    def replace(m):
        comments, context_line, msgid_block, msgstr_block = m.groups()
        msgid = _text(msgid_block)
        fuzzy = "#, fuzzy" in comments
        if not msgid or (_text(msgstr_block) and not fuzzy):
            return m.group(0)
        key = f"{_text(context_line)}|{msgid}" if context_line else msgid
        translated = GLOSSARY.get(key, {}).get(lang, "")
        if not translated:
            missing.append(msgid)
        comments = re.sub(r"^#, (.*)\n", _drop_fuzzy, comments, flags=re.M)
        comments = re.sub(r"#\| [^\n]*\n", "", comments)
        return f"{comments}{context_line}msgid {msgid_block}msgstr {_quote(translated)}"

    text = path.read_text()
    path.write_text(ENTRY.sub(replace, text))
    return missing + _fill_plurals(path, lang)


def _fill_plurals(path: Path, lang: str) -> list[str]:
    """ngettext entries (msgid_plural, msgstr[n]): the glossary's text for the singular msgid in
    every form (Chinese and Japanese have one plural form); fuzzy guesses are replaced too."""
    import polib

    catalogue, missing, changed = polib.pofile(str(path)), [], False
    for entry in catalogue:
        if not entry.msgid_plural or (entry.translated() and "fuzzy" not in entry.flags):
            continue
        translated = GLOSSARY.get(entry.msgid, {}).get(lang, "")
        if not translated:
            missing.append(entry.msgid)
        entry.msgstr_plural = {i: translated for i in (entry.msgstr_plural or {0: ""})}
        if "fuzzy" in entry.flags:
            entry.flags.remove("fuzzy")
        entry.previous_msgid = entry.previous_msgid_plural = None
        changed = True
    if changed:
        catalogue.save(str(path))
    return missing


if __name__ == "__main__":
    for po in sorted((ROOT / "locale").glob("*/LC_MESSAGES/*.po")):
        lang = po.parent.parent.name
        missing = fill(po, lang)
        if missing and lang == "zh_Hant":
            print(f"{po.relative_to(ROOT)}: {len(missing)} untranslated: {missing[:20]}")
