"""Check another engine against the reference: the conformance kit.

castlerules is the reference engine of Throne and Ascent; this package makes
it the referee of other implementations, in any language.  The contract is
``spec/conform.md``: a JSON-lines protocol over the engine's standard input
and output (``hello``, ``start`` with the rules and a fixed deal, ``legal``,
``play``, ``status``, ``quit``), moves in castlerules' notation.

:func:`check` drives an engine through the casebook's games (every clause),
every game of small scopes, then seeded random and Hypothesis-chosen games,
and compares it with the reference after every move: the legal moves, the
refusal of illegal moves (with the clause the reference cites), the seat to
act, the end, the scores and the winners.  The first disagreement is shrunk
to the shortest game the kit finds that shows it, and reported with the
position before it, what each side said, the clause and a replay command.
A Python engine is checked in-process through :class:`Engine`;
:mod:`castlerules.conform.vectors` writes test vectors for engines' own tests.

>>> from castlerules import throne
>>> from castlerules.conform import ReferenceEngine, check
>>> report = check("throne", ReferenceEngine(), games=1, seconds=2, phases=["casebook"])
>>> report.agree, report.tally.games["casebook"] > 30
(True, True)
>>> built_for_original = ReferenceEngine(built_for=throne.Rules.preset("ORIGINAL"))
>>> found = check("throne", built_for_original, phases=["casebook"]).disagreement
>>> found.clause, found.kind, found.move
('B6', 'legal moves', 'A1')
"""

from castlerules.conform.check import PHASES, Budget, check, parse_replay, readings_of
from castlerules.conform.inprocess import Engine, InProcessChannel, ReferenceEngine
from castlerules.conform.process import ProcessChannel
from castlerules.conform.reference import Reading
from castlerules.conform.report import Progress, ReadingResult, Report
from castlerules.conform.runner import Disagreement
from castlerules.conform.wire import PROTOCOL, EngineFault

__all__ = [
    "PHASES",
    "PROTOCOL",
    "Budget",
    "Disagreement",
    "Engine",
    "EngineFault",
    "InProcessChannel",
    "ProcessChannel",
    "Progress",
    "Reading",
    "ReadingResult",
    "ReferenceEngine",
    "Report",
    "check",
    "parse_replay",
    "readings_of",
]
