"""R20: the deck order and the seed stay secret while the match runs."""

from __future__ import annotations

import hashlib
import json

import pytest

from app.rules import BadPosition, commitment, conclude, from_text, new_match, public_view, to_text
from app.rules.mages import MAGES
from tests.rules.helpers import BACKROW, play, position, remove

SECRET = "9f2c4e1a7b3d5f60182a3c4e5f607182"


def started(seed=SECRET, **options):
    s = new_match(seed=seed, **options)
    s = play(s, {"type": "setup", "backrow": BACKROW})
    return play(s, {"type": "setup", "backrow": BACKROW})


def with_deck(s, deck, seed):
    t = s.copy()
    t.deck, t.seed = deck, seed
    return t


def without_commitment(view):
    return {k: v for k, v in view.items() if k != "seed_commitment"}


@pytest.mark.parametrize("variant", ["standard", "rotating", "archmage", "ultimate_archmage"])
def test_r20_public_view_holds_neither_seed_nor_deck_order_while_running(variant):
    s = started(variant=variant)
    view = public_view(s)
    text = json.dumps(view)
    assert SECRET not in text and view["seed"] is None
    assert view["seed_commitment"] == hashlib.sha256(SECRET.encode()).hexdigest()
    # The view is the same whatever the deck's order and whatever the seed.
    other = with_deck(s, tuple(reversed(s.deck)), "another seed entirely")
    assert without_commitment(public_view(other)) == without_commitment(view)
    assert view["chaos"]["deck_count"] == len(s.deck)


def test_r20_no_list_in_the_view_follows_the_deck_order():
    s = started()
    order = [MAGES[m] for m in s.deck]

    def lists(value):
        if isinstance(value, list):
            yield value
            for item in value:
                yield from lists(item)
        elif isinstance(value, dict):
            for item in value.values():
                yield from lists(item)

    for found in lists(public_view(s)):
        assert found != order


def test_r20_seed_is_revealed_once_the_match_is_over():
    s = started()
    over = conclude(s, "white", "resigned")
    view = public_view(over)
    assert view["seed"] == SECRET and view["seed_commitment"] == commitment(SECRET)
    assert view["result"] == {"winner": "white", "reason": "resigned"}
    assert view["to_move"] is None


def test_r20_seed_is_revealed_when_the_match_ends_by_play():
    s = position({"d4": "C", "d7": "e"}, tower={"artificer": "U", "animist": "u"}, seed=SECRET)
    assert public_view(s)["seed"] is None
    s = play(s, remove("artificer", {"move": ["d4", "d7"]}))
    assert public_view(s)["seed"] == SECRET


def test_r20_custom_match_seed_is_public_from_the_start():
    s = new_match(seed=SECRET, custom=True)
    assert public_view(s)["seed"] == SECRET and public_view(s)["custom"] is True
    s = new_match(seed=SECRET, chaos=["seer"])
    assert s.custom and public_view(s)["seed"] == SECRET
    assert new_match(seed=SECRET).custom is False


def test_r20_hidden_text_form_hides_deck_and_seed_while_running():
    s = started()
    hidden = to_text(s, hide_secrets=True)
    assert SECRET not in hidden
    fields = hidden.split()
    assert fields[13] == "?" and fields[14] == "?"
    with pytest.raises(BadPosition):
        from_text(hidden)
    assert SECRET in to_text(s)  # the full form, for storage only
    over = conclude(s, None, "agreement")
    assert SECRET in to_text(over, hide_secrets=True)
    custom = new_match(seed=SECRET, custom=True)
    assert SECRET in to_text(custom, hide_secrets=True)


def test_r20_state_json_keeps_the_secrets_for_storage():
    s = started()
    data = s.to_json()
    assert data["seed"] == SECRET and data["deck"] == list(s.deck)


# ---- the position text of the public state (issue 21) -----------------------

def _deck_and_seed(text):
    fields = text.split(" ")
    return fields[13], fields[14]


@pytest.mark.parametrize("variant", ["standard", "rotating", "archmage", "ultimate_archmage"])
def test_r20_the_public_position_masks_deck_and_seed_while_running(variant):
    s = started(variant=variant)
    text = public_view(s)["position"]
    assert _deck_and_seed(text) == ("?", "?") and SECRET not in text
    whole = to_text(s).split(" ")
    shown = text.split(" ")
    assert shown[:13] + shown[15:] == whole[:13] + whole[15:]  # the rest is the position itself
    # It is the same text whatever the deck order and the seed.
    assert public_view(with_deck(s, tuple(reversed(s.deck)), "another seed entirely"))["position"] == text


def test_r20_a_custom_match_position_shows_its_seed_never_its_deck():
    s = new_match(seed="open seed?", custom=True)
    deck, seed = _deck_and_seed(public_view(s)["position"])
    assert deck == "?" and seed == "open%20seed%3F"
    assert to_text(s, hide_secrets=True) != public_view(s)["position"]  # the hidden form shows the deck here


def test_r20_once_over_the_public_position_is_the_whole_position():
    over = conclude(started(), "white", "resigned")
    text = public_view(over)["position"]
    assert text == to_text(over) and from_text(text) == over
