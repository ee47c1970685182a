"""castlerules/casebook/found.json is keyed by the sources it was found or re-verified
under (:func:`castlerules.casebook.store.case_hash`): a change of a game's rules must
come with ``castlerules cases search``, which re-verifies every kept game (and searches
again only a case its game no longer shows) and writes the new keys.

A stale key is not a wrong verdict (every case's game is verified at every use), but
the README's ``castlerules cases search`` then re-verifies every case, Z3's bounded
searches included: about 70 s of CPU in the README test instead of about 8 s."""

from __future__ import annotations

import attrs

from castlerules import casebook
from castlerules.casebook import store
from castlerules.casebook.check import Found


def stale_keys(found: dict[str, Found]) -> list[str]:
    return [
        case.key
        for case in casebook.CASES
        if case.key in found and found[case.key].source != store.case_hash(case)
    ]


def test_every_found_game_is_keyed_by_the_sources_at_hand() -> None:
    stale = stale_keys(store.load())
    assert not stale, (
        f"{len(stale)} of the casebook's games are keyed by older sources "
        f"({', '.join(stale[:3])}...): run 'castlerules cases search' and commit found.json"
    )


def test_a_key_of_older_sources_is_seen() -> None:
    found = store.load()
    first, second = casebook.CASES[0].key, casebook.CASES[1].key
    current = {
        key: attrs.evolve(found[key], source=store.case_hash(casebook.case(key)))
        for key in (first, second)
    }
    assert stale_keys(current) == []
    older = {**current, first: attrs.evolve(current[first], source="0" * 16 + "-x")}
    assert stale_keys(older) == [first]
