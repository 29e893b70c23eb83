"""One validator (issue 37): each engine declares its record once (scoring/engine/<system>/record_keys.py)
and refuses any other key itself; the app's gate is that same check plus storage bounds. The Zung Jung
situation flags, refused as "unknown field" before, pass; every key an engine reads is declared; a
record drawn from the declarations settles in the engine if and only if the app accepts it; the same
record entered through the API, the scorekeeper's form, the command line and an import settles the same."""

import io
import json
from pathlib import Path

import pytest
from django.core.exceptions import ValidationError
from django.core.management import call_command
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring import services
from scoring.engine import SettlementError, settle
from scoring.engine.beijing import record_keys as beijing_keys
from scoring.engine.riichi import record_keys as riichi_keys
from scoring.engine.zung_jung import record_keys as zung_jung_keys
from scoring.record_gate import interface_of, record_gate
from scoring.services.settlement import settle_one

ROOT = Path(__file__).resolve().parents[2]
PRESET = {"riichi": "wrc", "zung-jung": "zung-jung", "beijing": "beijing"}
INTERFACES = {"riichi": riichi_keys.INTERFACE, "zung-jung": zung_jung_keys.INTERFACE, "beijing": beijing_keys.INTERFACE}

# zung-jung.md §9: a self-draw on a kong's replacement tile; the winning tile pairs 5p.
ZJ_HAND_KONG = {"concealed": "123m456m789m5p", "melds": [{"type": "kong", "tiles": "9999s"}], "tile": "5p"}
ZJ_HAND = {"concealed": "123m456m789m234p5p", "tile": "5p"}


@pytest.mark.parametrize(
    "flag, result",
    [
        ("kong_replacement", {"type": "self_draw", "winner": 0, "hand": ZJ_HAND_KONG}),
        ("robbing_kong", {"type": "discard", "winner": 0, "from": 2, "hand": ZJ_HAND}),
        ("final_tile", {"type": "discard", "winner": 0, "from": 2, "hand": ZJ_HAND}),
        ("heaven", {"type": "self_draw", "winner": 0, "hand": ZJ_HAND}),
        ("earth", {"type": "discard", "winner": 1, "from": 0, "hand": ZJ_HAND}),
    ],
)
def test_zung_jung_situation_flags_pass_the_gate_and_count(flag, result):
    """zung-jung.md §9: Final Tile, Winning on a Kong and Robbing a Kong add 10 points; Blessing of
    Heaven and of Earth 155."""
    plain = {"rules": "zung-jung", "dealer": 0, "result": result}
    flagged = {"rules": "zung-jung", "dealer": 0, "result": {**result, flag: True}}
    record_gate(flagged)  # refused as "unknown field" before
    base, with_flag = settle_one(plain), settle_one(flagged)
    assert "error" not in with_flag, with_flag
    assert with_flag == settle(flagged)
    assert with_flag["value"] == base["value"] + (155 if flag in ("heaven", "earth") else 10)


def test_zung_jung_flags_are_stored_by_a_league_game(zj_game, admin):
    hand, _ = services.hand_record_add(
        game=zj_game,
        record={"result": {"type": "discard", "winner": 0, "from": 2, "hand": ZJ_HAND, "robbing_kong": True}},
        actor=admin,
    )
    assert hand.record["result"]["robbing_kong"] is True


@pytest.mark.parametrize("system", sorted(INTERFACES))
def test_every_declared_key_passes_the_gate_of_its_system(system):
    interface = INTERFACES[system]
    assert interface_of(system) is interface
    for level, keys in interface.levels.items():
        for key, declared in keys.items():
            assert declared.doc, (system, level, key)
            value = declared.examples[0] if declared.examples else {}
            if level == "record":
                record = {"rules": PRESET[system], key: value}
            elif level == "result":
                record = {"rules": PRESET[system], "result": {key: value}}
            else:
                record = {"rules": PRESET[system], "result": {"winners": [{key: value}]}}
            try:
                record_gate(record)
            except ValidationError as exc:
                assert all(e.code != "unknown_field" for errs in exc.error_dict.values() for e in errs), (system, key)


