"""The key table, the bindings, themes and the user config, without running the app."""

from __future__ import annotations

import pytest
from textual.binding import Binding

from memreview.app.app import MemReviewApp
from memreview.app.config import load_user_config
from memreview.app.keys import queue_acts, queue_names
from memreview.app.screens.apply import ApplyScreen
from memreview.app.screens.dialogs import ConfirmDialog, DiffDialog
from memreview.app.screens.help import HelpScreen
from memreview.app.screens.merge import MergeEditor
from memreview.app.screens.review import ReviewScreen
from memreview.app.themes import load_themes, theme_from_mapping
from memreview.app.widgets.item_list import ItemList
from memreview.decisions import registry
from memreview.decisions.unit import MEMBER, MERGE


def test_every_act_is_on_a_known_key_and_every_queue_can_defer():
    known = {v.name for v in registry.verbs()} | {MEMBER, MERGE}
    for queue in queue_names():
        acts = queue_acts(queue)
        assert set(acts) <= known, queue
        assert acts["defer"].action == "defer", queue
        assert len(acts) == len(registry.unit(queue).acts), f"{queue}: a verb used twice"


def test_each_verb_has_its_own_key():
    keys = [v.key for v in registry.verbs()]
    assert len(keys) == len(set(keys))
    assert {"a", "b", "k", "r", "d", "s", "x", "D", "p", "c", "v", "t"} == set(keys)


@pytest.mark.parametrize(
    "owner",
    [
        MemReviewApp,
        ReviewScreen,
        ItemList,
        ApplyScreen,
        ConfirmDialog,
        DiffDialog,
        HelpScreen,
        MergeEditor,
    ],
)
def test_every_binding_has_an_id_a_tooltip_and_a_description(owner):
    for b in owner.BINDINGS:
        assert isinstance(b, Binding)
        assert b.id and b.tooltip and b.description, b


def test_binding_ids_are_unique_across_the_review_screen():
    ids = [b.id for owner in (MemReviewApp, ReviewScreen, ItemList) for b in owner.BINDINGS]
    assert len(ids) == len(set(ids))


def test_the_shipped_themes_load_with_the_action_colours(tmp_path):
    themes = load_themes()
    assert themes.problems == []
    names = {t.name for t in themes.themes}
    assert {"memreview-dark", "memreview-light"} <= names
    for t in themes.themes:
        assert {"action-approve", "action-reject", "action-defer"} <= set(t.variables)
    assert themes.resolve("light") == "memreview-light"


def test_a_theme_with_a_bad_colour_or_unknown_field_is_refused():
    with pytest.raises(ValueError, match="unknown field"):
        theme_from_mapping({"primary": "#fff", "colour": "red"}, "x")
    with pytest.raises(ValueError, match="bad colour"):
        theme_from_mapping({"primary": "not-a-colour"}, "x")
    with pytest.raises(ValueError, match="bad colour"):
        theme_from_mapping({"primary": "#fff", "variables": {"action-approve": "nope"}}, "x")
    with pytest.raises(ValueError, match="primary"):
        theme_from_mapping({"dark": True}, "x")


def test_a_missing_themes_directory_falls_back_to_the_built_in_themes(tmp_path):
    themes = load_themes(tmp_path / "nowhere")
    assert {t.name for t in themes.themes} == {"memreview-dark", "memreview-light"}


def test_user_config_reads_theme_keymap_editor_and_reports_a_broken_file(tmp_path):
    path = tmp_path / "config.yaml"
    path.write_text("theme: memreview-light  # mine\neditor: nvim\nkeymap:\n  decide.approve: y\n")
    cfg = load_user_config(path)
    assert (cfg.theme, cfg.editor, cfg.keymap) == (
        "memreview-light",
        "nvim",
        {"decide.approve": "y"},
    )
    assert cfg.save_theme("memreview-dark") is None
    text = path.read_text()
    assert "theme: memreview-dark" in text and "editor: nvim" in text
    path.write_text("keymap: [\n")
    broken = load_user_config(path)
    assert broken.problem and "broken YAML" in broken.problem
    assert load_user_config(tmp_path / "absent.yaml").problem is None
