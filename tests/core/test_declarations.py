"""Each option is declared once (``Rules.OPTIONS``) and spelt one way in the code."""

from __future__ import annotations

import io
import pathlib
import re
import tokenize

import attrs
import pytest

from castlerules import ascent, throne
from castlerules.ascent import kernel as ascent_kernel
from castlerules.core.clauses import CLAUSES
from castlerules.core.options import Option, declared
from castlerules.register.readings import alternatives_of, excluded_of
from castlerules.throne import kernel as throne_kernel

ROOT = pathlib.Path(__file__).resolve().parents[2]
GAMES = [ascent, throne]

FORMER_SPELLINGS = frozenset(
    {
        # Abbreviations of option names the code once used (issue 48).
        "faa",
        "rilh",
        "aes",
        "fall",
        "pown",
        "lpc",
        "after_arrival",
        "removal_lower",
        "prot",
        # The kernels' former field names and their translation table (issue 47).
        "die_none",
        "from_first",
        "FORMER_NAMES",
    }
)
"""Names no module may use: each was a second spelling of an option."""

FORMER_FIELDS = frozenset(
    {
        "exposing",
        "limit",
        "highest",
        "all_lower",
        "to_owner",
        "continues",
        "die_none",
        "reset",
        "rotates",
        "from_first",
        "equal",
    }
)
"""Former fields of the kernels' ``Options``: nothing may read ``opt.<name>`` any more."""


def _python_files() -> list[pathlib.Path]:
    return [
        *ROOT.glob("castlerules/**/*.py"),
        *ROOT.glob("proofs/**/*.py"),
        *ROOT.glob("tests/**/*.py"),
    ]


def former_spellings(source: str) -> list[str]:
    """The former spellings a Python source uses as names (``line: name``)."""
    found = []
    tokens = list(tokenize.generate_tokens(io.StringIO(source).readline))
    for i, token in enumerate(tokens):
        if token.type != tokenize.NAME:
            continue
        former_field = (
            token.string in FORMER_FIELDS
            and i >= 2
            and tokens[i - 1].string == "."
            and tokens[i - 2].string in ("opt", "options")
        )
        if token.string in FORMER_SPELLINGS or former_field:
            found.append(f"{token.start[0]}: {token.string}")
    return found


def test_no_module_spells_an_option_a_former_way() -> None:
    found = {
        str(path.relative_to(ROOT)): hits
        for path in _python_files()
        if (hits := former_spellings(path.read_text(encoding="utf-8")))
    }
    assert found == {}


@pytest.mark.parametrize("kernel", [ascent_kernel, throne_kernel], ids=["ascent", "throne"])
def test_the_kernels_options_answer_to_no_former_name(kernel: object) -> None:
    options = kernel.Options  # type: ignore[attr-defined]
    assert [f.alias for f in attrs.fields(options)] == [f.name for f in attrs.fields(options)]
    assert [name for name in sorted(FORMER_FIELDS) if hasattr(options, name)] == []
    assert not hasattr(kernel, "FORMER_NAMES")


def test_the_spelling_check_finds_a_planted_former_spelling() -> None:
    planted = "def f(opt):\n    rilh = opt.removal_lower\n    return opt.highest, o.prot\n"
    assert former_spellings(planted) == ["2: rilh", "2: removal_lower", "3: highest", "3: prot"]
    assert former_spellings("limit = 3\nhighest = rules.stack_rank\n") == []


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.NAME)
def test_each_field_is_declared_once_in_field_order(game: object) -> None:
    rules_cls = game.Rules  # type: ignore[attr-defined]
    assert list(declared(rules_cls)) == [f.name for f in attrs.fields(rules_cls)]


def test_a_missing_declaration_is_refused() -> None:
    @attrs.frozen
    class Demo:
        one: int = 1
        two: int = 2
        OPTIONS = (Option("one", ("A1",), "one"),)

    with pytest.raises(ValueError, match="each field once"):
        declared(Demo)


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.NAME)
def test_declarations_cite_known_clauses_and_quote_the_seed(game: object) -> None:
    name = game.NAME  # type: ignore[attr-defined]
    seed = (ROOT / "docs" / "seeds" / f"{name}.fr.txt").read_text(encoding="utf-8")

    def plain(text: str) -> str:
        return re.sub(r"\s+", " ", text.replace("\u2019", "'").replace("É", "E"))

    for option in game.Rules.OPTIONS:  # type: ignore[attr-defined]
        assert option.clauses and all(c in CLAUSES for c in option.clauses), option.name
        assert option.clauses[0][0] == {"ascent": "A", "throne": "B"}[name], option.name
        if option.seed:
            assert plain(option.seed) in plain(seed), option.name
        if option.values is not None:
            assert getattr(game.Rules(), option.name) == option.values[0], option.name  # type: ignore[attr-defined]
        assert not (option.fixed and option.alternatives), option.name


@pytest.mark.parametrize(
    ("game", "kernel"), [(ascent, ascent_kernel), (throne, throne_kernel)], ids=["ascent", "throne"]
)
def test_the_kernel_reads_the_declared_options_by_their_names(game: object, kernel: object) -> None:
    fields = {f.name for f in attrs.fields(kernel.Options)}  # type: ignore[attr-defined]
    read = {o.name for o in game.Rules.OPTIONS if o.kernel is not None}  # type: ignore[attr-defined]
    assert fields == read


def test_the_register_reads_the_declarations() -> None:
    assert alternatives_of(ascent)["upper_half"] == (5,)
    assert alternatives_of(ascent)["path"] == ("staggered",)  # playable since issue 48
    assert "cards" in excluded_of(ascent) and "path" not in excluded_of(ascent)
    assert set(excluded_of(throne)) == {
        "objective_deck",
        "rounds",
        "bonus_rounds",
    }
