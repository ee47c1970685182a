"""``castlerules explain GAME POSITION MOVE``: is this move legal here, and why?

Illegal: the rule that forbids it, in plain words, with its clause ID and
the seed's French text of that clause.  Legal: what the move did (each event
with the clause it exercised), who plays next, and the resulting position.

``--compare`` replays the whole dispute (the position, each ``--after``
move, then the move) under every other reading: every preset, and every
option with each alternative value worth trying (see
:mod:`castlerules.register.readings`), and prints the readings that disagree
with the one chosen, each with its answer and why (a reading under which the
position cannot exist, the game is already over, or an ``--after`` move is
illegal disagrees, and says so), those that agree, and those that cannot
apply here, with the reason (``--verbose`` also lists the options that are
not varied, and why).  The comparison is
:func:`castlerules.register.dispute.compare`, the same for ``--json`` and the
dispute desk.  ``--svg FILE`` draws the position before and after the move;
``--json`` prints the same answer as JSON.

POSITION is a position in the game's notation (as ``to_text`` writes it and
``castlerules demo`` or ``replay --annotate`` print it), ``@FILE`` to read it
from a file, ``-`` to read it from standard input, or ``new:PLAYERS[:SEED]``
for the starting position of a new game.  A Throne position may leave
objectives unknown (``?``, see :mod:`castlerules.cli.unknown`): the answer
says when it depends on one.  ``--after MOVES`` plays moves from POSITION
first and asks about MOVE in the position they lead to (a referee's "seat 0
has just moved L0").

Exit status: 0 legal, 1 illegal, 2 bad input (unknown game or option,
malformed position or move).
"""

from __future__ import annotations

import argparse
import json
import sys
import textwrap
from typing import Any

import attrs

from castlerules import options_text, records
from castlerules.cli import common, drawing, positions
from castlerules.cli import unknown as unknowns
from castlerules.core import ArgumentError, IllegalMove, NotationError, RulesError
from castlerules.register import dispute