@pytest.mark.parametrize("system", sorted(INTERFACES))
@pytest.mark.parametrize("where", ["record", "result", "winner"])
def test_an_undeclared_key_is_the_engines_coded_refusal_and_the_gates(system, where):
    record = {"rules": PRESET[system], "dealer": 0, "result": {"type": "draw", "winners": [{"seat": 1}]}}
    field = {"record": "colour", "result": "result.colour", "winner": "result.winners[0].colour"}[where]
    target = {"record": record, "result": record["result"], "winner": record["result"]["winners"][0]}[where]
    target["colour"] = "red"
    if where == "winner" and "winner" not in INTERFACES[system].levels:
        return  # Zung Jung has one winner, in result
    with pytest.raises(SettlementError) as engine:
        settle(record)
    assert (engine.value.field, engine.value.code, engine.value.params) == (field, "unknown_field", {"key": "colour"})
    with pytest.raises(ValidationError) as app:
        record_gate(record)
    assert app.value.error_dict[field][0].code == "unknown_field"


class Reads(dict):
    """A dict that notes every key read from it (get, [], in), and wraps what it hands out."""

    def __init__(self, data, log, path):
        super().__init__({k: wrap(v, log, f"{path}.{k}" if path else k) for k, v in data.items()})
        self.log, self.path = log, path

    def _note(self, key):
        self.log.add((self.path, key))

    def get(self, key, default=None):
        self._note(key)
        return super().get(key, default)

    def __getitem__(self, key):
        self._note(key)
        return super().__getitem__(key)

    def __contains__(self, key):
        self._note(key)
        return super().__contains__(key)


def wrap(value, log, path):
    if isinstance(value, dict):
        return Reads(value, log, path)
    if isinstance(value, list):
        return [wrap(v, log, f"{path}[]") for v in value]
    return value


def _records(system):
    """Records that take the engine down its paths: the docs' examples and one per declared value."""
    interface, out = INTERFACES[system], []
    types = interface.levels["result"]["type"].examples
    for level, keys in interface.levels.items():
        for key, declared in keys.items():
            for value in declared.examples:
                for rtype in types:
                    result = {"type": rtype, "winner": 0, "from": 2, "seat": 1}
                    if level == "record":
                        out.append({"dealer": 0, key: value, "result": result})
                    elif level == "result":
                        out.append({"dealer": 0, "result": {**result, key: value}})
                    else:
                        out.append({"dealer": 0, "result": {**result, "winners": [{"seat": 1, key: value}]}})
    return out


@pytest.mark.parametrize("system", sorted(INTERFACES))
def test_every_key_the_engine_reads_is_declared(system):
    from scoring.engine import resolve_rules

    _, options = resolve_rules(PRESET[system])
    module = __import__(f"scoring.engine.{system.replace('-', '_')}.settle", fromlist=["settle"])
    levels = {"": "record", "result": "result", "result.winners[]": "winner", "result.winner": "winner"}
    read = set()
    for record in _records(system):
        log = set()
        try:
            module.settle(wrap(record, log, ""), options)
        except SettlementError:
            pass
        read |= log
    undeclared = {
        (path, key)
        for path, key in read
        if path in levels
        and levels[path] in INTERFACES[system].levels
        and key not in INTERFACES[system].keys(levels[path])
    }
    assert not undeclared
    assert any(path == "result" for path, _ in read)


def test_docs_list_every_key_of_every_engine():
    text = (ROOT / "docs/engine-interfaces.md").read_text(encoding="utf-8")
    for system, interface in INTERFACES.items():
        section = text.split(f"### {system} record keys", 1)[1].split("\n### ", 1)[0]
        for level, keys in interface.levels.items():
            for key in keys:
                assert f"| `{key}` | {level} |" in section, (system, level, key)


# ------------------------------------------------------------------ property: engine iff app


