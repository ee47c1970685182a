"""The rules of each game in English on one page, and the French/English glossary.

The rules page is the clause registry read in order (each clause's English,
from :data:`castlerules.core.CLAUSES`), with the reference reading's
decisions (the game's ``NOTES``) where the seed is silent: no second,
hand-written copy of the rules to drift from the engine.

The glossary pairs each term of the French seeds with the English word the
engine and these pages use.  Every French term must occur in the seed text
of the clause it cites, and every English term in that clause's English or
summary (or be the name used in the code): a build whose glossary no longer
matches the seeds fails.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from castlerules.core import CLAUSES
from castlerules_sphinx import audience, rst
from castlerules_sphinx.site import GAMES, SiteError

TITLES = {"throne": "Throne", "ascent": "Ascent"}


@dataclass(frozen=True)
class Term:
    """One term: the seed's French word, the English one, the clause, the name in code."""

    game: str
    french: str
    english: str
    clause: str
    code: str = ""


GLOSSARY: tuple[Term, ...] = (
    Term("throne", "château", "castle", "B1"),
    Term("throne", "étage", "floor", "B1", "throne.floor_of"),
    Term("throne", "trône", "throne", "B1", "floor 7"),
    Term("throne", "servants", "servants", "B2", "FLOOR_NAMES[1]"),
    Term("throne", "artisans", "craftsmen", "B2", "FLOOR_NAMES[2]"),
    Term("throne", "marchands", "merchants", "B2", "FLOOR_NAMES[3]"),
    Term("throne", "officiers", "officers", "B2", "FLOOR_NAMES[4]"),
    Term("throne", "dignitaires", "dignitaries", "B2", "FLOOR_NAMES[5]"),
    Term("throne", "nobles", "nobles", "B2", "FLOOR_NAMES[6]"),
    Term("throne", "manche", "round", "B3", "throne.round_of"),
    Term("throne", "objectif (secret)", "secret objective", "B4", "throne.objective"),
    Term("throne", "personnage", "character", "B4", "A..M"),
    Term("throne", "favoris", "favourites", "B4"),
    Term("throne", "poulains", "favourites", "B5"),
    Term("throne", "placent", "place (placement phase)", "B6", "throne.Place"),
    Term("throne", "prétendants", "characters (on a floor)", "B7"),
    Term("throne", "monter", "climb (movement phase)", "B8", "throne.Climb"),
    Term("throne", "descendre", "move down", "B9"),
    Term("throne", "élection du roi", "election", "B10"),
    Term("throne", "candidat", "candidate", "B11", "throne.candidate"),
    Term("throne", "carte vote", "vote card (Yes/No)", "B11", "throne.Vote"),
    Term("throne", "roi", "king", "B12", "throne.king"),
    Term("throne", "éliminé", "eliminated", "B13", "throne.is_eliminated"),
    Term("throne", "décompte", "scoring", "B14", "throne.round_scores"),
    Term("throne", "vainqueur", "winner", "B16", "throne.winners"),
    Term("ascent", "cartes personnage", "character cards", "A1", "ascent.Card"),
    Term("ascent", "cases Départ", "Start squares", "A1"),
    Term("ascent", "cases arrivée", "arrival squares", "A1", "ascent.arrival"),
    Term("ascent", "colonne", "column", "A2"),
    Term("ascent", "pile", "stack", "A3", "ascent.stack_at"),
    Term("ascent", "saute", "jump", "A3"),
    Term("ascent", "case", "square", "A5"),
    Term("ascent", "protection", "protection", "A7"),
    Term("ascent", "rang", "rank", "A7", "ascent.Rank"),
    Term("ascent", "retournées", "flipped", "A8", "ascent.is_flipped"),
    Term("ascent", "faveur", "favour", "A10", "ascent.Favour"),
    Term("ascent", "rejouer", "play again", "A12"),
    Term("ascent", "moitié supérieure", "upper half", "A13"),
    Term("ascent", "retirée du plateau", "removed", "A13", "ascent.removed"),
    Term("ascent", "points de victoire", "points", "A15", "ascent.scores"),
    Term("ascent", "pénalités", "penalties", "A16"),
    Term("ascent", "dé", "die", "A18"),
    Term("ascent", "Prince", "Prince (rank 6)", "A18", "Rank.PRINCE"),
    Term("ascent", "Evêque", "Bishop (rank 5)", "A18", "Rank.BISHOP"),
    Term("ascent", "Dame", "Lady (rank 4)", "A18", "Rank.LADY"),
    Term("ascent", "Charlatan", "Charlatan (rank 3)", "A18", "Rank.CHARLATAN"),
    Term("ascent", "Troubadour", "Troubadour (rank 2)", "A18", "Rank.TROUBADOUR"),
    Term("ascent", "Cracheur de feu", "Fire-eater (rank 1)", "A18", "Rank.FIRE_EATER"),
)
"""The terms of the seeds, French then English, with the clause that uses them."""