def add_parser(sub: Any, name: str) -> None:
    """Register the ``explain`` sub-command."""
    parser = sub.add_parser(
        name,
        help="is this move legal here, and why; what it does; --compare across readings",
        description=textwrap.fill(
            "Say whether MOVE is legal in POSITION: if not, the rule that forbids it "
            "(clause ID and the seed's text); if so, what happened and the resulting position. "
            "POSITION is a position text, @FILE, '-' (standard input) or new:PLAYERS[:SEED] "
            "(SEED in 0..2^64-1); a file or standard input is read up to 16 MiB. A Throne "
            "position may write '?' for an objective that is not known (or '?' for them all): "
            "the answer says what, if anything, depends on it. --after MOVES plays moves "
            "first. Exit status: 0 legal, 1 illegal, 2 bad input.",
            78,
        ),
        epilog="examples:\n"
        "  castlerules explain throne new:4 C6\n"
        "  castlerules explain throne new:4 C1 --compare\n"
        "  castlerules explain ascent @position.txt xT2 --rules HARSH --json\n"
        '  castlerules explain throne "$(cat pos.txt)" yes -o no_cards_reset_each_round=false\n'
        "  castlerules explain ascent new:2 xB0 --after 'B0 P1'\n"
        '  castlerules explain throne "throne SEED 4 1 movement 1 H/BFI/CDJ/EL/AGKM/-/- - '
        '3/3/3/3 - 0 ? - -" E+',
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("game", metavar="GAME", help="throne or ascent")
    parser.add_argument("position", metavar="POSITION", help="the position (see above)")
    parser.add_argument("move", metavar="MOVE", help="the move in the game's notation")
    parser.add_argument(
        "--after",
        metavar="MOVES",
        action="append",
        default=[],
        help="moves played first from POSITION, in order, separated by spaces (repeatable): "
        "ask about MOVE in the position they lead to, e.g. --after L0 for 'seat 0 has just "
        "moved L0'",
    )
    common.add_rules_arguments(parser)
    parser.add_argument(
        "--seat",
        type=int,
        help="the seat that plays the move (default: the seat to act); another seat is "
        "refused with the turn-order clause",
    )
    parser.add_argument(
        "--compare",
        action="store_true",
        help="replay the dispute under every preset and every option that could matter; "
        "print the readings that disagree (and why), agree, or cannot apply",
    )
    parser.add_argument(
        "--verbose",
        "-v",
        action="store_true",
        help="with --compare: also list the options that are not varied, and why",
    )
    parser.add_argument(
        "--svg",
        metavar="FILE",
        help="draw the position before and after (a file that exists is refused unless --force)",
    )
    common.add_force_argument(parser)
    parser.add_argument("--json", action="store_true", help="print the answer as JSON")
    parser.set_defaults(run=run)


Outcome = dispute.Answer
"""The answer under one reading (:class:`castlerules.register.dispute.Answer`)."""

judge = dispute.judge
"""The answer for a move in a position (:func:`castlerules.register.dispute.judge`)."""


def run(args: argparse.Namespace) -> int:
    """Answer the question; exit 0 if legal, 1 if illegal."""
    module = common.game_module(args.game)
    options = common.parse_options(module, args.option)
    drawing_target = None
    if args.svg is not None:
        drawing_target = common.check_output_file(
            args.svg,
            "drawing",
            force=args.force,
            inputs=common.input_files(args.position, args.move),
        )
    text = common.read_text_argument(args.position, "position")
    preset: str | None = None
    if text.startswith(positions.NEW_PREFIX) or args.rules is not None:
        # The rules are the preset (default: the reference reading) with the options.
        preset = common.preset_of(module, args.rules)
        rules = records.build_rules(module, preset, options)
        start = positions.start(module, text, rules, preset)
    else:
        # The position's own rules, with the options changed.
        start = positions.start(module, text, None, None)
        rules = common.with_options(module, start.state.rules, options)
        start = attrs.evolve(start, state=positions.reinterpret(module, start.state, rules))
    state, unknown = start.state, start.unknown
    rules = state.rules
    if unknown and drawing_target is not None:
        raise ArgumentError(
            "--svg draws every seat's objective, and this position does not give them all: "
            "give the objectives, or leave out --svg"
        )
    played = [m for chunk in args.after for m in chunk.replace(",", " ").split()]
    state = _play_first(module, state, played, unknown)
    move_text = common.read_text_argument(args.move, "move")
    if args.seat is not None:
        players = positions.players(state)
        if not 0 <= args.seat < players:
            raise ArgumentError(f"--seat must be a seat in 0..{players - 1}, not {args.seat}")
    try:
        outcome = judge(module, state, move_text, args.seat)
    except NotationError as err:
        raise NotationError(f"cannot read the move {move_text!r}: {err}") from None
    found = None
    if outcome.legal:
        found = unknowns.depends(module, state, outcome.move, outcome.after, args.seat, unknown)
        if found is not None:
            events = unknowns.events(found, state, outcome.after, outcome.events)
            outcome = attrs.evolve(outcome, events=tuple(events))

    comparison = None
    if args.compare and found is not None:
        raise ArgumentError(
            f"--compare: this move scores round {found.number}, and the scores depend on "
            f"{found.who()} (not given): give the objectives to compare readings"
        )
    if args.compare:
        comparison = dispute.compare(
            module, start, move=move_text, moves=played, rules=rules, preset=preset, seat=args.seat
        )

    written = None
    if drawing_target is not None:
        written = common.write_file(drawing_target, _drawing(module, move_text, outcome))

    label = common.rules_label(module, rules, preset)
    view = View(module, label, start.state, tuple(played), state, unknown, found)
    if args.json:
        data = _data(view, move_text, seat=args.seat, outcome=outcome)
        if comparison is not None:
            data["compare"] = comparison.data()
        sys.stdout.write(json.dumps(data, indent=2, ensure_ascii=False) + "\n")
    else:
        _print(view, move_text, seat=args.seat, outcome=outcome)
        if comparison is not None:
            sys.stdout.write("\n" + "\n".join(comparison.lines(verbose=args.verbose)) + "\n")
        if written is not None:
            sys.stdout.write(f"drawing written to {common.shown(written.path)}\n")
    if written is not None and written.kept is not None:
        return common.EXIT_BAD_INPUT
    return common.EXIT_OK if outcome.legal else common.EXIT_ILLEGAL


@attrs.frozen(slots=True)
class View:
    """What the answer is about: the position given, the moves played first, the
    position MOVE is judged in, the objectives not given and what depends on them."""

    module: Any
    label: str
    start: Any
    played: tuple[str, ...]
    state: Any
    unknown: positions.Unknown
    depends: unknowns.Depends | None

    def text(self, state: Any) -> str:
        return positions.text_of(self.module, state, self.unknown)


def _play_first(module: Any, state: Any, played: list[str], unknown: positions.Unknown) -> Any:
    """The position after the ``--after`` moves, each read and judged in turn."""
    for number, text in enumerate(played, start=1):
        shown = common.shown(text)
        try:
            move = module.parse_move(state, text, check=False)
            after = module.apply(state, move)
        except NotationError as err:
            raise ArgumentError(f"--after: move {number} ({shown}) cannot be read: {err}") from None
        except IllegalMove as err:
            raise ArgumentError(
                f"--after: move {number} ({shown}) is illegal there: {common.safe_error(err)}"
            ) from None
        found = unknowns.depends(module, state, move, after, None, unknown)
        if found is not None:
            raise unknowns.check_chain(shown, number, found)
        state = after
    return state


def _drawing(module: Any, move_text: str, outcome: Outcome) -> str:
    """Before and after, side by side, the moved character or card outlined."""
    draw = drawing.svg_function(module)
    moved = getattr(outcome.move, "character", None) or getattr(outcome.move, "card", None)
    highlight = () if moved is None else (moved,)
    if not outcome.legal:
        before = draw(outcome.before, caption=f"{move_text}: illegal ({outcome.clause})")
        return drawing.side_by_side([("before (the move is illegal)", before)])
    before = draw(outcome.before, highlight=highlight)
    after = draw(outcome.after, highlight=highlight)
    return drawing.side_by_side([("before", before), (f"after {move_text}", after)])


def _who(module: Any, state: Any, seat: int | None) -> str:
    actor = module.current_player(state) if seat is None else seat
    return "nobody (the game is over)" if actor is None else f"seat {actor}"


def _print(view: View, move_text: str, *, seat: int | None, outcome: Outcome) -> None:
    write = sys.stdout.write
    module, state = view.module, view.state
    first = f" after {' '.join(map(common.shown, view.played))}," if view.played else ""
    write(
        f"{module.NAME.capitalize()}, rules {view.label}:{first} {_who(module, state, seat)} "
        f"plays {common.shown(move_text)}\n"
    )
    if view.played:
        write(f"position then:\n  {view.text(state)}\n")
    if not outcome.legal:
        write(f"ILLEGAL: {outcome.message}\n")
        if outcome.clause:
            write(f"{common.clause_line(outcome.clause)}\n")
            write("\n".join(common.clause_french(outcome.clause)) + " »\n")
        if view.unknown:
            write(unknowns.note(view.unknown, state) + "\n")
        return
    write("LEGAL. What happened:\n")
    for line in common.event_lines(outcome.events):
        write(line + "\n")
    if view.depends is not None:
        for line in view.depends.lines():
            write(line + "\n")
        if module.is_over(outcome.after):
            write(f"the game is over: the scores and the winner depend on {view.depends.who()}\n")
        else:
            write(positions.situation(module, outcome.after) + "\n")
        write(f"position after: not written, its scores depend on {view.depends.who()}\n")
        return
    if view.unknown:
        write(unknowns.note(view.unknown, state) + "\n")
    write(positions.situation(module, outcome.after) + "\n")
    write(f"position after:\n  {view.text(outcome.after)}\n")


def _data(view: View, move_text: str, *, seat: int | None, outcome: Outcome) -> dict[str, Any]:
    module, state = view.module, view.state
    rules = state.rules
    data: dict[str, Any] = {
        "game": module.NAME,
        "rules": view.label,
        "options": {
            f.name: options_text.to_json(getattr(rules, f.name)) for f in attrs.fields(type(rules))
        },
        "position": view.text(state),
        "move": move_text,
        "seat": module.current_player(state) if seat is None else seat,
        "legal": outcome.legal,
    }
    if view.played:
        data["start"] = view.text(view.start)
        data["after_moves"] = list(view.played)
    if view.unknown:
        data["unknown_objectives"] = [{"round": r, "seat": s} for r, s in sorted(view.unknown)]
        data["depends_on_unknown"] = [] if view.depends is None else view.depends.data()
    if outcome.legal:
        data["events"] = common.event_data(outcome.events)
        data["next_player"] = module.current_player(outcome.after)
        data["over"] = module.is_over(outcome.after)
        if view.depends is not None:
            data["after"] = None
            return data
        data["after"] = view.text(outcome.after)
        if data["over"]:
            data["scores"] = list(module.scores(outcome.after))
            data["winners"] = list(module.winners(outcome.after))
    else:
        data["clause"] = outcome.clause
        data["message"] = outcome.message
        if outcome.clause:
            from castlerules.core import CLAUSES

            known = CLAUSES[outcome.clause]
            data["clause_text"] = {
                "summary": known.summary,
                "english": known.english,
                "french": known.french,
            }
    return data


__all__ = ["Outcome", "RulesError", "add_parser", "judge", "run"]
