"""The riichi rules form shows words, never a JSON literal: an unset option is an empty box."""

from kyoku.parsers import SafeJSONFormField
from scoring.forms import RiichiRulesForm


def test_an_unset_json_option_is_an_empty_box_not_null():
    form = RiichiRulesForm(preset="wrc", current={})
    assert form["uma_by_floaters"].value() == ""
    html = str(form["uma_by_floaters"])
    assert html.split(">", 1)[1].split("</textarea>")[0].strip() == ""  # no "null" in the box


def test_an_empty_box_stays_unset_and_a_value_is_kept():
    field = SafeJSONFormField(required=False)
    assert field.clean("") is None
    assert field.prepare_value([[15, 5, -5, -15]]) == "[[15, 5, -5, -15]]"
