"""The rules of names and passwords, each refusal naming its rule."""

from __future__ import annotations

import pytest

from app.accounts import AccountError
from app.accounts.names import check_name
from app.accounts.passwords import check_password


@pytest.mark.parametrize("name", ["Al", "a" * 20, "Ada_Lovelace", "x-1", "__", "007"])
def test_names_of_2_to_20_letters_digits_and_dashes_pass_as_typed(name: str) -> None:
    assert check_name(name) == name


@pytest.mark.parametrize("name", ["A", "a" * 21, "Ada Lovelace", "Ada!", "Adé", "", "a.b", "tab\t", None, 12])
def test_other_names_are_refused_naming_the_rule(name: object) -> None:
    with pytest.raises(AccountError, match="2 to 20 letters") as refused:
        check_name(name)
    assert refused.value.field == "name"


@pytest.mark.parametrize("name", ["admin", "ADMIN", "Random", "greedy", "STRONG", "Guest", "system", "Closed"])
def test_reserved_words_and_the_computer_levels_names_are_kept(name: str) -> None:
    with pytest.raises(AccountError, match="kept for the site"):
        check_name(name)


@pytest.mark.parametrize(("password", "rule"), [
    ("short", "at least 8"), ("1234567", "at least 8"), ("x" * 257, "at most 256"),
    ("ada_lovelace", "not the name"), ("ADA_LOVELACE", "not the name"), ("zzzzzzzzzz", "over and over"),
    ("password", "most common"), ("Password1", "most common"), ("12345678", "most common"),
    ("iloveyou", "most common"), ("QWERTYUIOP", "most common"), (None, "at least 8"),
])
def test_weak_passwords_are_refused_naming_the_rule(password: object, rule: str) -> None:
    with pytest.raises(AccountError, match=rule) as refused:
        check_password(password, "Ada_Lovelace")
    assert refused.value.field == "password"


def test_a_password_of_eight_characters_that_nobody_guesses_passes() -> None:
    assert check_password("kq7!vR2m", "Ada") == "kq7!vR2m"