def check_glossary(terms: tuple[Term, ...] = GLOSSARY) -> None:
    """Every French term occurs in its clause's French text; else :class:`SiteError`."""
    for term in terms:
        clause = CLAUSES.get(term.clause)
        if clause is None or clause.game != term.game:
            raise SiteError(
                f"glossary: {term.french!r} cites {term.clause}, not a {term.game} clause"
            )
        if term.french.lower() not in clause.french.lower():
            raise SiteError(
                f"glossary: the French term {term.french!r} is not in the text of {term.clause}"
            )


def glossary_page() -> str:
    check_glossary()
    out = [".. This file is generated at build time (castlerules_sphinx.rules); do not edit.\n\n"]
    for game in GAMES:
        out.append(rst.title(TITLES[game], "-"))
        out.append("\n")
        rows = []
        for term in sorted((t for t in GLOSSARY if t.game == game), key=_order):
            rows.append(
                [
                    f"*{rst.escape(term.french)}*",
                    rst.escape(term.english),
                    f":clause:`{term.clause}`",
                    _code(term.code),
                ]
            )
        header = ["French (seed)", "English", "Clause", "In the code"]
        out.append(rst.list_table(header, rows, [28, 30, 12, 30]))
    return "".join(out)


def _code(code: str) -> str:
    """The name in the code, linked to the API reference when it is a public name."""
    from castlerules_sphinx.api import owners

    if not code:
        return "\\-"
    module, _, name = code.partition(".")
    if module in ("throne", "ascent") and name in owners()[f"castlerules.{module}"]:
        return f":py:obj:`{code} <castlerules.{code}>`"
    return rst.literal(code)


def _order(term: Term) -> tuple[int, int]:
    return (int(term.clause[1:]), GLOSSARY.index(term))


def rules_page(game: str, module: Any) -> str:
    """One game's rules in English, clause by clause, with the reference decisions.

    The player's reading comes first, whole; the sentences of the notes that
    speak of the library (:mod:`castlerules_sphinx.audience`) follow in a
    section of their own, "For programmers", clause by clause.
    """
    out = [".. This file is generated at build time from castlerules; do not edit.\n\n"]
    notes: dict[str, list[Any]] = {}
    for note in module.NOTES:
        notes.setdefault(note.clause, []).append(note)
    api: list[str] = []
    for clause in (c for c in CLAUSES.values() if c.game == game):
        out.append(f":clause:`{clause.id}` **{rst.escape(clause.summary)}**\n")
        out.append(f"   {rst.escape(clause.english)}\n")
        for note in notes.get(clause.id, ()):
            option = (
                f" (option :ref:`{note.option} <{option_anchor(game, note.option)}>`)"
                if note.option
                else ""
            )
            part = audience.split(note, module)
            topic = rst.escape(note.topic[:1].upper() + note.topic[1:])
            if part.player:
                out.append(f"\n   *{topic}*: {rst.escape(part.player)}{option}\n")
            if part.programmer:
                api.append(
                    f"- :clause:`{clause.id}`, *{topic}*: {rst.escape(part.programmer)}"
                    f"{option if not part.player else ''}\n"
                )
        out.append("\n")
    if api:
        out.append(rst.labels(f"{game}-rules-programmers"))
        out.append(rst.title("For programmers", "-"))
        out.append(
            f"\nWhat the library does where the rules above leave it open: the same notes "
            f"(``{game}.NOTES``), the sentences about its functions and errors.\n\n"
        )
        out.extend(api)
        out.append("\n")
    return "".join(out)


def option_anchor(game: str, option: str) -> str:
    from castlerules_sphinx.pages import option_anchor as anchor

    return anchor(game, option)


def write(generated: Path) -> None:
    from castlerules_sphinx.pages import write_if_changed

    for game, module in GAMES.items():
        write_if_changed(generated / f"{game}-rules.rst", rules_page(game, module))
    write_if_changed(generated / "glossary.rst", glossary_page())