def _record_strategy(system):
    interface = INTERFACES[system]

    def pick(level, exclude=()):
        keys = {k: v for k, v in interface.levels[level].items() if v.examples and k not in exclude}
        return st.dictionaries(st.sampled_from(sorted(keys)), st.none(), max_size=4).flatmap(
            lambda chosen: st.fixed_dictionaries({k: st.sampled_from(keys[k].examples) for k in chosen})
        )

    result = st.builds(
        lambda base, rtype, stray: {**base, "type": rtype, **stray},
        pick("result", exclude=("type",)),
        st.sampled_from(interface.levels["result"]["type"].examples),
        st.sampled_from([{}, {}, {}, {"colour": "red"}]),
    )
    return st.builds(
        lambda top, res: {**top, "rules": PRESET[system], "result": res},
        pick("record", exclude=("rules", "result", "game_end")),
        result,
    )


@pytest.mark.parametrize("system", sorted(INTERFACES))
def test_engine_settles_iff_the_app_accepts(system):
    @settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck), database=None)
    @given(_record_strategy(system))
    def check(record):
        try:
            engine = settle(json.loads(json.dumps(record)))
        except SettlementError as exc:
            engine = {"error": str(exc)}
        app = settle_one(json.loads(json.dumps(record)))
        assert ("error" in engine) == ("error" in app), (record, engine, app)
        if "error" not in engine:
            assert app == engine

    check()


# ------------------------------------------------------------------ one record, four ways in

CHANNEL_RECORDS = {
    "riichi": {
        "result": {"type": "ron", "from": 3, "winners": [{"seat": 1, "han": 3, "fu": 40}, {"seat": 2, "yakuman": 1}]},
        "riichi": [2],
    },
    "zung-jung": {"result": {"type": "discard", "winner": 0, "from": 2, "hand": ZJ_HAND, "robbing_kong": True}},
    "beijing": {"result": {"type": "tsumo", "winner": 0, "factors": ["menqing", "long"]}},
}
STATE = {
    "riichi": {"dealer": 0, "honba": 0, "deposits": 0},
    "zung-jung": {},
    "beijing": {"dealer": 0, "dealer_streak": 1, "after_draw": False},
}


@pytest.mark.parametrize("system", sorted(CHANNEL_RECORDS))
def test_one_record_settles_the_same_through_api_form_command_and_import(system, request, api, client, admin, tmp_path):
    from tests.scoring_app.conftest import make_game, make_season

    preset = {"riichi": "mahjongsoul", "zung-jung": "zung-jung", "beijing": "beijing"}[system]
    game = make_game(
        make_season(request.getfixturevalue("league"), request.getfixturevalue("players"), preset=preset, number=4),
        request.getfixturevalue("players"),
    )
    record = CHANNEL_RECORDS[system]
    stateless = {"rules": preset, **STATE[system], **record}

    by_api = api.post("/api/settle", stateless, format="json").json()
    path = tmp_path / "record.json"
    path.write_text(json.dumps(stateless))
    out = io.StringIO()
    call_command("settle", str(path), stdout=out)
    by_command = json.loads(out.getvalue())
    client.force_login(admin)
    response = client.post(f"/scoring/games/{game.pk}/scorekeeper/", {"record": json.dumps(record), "sequence": 1})
    assert response.status_code in (200, 302)
    by_form = game.hands.get(sequence=1).settlement
    assert by_api["deltas"] == by_command["deltas"] == by_form["deltas"]
    assert by_api == by_command
    if system == "riichi":
        # an import stores what the season's engine settles from the record the import reads
        from online.tenhou.check import game_check
        from online.tenhou.parse import parse_record

        doc = json.loads((ROOT / "tests/online/fixtures/mahjongsoul_silver_220419.json").read_text())
        check = game_check(parse_record(json.dumps(doc)), rules={"preset": preset})
        double_ron = check["hands"][1]
        assert settle_one({"rules": preset, **double_ron["record"]})["deltas"] == double_ron["engine"]
