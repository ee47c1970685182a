"""The declared rule mutations of ``python -m proofs.mutants``.

Each :class:`Mutation` is one small, plausible mistake: in the engine (a rule
written wrong), in a rule table (a wrong number, which reaches the engine and
the models alike), in a model (Ascent: the proofs' second encoding; Throne: the
interpretation of the kernel on Z3 terms), or in a proved
property itself (a claim weakened until it says nothing).  It is given as
``(file, exact old text, new text)``; the runner refuses to run if the old
text is not found exactly once, so that a mutation never silently stops
applying when the code moves.

A *weakened property* is killed when it no longer catches the mutation it
exists to catch: the runner applies it together with its ``partner`` and the
property, which failed under the partner alone, now holds.
"""

from __future__ import annotations

import attrs


@attrs.frozen(slots=True)
class Mutation:
    """One mutation: where, what, which clause, what it should break."""

    id: str
    clause: str
    what: str
    file: str
    old: str
    new: str
    kind: str = "engine"
    """``engine``, ``table`` (a rule number, shared by engine and model), ``model``,
    ``property`` (a weakened claim) or ``module`` (a rule a module outside the engines
    encodes for itself: the adapters' numbers and tensors, the bots' draws of hidden
    facts, the notations' own checks, the records' stored results, the views that keep
    a seat's secrets; killed by that module's tests, :attr:`tests`)."""
    breaks: tuple[str, ...] = ()
    """Proved properties this mutation makes false (then the proofs or the
    equivalence check must kill it)."""
    partner: str = ""
    """For a weakened property: the mutation the property must still catch."""
    issue: bool = False
    """One of the mutations that the library's requirements list, each of which must be
    killed (marked ``(required)`` in the published table)."""
    more: tuple[tuple[str, str], ...] = ()
    """Further ``(old, new)`` edits of the same file, applied after the first: a
    mistake that takes more than one line (each old text must occur once)."""
    tests: tuple[str, ...] = ()
    """For a ``module`` mutation: the test files that are its unit layer (the tests of
    that module; the game's own unit tests do not exercise it)."""

    def edits(self) -> tuple[tuple[str, str], ...]:
        """Every ``(old, new)`` edit of the mutation, in order."""
        return ((self.old, self.new), *self.more)


TT = "castlerules/throne/transitions.py"
TR = "castlerules/throne/rules.py"
TS = "castlerules/symbolic/throne.py"
TK = "castlerules/throne/kernel.py"
TP = "proofs/throne.py"
AT = "castlerules/ascent/transitions.py"
AR = "castlerules/ascent/rules.py"
AM = "castlerules/symbolic/ascent_model.py"
AP = "proofs/ascent.py"
NUM = "castlerules/adapters/numbering.py"
OS = "castlerules/adapters/openspiel.py"
PZ = "castlerules/adapters/pettingzoo.py"
BOTS = "castlerules/bots/__init__.py"
MCTS = "castlerules/bots/mcts.py"
SAMPLING = "castlerules/throne/sampling.py"
TN = "castlerules/throne/notation.py"
AN = "castlerules/ascent/notation.py"
CN = "castlerules/core/notation.py"
REC = "castlerules/records.py"
BOARDS = "castlerules/boards.py"
DESK_SERVE = "castlerules/desk/serve.py"
DESK_TABLE = "castlerules/desk/table.py"
DIAGRAM = "castlerules/throne/diagram.py"
# The unit layer of each module's mutations (kind "module"): that module's tests.
ADAPTERS = (
    "tests/adapters/test_numbering.py",
    "tests/adapters/test_openspiel.py",
    "tests/adapters/test_pettingzoo.py",
)
BOT_TESTS = ("tests/study/test_bots.py", "tests/adapters/test_mcts_bot.py")
SAMPLING_TESTS = ("tests/throne/test_sampling.py", "tests/proofs/test_sampler_tied.py")
TN_TESTS = ("tests/throne/test_notation.py", TN)
AN_TESTS = ("tests/ascent/test_notation.py", "tests/ascent/test_deal.py", AN)
CN_TESTS = ("tests/throne/test_notation.py", "tests/ascent/test_notation.py")
REC_TESTS = (
    "tests/cli/test_records.py",
    "tests/throne/test_record.py",
    "tests/records/test_whole_result.py",
)
BOARD_TESTS = ("tests/cli/test_boards.py",)
DESK_TESTS = ("tests/desk/test_boundary.py", "tests/desk/test_requests.py")
DIAGRAM_TESTS = ("tests/throne/test_diagram_secrets.py",)

M = Mutation

MUTATIONS: tuple[Mutation, ...] = (
    # ------------------------------------------------------------- Throne engine
    M(
        "throne.bonus_for_one",
        "B15",
        "the 33-point bonus also for a round-3 score of 1",
        TT,
        "if total == 0 and rules.bonus_applies(round_number):",
        "if total <= 1 and rules.bonus_applies(round_number):",
        issue=True,
    ),
    M(
        "throne.no_bonus",
        "B15",
        "no bonus at all: a round-3 score of 0 stays 0",
        TT,
        "if total == 0 and rules.bonus_applies(round_number):",
        "if total == 0 and rules.bonus_applies(round_number) and False:",
    ),
    M(
        "throne.bonus_every_round",
        "B15",
        "the bonus in every round",
        TT,
        "if total == 0 and rules.bonus_applies(round_number):",
        "if total == 0:",
    ),
    M(
        "throne.climb_into_full_floor",
        "B7",
        "a climb into a full floor allowed",
        TT,
        "if 0 < f < table.top and state.counts[f + 1] < table.cap[f + 1]:",
        "if 0 < f < table.top and state.counts[f + 1] <= table.cap[f + 1]:",
        issue=True,
    ),
    M(
        "throne.mover_again_after_elimination",
        "B13",
        "the mover plays again after an elimination",
        TT,
        "resume = nxt + 1",
        "resume = nxt + 0",
        issue=True,
    ),
    M(
        "throne.points_off_by_one",
        "B14",
        "a favourite scores the points of the floor below",
        TR,
        "self.points_or_0: tuple[int, ...] = (*self.points, 0)",
        "self.points_or_0: tuple[int, ...] = (0, *self.points[:-1], 0)",
    ),
    M(
        "throne.eliminated_scores",
        "B13",
        "an eliminated favourite still scores",
        TR,
        "self.points_or_0: tuple[int, ...] = (*self.points, 0)",
        "self.points_or_0: tuple[int, ...] = (*self.points, self.points[1])",
    ),
    M(
        "throne.place_any_floor",
        "B6",
        "a character may be placed on any floor",
        TT,
        "                and table.place_ok[f]\n",
        "                and True\n",
    ),
    M(
        "throne.place_into_full_floor",
        "B7",
        "placement into a full floor allowed",
        TT,
        "                and state.counts[f] < table.cap[f]\n",
        "                and state.counts[f] <= table.cap[f]\n",
    ),
    M(
        "throne.place_twice",
        "B6",
        "a character already placed may be placed again",
        TT,
        "                and state.floors[i] == UNPLACED\n",
        "                and True\n",
    ),
    M(
        "throne.no_without_card",
        "B11",
        "a No vote without a No card left",
        TT,
        "(move.yes or state.no_cards[state.turn] > 0)",
        "(move.yes or state.no_cards[state.turn] >= 0)",
    ),
    M(
        "throne.no_card_kept",
        "B11",
        "a No voter keeps the No card",
        TT,
        "no_cards_left[voter] -= 1",
        "no_cards_left[voter] -= 0",
    ),
    M(
        "throne.one_yes_crowns",
        "B12",
        "one Yes vote is enough to crown",
        TT,
        "if 0 not in votes:",
        "if 1 in votes:",
    ),
    M(
        "throne.no_election",
        "B10",
        "reaching the throne starts no election",
        TT,
        "    if f == top:",
        "    if f == top + 1:",
    ),
    M(
        "throne.leftovers_floor_two",
        "B6",
        "with equal placement the leftovers go to floor 2",
        TT,
        "                    floors[j] = 1",
        "                    floors[j] = 2",
    ),
    M(
        "throne.game_one_round_short",
        "B3",
        "the game ends a round early",
        TT,
        "if number == rules.rounds:",
        "if number == rules.rounds - 1:",
    ),
    M(
        "throne.no_cards_never_reset",
        "B11",
        "No cards are not given back at a new round",
        TT,
        "if rules.no_cards_reset_each_round:",
        "if not rules.no_cards_reset_each_round:",
    ),
    M(
        "throne.first_player_off",
        "B3",
        "round k is started by seat k instead of k-1",
        TT,
        "return (round_number - 1) % players if rules.first_player_rotates else 0",
        "return round_number % players if rules.first_player_rotates else 0",
    ),
    M(
        "throne.legal_climb_into_full",
        "B8",
        "legal_moves offers climbs into full floors",
        TR,
        "room = [False, *map(lt, counts[2:], table.cap_above), False, False]",
        "room = [False, *(c <= k for c, k in zip(counts[2:], table.cap_above)), False, False]",
    ),
    M(
        "throne.legal_no_without_card",
        "B11",
        "legal_moves offers No without a No card",
        TT,
        "return alphabet.votes_no if state.no_cards[state.turn] else alphabet.votes_yes",
        "return alphabet.votes_no",
    ),
    M(
        "throne.codes_climbs_shifted",
        "B8",
        "the adapters' numbers of the climbs are one off (legal_codes names the wrong climbs)",
        TR,
        "self.climbs: tuple[int, ...] = tuple(range(len(moves), len(moves) + n))",
        "self.climbs: tuple[int, ...] = tuple(range(len(moves) + 1, len(moves) + n + 1))",
    ),
    M(
        "throne.pass_round_end_early",
        "B8",
        "a round ends when all but one player passed",
        TT,
        "if passes == state.players:",
        "if passes == state.players - 1:",
    ),
    M(
        "throne.duplicate_objectives",
        "B4",
        "two seats may get the same objective",
        "castlerules/throne/sampling.py",
        "                if mask not in masks:",
        "                if True:",
    ),
    M(
        "throne.winner_lowest",
        "B16",
        "the winner is the lowest total",
        TT,
        "    best = max(final)\n",
        "    best = min(final)\n",
    ),
    M(
        "throne.diagram_shows_objectives",
        "B4",
        "the table's board (svg with secrets=False) still names every seat's favourites",
        "castlerules/throne/diagram.py",
        'favourites = "".join(sorted(objective(state, s))) if secrets else "secret"',
        'favourites = "".join(sorted(objective(state, s)))',
    ),
    M(
        "throne.movement_starter_ignored",
        "B8",
        "movement_starter=first_player is ignored: the seat after the last placer moves first",
        TT,
        "        if table.movement_from_first:\n",
        "        if False:\n",
    ),
    # ------------------------------------------------------------ Throne kernel
    M(
        "throne.kernel.place_twice",
        "B6",
        "the kernel lets a placed character be placed again",
        TK,
        '"B6", "a character not yet placed", both([place, m.mine != 0]), "throne-placed-twice"',
        '"B6", "a character not yet placed", both([place, m.mine < 0]), "throne-placed-twice"',
    ),
    M(
        "throne.kernel.place_into_full",
        "B7",
        "the kernel lets a character be placed on a full floor",
        TK,
        '"onto a floor with room", both([place, p.full(m.floor)]), "throne-full-floor")',
        '"onto a floor with room", both([place, p.full(m.floor + 1)]), "throne-full-floor")',
    ),
    M(
        "throne.kernel.climb_from_throne",
        "B8",
        "the kernel cites B6 for a climb of the candidate",
        TK,
        '"B8",\n            "nothing is above the throne",',
        '"B6",\n            "nothing is above the throne",',
    ),
    M(
        "throne.kernel.eliminated_climbs",
        "B13",
        "the kernel cites B8 for the climb of an eliminated character",
        TK,
        '"B13",',
        '"B8",',
    ),
    M(
        "throne.kernel.climb_into_full",
        "B8",
        "the kernel lets a character climb into a full floor",
        TK,
        "both([climb, p.full(m.mine + 1)]),",
        "both([climb, p.full(m.mine + 2)]),",
    ),
    M(
        "throne.kernel.no_leftovers",
        "B6",
        "the kernel leaves the leftover characters unplaced under equal placement",
        TK,
        "fl = tuple(o.ite(o.all([opt.equal_placement, x == 0]), 1, x) for x in fl)",
        "fl = tuple(o.ite(o.all([opt.equal_placement, x == 0]), 0, x) for x in fl)",
    ),
    M(
        "throne.kernel.starter_ignored",
        "B8",
        "the kernel ignores movement_starter",
        TK,
        "starter = o.ite(opt.movement_starter, first_player(o, shape, opt, s.rnd), p.nxt)",
        "starter = p.nxt",
    ),
    M(
        "throne.kernel.resume_with_mover",
        "B13",
        "after an elimination the kernel resumes with the mover",
        TK,
        "turn=next_seat(o, shape, p.nxt),  # the seat after the mover",
        "turn=p.nxt,  # the seat after the mover",
    ),
    M(
        "throne.kernel.no_card_kept",
        "B11",
        "a No voter keeps the card after an elimination (kernel)",
        TK,
        "no_out = tuple(x - o.ite(v == 0, 1, 0) for x, v in zip(s.no, votes, strict=True))",
        "no_out = tuple(x - o.ite(v == 2, 1, 0) for x, v in zip(s.no, votes, strict=True))",
        breaks=("throne.invariant",),
    ),
    M(
        "throne.kernel.no_vote_gives_a_card",
        "B11",
        "a No vote gives the voter a card instead of spending one (kernel)",
        TK,
        "no_out = tuple(x - o.ite(v == 0, 1, 0) for x, v in zip(s.no, votes, strict=True))",
        "no_out = tuple(x + o.ite(v == 0, 1, 0) for x, v in zip(s.no, votes, strict=True))",
        breaks=("throne.no_cards",),
    ),
    M(
        "throne.kernel.bonus_for_one",
        "B15",
        "the kernel gives the bonus for a round score of 1",
        TK,
        "bonus = ops.all([raw == 0, ops.lookup(shape.bonus, rnd) == 1])",
        "bonus = ops.all([raw <= 1, ops.lookup(shape.bonus, rnd) == 1])",
    ),
    M(
        "throne.kernel.no_reset",
        "B11",
        "the kernel never gives the No cards back",
        TK,
        "no=tuple(o.ite(opt.no_cards_reset_each_round, shape.full, x) for x in no),",
        "no=tuple(o.ite(opt.no_cards_reset_each_round, x, x) for x in no),",
        breaks=("throne.no_cards",),
    ),
    M(
        "throne.kernel.first_player_fixed",
        "B3",
        "the kernel starts every round with seat 0",
        TK,
        "return ops.ite(options.first_player_rotates, ops.lookup(shape.first, rnd), 0)",
        "return ops.ite(options.first_player_rotates, 0, 0)",
    ),
    M(
        "core.ops.tied_highest_lowest",
        "B16",
        "the kernels name the seats with the lowest total the winners (Throne B16, Ascent A17: "
        "both read core.ops.tied_highest)",
        "castlerules/core/ops.py",
        "best = ops.ite(x > best, x, best)",
        "best = ops.ite(x < best, x, best)",
        kind="module",
        tests=("tests/throne/test_kernel.py", "tests/ascent/test_kernel.py"),
    ),
    M(
        "core.ops.tied_highest_first_only",
        "B16",
        "the kernels give a tie's win to the first of the tied seats only",
        "castlerules/core/ops.py",
        "return tuple(x == best for x in values)",
        "return tuple(\n"
        "        ops.all([x == best, *(y != best for y in values[:q])])"
        " for q, x in enumerate(values)\n"
        "    )",
        kind="module",
        tests=("tests/throne/test_kernel.py", "tests/ascent/test_kernel.py"),
    ),
    # ---------------------------------------------------------- Throne tables
    M(
        "throne.table.original_no_counts_public",
        "B11",
        "ORIGINAL shows every seat's No count (the published rule keeps it secret)",
        TR,
        '                    "no_cards_public": False,\n',
        "",
        kind="table",
    ),
    M(
        "throne.table.original_movement_after_last_placer",
        "B8",
        "ORIGINAL starts the movement after the last placer (not the round's first player)",
        TR,
        '                    "movement_starter": "first_player",\n',
        "",
        kind="table",
    ),
    M(
        "throne.table.throne_holds_two",
        "B1",
        "the throne holds two characters",
        TR,
        "return 1 if floor == self.throne_floor else self.floor_capacity",
        "return 2 if floor == self.throne_floor else self.floor_capacity",
        kind="table",
        breaks=("throne.capacity",),
    ),
    M(
        "throne.table.floor_of_five",
        "B7",
        "floors hold five characters",
        TR,
        'default=4, validator=validator(_int_in(1, 26), "a whole number in 1..26")',
        'default=5, validator=validator(_int_in(1, 26), "a whole number in 1..26")',
        kind="table",
        breaks=("throne.capacity", "throne.round_score"),
    ),
    M(
        "throne.table.king_eleven",
        "B14",
        "the king scores 11",
        TR,
        "default=(0, 1, 2, 3, 4, 5, 10),",
        "default=(0, 1, 2, 3, 4, 5, 11),",
        kind="table",
        breaks=("throne.round_score",),
    ),
    M(
        "throne.table.bonus_34",
        "B15",
        "the bonus is worth 34",
        TR,
        'default=33, validator=validator(_int_in(0, 1000), "a whole number in 0..1000")',
        'default=34, validator=validator(_int_in(0, 1000), "a whole number in 0..1000")',
        kind="table",
        breaks=("throne.round_score", "throne.totals"),
    ),
    M(
        "throne.table.placement_on_six",
        "B6",
        "characters may be placed on floor 6",
        TR,
        "default=(1, 2, 3, 4, 5),",
        "default=(1, 2, 3, 4, 5, 6),",
        kind="table",
    ),
    # ------------------------------- Throne: the kernel as the proofs' transition system
    # The Z3 system the Throne proofs reason about is the kernel run on Z3 terms: a wrong
    # rule is a kernel mutation (killed by the exhaustive tie tests/throne/test_kernel.py
    # and, when it breaks a proved property, by the proofs), a wrong interpretation a
    # mutation of castlerules/symbolic/ (killed by tests/symbolic/test_throne.py, the
    # proofs' premises or their induction).
    M(
        "throne.symbolic.no_initial_state",
        "B3",
        "the Z3 system's initial positions made unsatisfiable",
        TS,
        "return z3.And(self.equal(s, first), self.objectives_valid(s.obj))",
        "return z3.And(self.equal(s, first), self.objectives_valid(s.obj), s.rnd == 0)",
        kind="model",
        breaks=("throne.invariant",),
        issue=True,
    ),
    M(
        "throne.kernel.turn_reversed",
        "B8",
        "the kernel's turn order reversed",
        TK,
        "return ops.ite(seat == shape.players - 1, 0, seat + 1)",
        "return ops.ite(seat == 0, shape.players - 1, seat - 1)",
    ),
    M(
        "throne.kernel.eliminated_to_nobles",
        "B13",
        "the kernel sends an eliminated candidate down to the nobles' floor",
        TK,
        "fl_out = tuple(o.ite(x == top, ELIMINATED, x) for x in s.fl)",
        "fl_out = tuple(o.ite(x == top, top - 1, x) for x in s.fl)",
        breaks=("throne.no_descent",),
    ),
    M(
        "throne.symbolic.group_floors_reversed",
        "B6",
        "the Z3 system reads a place's floor from the wrong end of its group",
        TS,
        "values = [table[k - low] for k in self.group]",
        "values = [table[k - low] for k in reversed(self.group)]",
        kind="model",
    ),
    # ------------------------------------------------------ Throne properties
    M(
        "throne.property.no_descent_weak",
        "B9",
        "property no_descent weakened to g >= f-1",
        TP,
        "any_of([g >= f, all_of([f == system.shape.top, g == ELIMINATED])])",
        "any_of([g >= f - 1, all_of([f == system.shape.top, g == ELIMINATED])])",
        kind="property",
        partner="throne.kernel.eliminated_to_nobles",
        issue=True,
    ),
    # ------------------------------------ Throne properties: more weakened claims
    # Each weakened claim with the partner that tells it from the strong one: the
    # strong claim fails under the partner alone, the weakened one holds there.
    M(
        "throne.property.invariant_weak",
        "B13",
        "property invariant weakened (the conjunct 'eliminations cost No cards' dropped)",
        "castlerules/symbolic/throne_invariant.py",
        "            (\n"
        '                "B13 eliminations cost No cards",\n'
        "                implies(any_of([placing, playing]), self.gone(s) <= self.used_no(s)),\n"
        "            ),\n",
        "",
        kind="property",
        partner="throne.kernel.no_card_kept",
    ),
    M(
        "throne.property.no_cards_weak",
        "B11",
        "property no_cards weakened (a new round gives at most the full count back)",
        TP,
        "*(implies(fresh, b == system.shape.full) for b in post.no),",
        "*(implies(fresh, b <= system.shape.full) for b in post.no),",
        kind="property",
        partner="throne.kernel.no_reset",
    ),
    M(
        "throne.table.no_cards_five",
        "B11",
        "3 players get 5 No cards each (15, more than the 13 characters)",
        TR,
        "no_cards: tuple[int, ...] = attrs.field(\n        default=(4, 3, 2, 2),",
        "no_cards: tuple[int, ...] = attrs.field(\n        default=(5, 3, 2, 2),",
        kind="table",
        breaks=("throne.move_exists", "throne.round_ends_with_king"),
    ),
    M(
        "throne.property.move_exists_weak",
        "B13",
        "property move_exists weakened (No cards not counted; a climb only while one is left)",
        TP,
        "lit(s.n * s.shape.full < s.shape.characters),",
        "lit(True),",
        more=(
            (
                "return implies(s.phase == MOVEMENT, legal)",
                "return implies(all_of([s.phase == MOVEMENT, "
                "any_of(f >= 1 for f in s.fl)]), legal)",
            ),
        ),
        kind="property",
        partner="throne.table.no_cards_five",
    ),
    M(
        "throne.kernel.pass_not_counted",
        "B8",
        "the kernel does not count a pass (everyone passing never ends the round)",
        TK,
        "lambda: same(passes=s.passes + 1, turn=p.nxt),",
        "lambda: same(passes=s.passes, turn=p.nxt),",
        breaks=("throne.round_ends_with_king",),
    ),
    M(
        "throne.property.rise_by_one.no_cards_weak",
        "B11",
        "property no_cards weakened: a No count may rise by one within a round",
        TP,
        "*(implies(same, b <= a) for a, b in zip(pre.no, post.no, strict=True)),",
        "*(implies(same, b <= a + 1) for a, b in zip(pre.no, post.no, strict=True)),",
        kind="property",
        partner="throne.kernel.no_vote_gives_a_card",
        issue=True,
    ),
    M(
        "throne.property.round_ends_with_king_weak",
        "B12",
        "property round_ends_with_king weakened (the ranking function only never falls)",
        TP,
        "return _measure(system, post) > _measure(system, pre)",
        "return _measure(system, post) >= _measure(system, pre)",
        kind="property",
        partner="throne.kernel.pass_not_counted",
    ),
    M(
        "throne.table.no_bonus_round",
        "B15",
        "no round has the bonus (a round-3 score of 0 stays 0)",
        TR,
        "        default=(3,),\n        converter=_to_tuple,\n",
        "        default=(),\n        converter=_to_tuple,\n",
        kind="table",
        breaks=("throne.round_score", "throne.totals"),
    ),
    # ------------------------------------------------------------- Ascent engine
    M(
        "ascent.apply_flipped_may_advance",
        "A8",
        "a flipped stack may advance (apply's A8 check removed)",
        AT,
        "        if flipped_mask >> s & 1:\n            raise IllegalMove(",
        "        if False:\n            raise IllegalMove(",
        issue=True,
    ),
    M(
        "ascent.removal_lower_half",
        "A13",
        "removal also in the lower half",
        AT,
        "if rest and t.removal >> d & 1 and d > t.arrival[rank_card(t, rest)]:",
        "if rest and d > t.arrival[rest[0]]:",
        issue=True,
    ),
    M(
        "ascent.no_removal",
        "A13",
        "an exposed remainder is never removed",
        AT,
        "if rest and t.removal >> d & 1 and d > t.arrival[rank_card(t, rest)]:",
        "if rest and t.removal >> d & 1 and d > t.arrival[rank_card(t, rest)] and False:",
    ),
    M(
        "ascent.favour_equal_rank",
        "A10",
        "a favour may take an equal rank",
        AT,
        "                if stack and value[stack[0]] < r and not flipped[q] >> d & 1:",
        "                if stack and value[stack[0]] <= r and not flipped[q] >> d & 1:",
    ),
    M(
        "ascent.favour_flipped",
        "A10",
        "a favour may take a flipped stack",
        AT,
        "                if stack and value[stack[0]] < r and not flipped[q] >> d & 1:",
        "                if stack and value[stack[0]] < r:",
        breaks=("ascent.flipped",),
    ),
    M(
        "ascent.favour_own_column",
        "A10",
        "a favour may take from the mover's own column (apply's check)",
        AT,
        "        if col_index != p and c in col[d]:\n",
        "        if c in col[d]:\n",
    ),
    M(
        "ascent.favour_on_top",
        "A10",
        "a favour puts the taken cards on top of the taker",
        AT,
        "taker_column[d] = taker[:m] + taken + taker[m:]",
        "taker_column[d] = taken + taker",
    ),
    M(
        "ascent.no_flip_on_arrival",
        "A8",
        "arrival does not flip the stack",
        AT,
        "    flip_now = d == arr[lead]\n",
        "    flip_now = False\n",
        breaks=("ascent.invariant",),
    ),
    M(
        "ascent.flip_uncovered_ignored",
        "A8",
        "the engine leaves a split's remainder unflipped on its arrival square "
        "(flip_uncovered=True)",
        AT,
        "rest_flips = t.flip_uncovered and s == arr[bare]",
        "rest_flips = False",
    ),
    M(
        "ascent.flip_uncovered_favour_ignored",
        "A8",
        "the engine leaves a favour's remainder unflipped on its arrival square "
        "(flip_uncovered=True)",
        AT,
        "if rest and t.flip_uncovered and d == t.arrival[rank_card(t, rest)]:",
        "if False:",
    ),
    M(
        "ascent.replays_unbounded",
        "A12",
        "the engine offers a replay after every favour (replays_per_turn ignored)",
        AT,
        "    if state.replays < t.replay_limit:  # A12: play again",
        "    if True:",
    ),
    M(
        "ascent.exposing_split",
        "A7",
        "a split may expose a card above its ceiling",
        AT,
        "                if s <= arr[stack[i + 1]]:",
        "                if s <= arr[stack[i + 1]] + 1:",
    ),
    M(
        "ascent.no_favour_limit",
        "A10",
        "no limit on favours per Advance",
        AT,
        "    if k >= t.favour_limit:\n        return []",
        "    if False:\n        return []",
    ),
    M(
        "ascent.game_never_ends_alive",
        "A14",
        "the game goes on with one player left",
        AT,
        "    if (alive <= 1 and not t.last_player_continues) or nxt < 0:",
        "    if (alive <= 0 and not t.last_player_continues) or nxt < 0:",
    ),
    M(
        "ascent.end_test_arrival_unfinished",
        "A14",
        "a card left on its own arrival square keeps its player in the race",
        AT,
        "        for c in col[s]:\n            if s < arr[c]:\n                return True",
        "        for c in col[s]:\n            if s <= arr[c]:\n                return True",
    ),
    M(
        "ascent.end_test_carried_unfinished",
        "A14",
        "the reference end test counts every unflipped card, as the earlier reading did",
        AT,
        '    if test == "unflipped":\n        return True\n',
        '    if test in ("unflipped", "unreached"):\n        return True\n',
    ),
    M(
        "ascent.kernel.end_test_unflipped",
        "A14",
        "the kernel's end test unreached counts every unflipped card",
        "castlerules/ascent/kernel.py",
        "    return ops.all([racing(ops, u), u.sq < arrival])\n",
        "    return ops.all([racing(ops, u)])\n",
    ),
    M(
        "ascent.favour_all_lower_top_only",
        "A10",
        "favour_takes=all_lower checks the top of the taken part only",
        AT,
        "        for x in taken:\n            if value[x] >= value[lead_p]:",
        "        for x in taken[:1]:\n            if value[x] >= value[lead_p]:",
    ),
    M(
        "ascent.penalty_owner_to_column",
        "A13",
        "penalty_to=owner still puts removed cards on the column's pile",
        AT,
        "                owner = owners[x]\n",
        "                owner = q\n",
    ),
    M(
        "ascent.deal.short_blocks",
        "A18",
        "the shuffled deal gives each seat one card fewer than 36 // n",
        "castlerules/ascent/setup.py",
        "    k = len(order) // n\n",
        "    k = len(order) // n - 1\n",
    ),
    M(
        "ascent.deal.seed_ignored",
        "A18",
        "the shuffled deal is the same for every seed",
        "castlerules/ascent/setup.py",
        'Rng.from_seed(seed, "ascent.deal")',
        'Rng.from_seed(0, "ascent.deal")',
    ),
    M(
        "ascent.kernel.deal_leftover_on_start",
        "A18",
        "the kernel puts the cards left over by the deal on a Start",
        "castlerules/ascent/kernel.py",
        "        sq=ops.ite(own >= 0, 0, REMOVED),\n",
        "        sq=ops.lit(0),\n",
    ),
    M(
        "ascent.kernel.all_lower_ignored",
        "A10",
        "the kernel's favour_takes=all_lower takes any part, as the default",
        "castlerules/ascent/kernel.py",
        "    return ops.all([all_lower, taken, ops.not_(ranks_lower(ops, value, taker))])\n",
        "    return ops.all([all_lower, taken, ops.not_(ranks_lower(ops, value, taker)), False])\n",
    ),
    M(
        "ascent.stack_rank_highest_exposure_top",
        "A7",
        "stack_rank=highest still exposes a remainder by its top card",
        AT,
        "        bare = rank_card(t, rest) if t.highest else rest[0]\n",
        "        bare = rest[0]\n",
    ),
    M(
        "ascent.stack_rank_highest_ceiling_top",
        "A6",
        "stack_rank=highest still bounds a moving part by its top card's ceiling",
        AT,
        "        lead = rank_card(t, part) if t.highest else stack[0]\n",
        "        lead = stack[0]\n",
    ),
    M(
        "ascent.score_on_arrival_minus",
        "A15",
        "a card on its arrival square scores minus",
        AT,
        "total += val[c] if s >= arr[c] else -val[c]",
        "total += val[c] if s > arr[c] else -val[c]",
    ),
    M(
        "ascent.removed_scores_zero",
        "A16",
        "removed cards score nothing",
        AT,
        "        for c in state.removed_cards[q]:\n            total -= val[c]",
        "        for c in state.removed_cards[q]:\n            total -= 0",
    ),
    M(
        "ascent.turn_skips_seat",
        "A3",
        "the turn skips a seat",
        AT,
        "    tuple(tuple((p + k) % n for k in range(1, n + 1)) for p in range(n))",
        "    tuple(tuple((p + k + 1) % n for k in range(1, n + 1)) for p in range(n))",
    ),
    # ------------------------------------------------------------ Ascent kernel
    # castlerules/ascent/kernel.py, killed by its exhaustive tie with the engine
    # (tests/ascent/test_kernel.py, in the unit layer): one per guard, one per effect.
    M(
        "ascent.kernel.advance_before_favour",
        "A12",
        "the kernel refuses the replay after a favour instead of the Advance before one",
        "castlerules/ascent/kernel.py",
        "    return ops.all([mid, sk == 0])\n",
        "    return ops.all([mid, sk == 1])\n",
    ),
    M(
        "ascent.kernel.any_column",
        "A2",
        "the kernel lets a player advance the cards of any column",
        "castlerules/ascent/kernel.py",
        "    return ops.all([col == actor, sq >= 0])\n",
        "    return ops.all([sq >= 0])\n",
    ),
    M(
        "ascent.kernel.flipped_moves",
        "A8",
        "the kernel does not refuse a flipped card for being flipped",
        "castlerules/ascent/kernel.py",
        "both([advance, never_moves(o, m.flp)]),",
        "both([advance, never_moves(o, m.flp), m.sq == 0]),",
    ),
    M(
        "ascent.kernel.strict_from_start_only",
        "A6",
        "under protection=False the kernel bounds a moving part by every card's ceiling "
        "only from the Start",
        "castlerules/ascent/kernel.py",
        "both([advance, o.not_(opt.protection), o.select(b.strict, m.k)]),",
        "both([advance, o.not_(opt.protection), o.select(b.strict, m.k), m.sq == 0]),",
    ),
    M(
        "ascent.kernel.favour_anytime",
        "A11",
        "the kernel lets a favour be taken with no stack just moved",
        "castlerules/ascent/kernel.py",
        "both([favour, o.not_(after_advance(o, s.mid))]),",
        "both([favour, o.not_(after_advance(o, s.mid)), s.sk > 0]),",
    ),
    M(
        "ascent.kernel.favour_from_start",
        "A10",
        "the kernel lets a favour take a card from a Start",
        "castlerules/ascent/kernel.py",
        "both([favour, o.not_(found)]),",
        "both([favour, o.not_(found), m.sq >= 1]),",
    ),
    M(
        "ascent.kernel.favour_takes_flipped",
        "A10",
        "the kernel lets a favour take a flipped stack",
        "castlerules/ascent/kernel.py",
        "both([favour, never_moves(o, m.flp)]),",
        "both([favour, never_moves(o, m.flp), m.sq == 0]),",
    ),
    M(
        "ascent.kernel.flipped_never_takes",
        "A10",
        "the kernel refuses every favour of a just-flipped stack, favour_after_arrival or not",
        "castlerules/ascent/kernel.py",
        "both([favour, o.not_(may_take_after(o, opt.favour_after_arrival, p.taker_flipped))]),",
        "both([favour, p.taker_flipped]),",
    ),
    M(
        "ascent.kernel.all_lower_top_only",
        "A10",
        "under favour_takes=all_lower the kernel checks only a take of one card",
        "castlerules/ascent/kernel.py",
        "both([favour, bad_taken]),",
        "both([favour, bad_taken, m.dep == 0]),",
    ),
    M(
        "ascent.kernel.end_anytime",
        "A3",
        "the kernel lets a turn end before its Advance",
        "castlerules/ascent/kernel.py",
        "both([end, o.not_(after_advance(o, s.mid))]),",
        "both([end, o.not_(after_advance(o, s.mid)), s.sk > 0]),",
    ),
    M(
        "ascent.kernel.flipped_cards_race_on",
        "A8",
        (
            "the kernel's flipped cards are not there for good (the"
            " proofs' model reads the same function)"
        ),
        "castlerules/ascent/kernel.py",
        "    return flp\n",
        "    return ops.lit(False)\n",
    ),
    M(
        "ascent.kernel.step_always_open",
        "A11",
        (
            "the kernel reads every turn as after an Advance (the"
            " proofs' model reads the same function)"
        ),
        "castlerules/ascent/kernel.py",
        "    return mid\n",
        "    return ops.lit(True)\n",
    ),
    M(
        "ascent.kernel.part_one_too_big",
        "A3",
        "the kernel counts one card too many in a moving or taken part",
        "castlerules/ascent/kernel.py",
        "    return x.dep + 1\n",
        "    return x.dep + 2\n",
    ),
    M(
        "ascent.kernel.highest_ignored",
        "A3",
        "the kernel's stacks act with their top card under stack_rank=highest too",
        "castlerules/ascent/kernel.py",
        "    return ops.ite(highest, best_value, top_value)\n",
        "    return top_value\n",
    ),
    M(
        "ascent.kernel.flips_a_square_early",
        "A8",
        "the kernel flips a part one square below its arrival square too",
        "castlerules/ascent/kernel.py",
        "    return d == ceiling\n",
        "    return d >= ceiling - 1\n",
    ),
    M(
        "ascent.kernel.after_arrival_always",
        "A10",
        "the kernel lets a just-flipped stack take favours whatever favour_after_arrival says",
        "castlerules/ascent/kernel.py",
        "    return ops.any([favour_after_arrival, ops.not_(flipped)])\n",
        "    return ops.lit(True)\n",
    ),
    M(
        "ascent.kernel.favour_offered_without_target",
        "A12",
        "the kernel offers a favour after an Advance even when no stack can be taken",
        "castlerules/ascent/kernel.py",
        "    return ops.all([may_take_after(ops, favour_after_arrival, flipped), "
        "ops.any(targets)])\n",
        "    return ops.all([may_take_after(ops, favour_after_arrival, flipped)])\n",
    ),
    M(
        "ascent.kernel.goes_on_by_favours_only",
        "A12",
        "the kernel's play goes on after a favour only for another favour, never for a replay",
        "castlerules/ascent/kernel.py",
        "    return ops.any([favour_open, replay])\n",
        "    return ops.any([favour_open])\n",
    ),
    M(
        "ascent.kernel.advance_counts_a_favour",
        "A10",
        "the kernel's Advance opens its step with one favour already counted",
        "castlerules/ascent/kernel.py",
        "    return Step(ops.lit(True), d, size, ops.lit(0), replays)\n",
        "    return Step(ops.lit(True), d, size, ops.lit(1), replays)\n",
    ),
    M(
        "ascent.kernel.game_opens_mid_step",
        "A12",
        "the kernel's new game opens in a step (no Advance to start with)",
        "castlerules/ascent/kernel.py",
        "    return Step(ops.lit(False), ops.lit(0), ops.lit(0), ops.lit(0), ops.lit(0))\n",
        "    return Step(ops.lit(True), ops.lit(0), ops.lit(0), ops.lit(0), ops.lit(0))\n",
    ),
    M(
        "ascent.kernel.flipped_still_racing",
        "A14",
        "the kernel's race counts flipped cards as still racing",
        "castlerules/ascent/kernel.py",
        "    return ops.all([u.sq >= 0, ops.not_(u.flp)])\n",
        "    return ops.all([u.sq >= 0])\n",
    ),
    M(
        "ascent.kernel.ceiling_off_by_one",
        "A6",
        "the kernel's destination may lie one square above the leader's ceiling (the "
        "proofs' model reads the same function)",
        "castlerules/ascent/kernel.py",
        "    return ops.all([d > sq, d <= ceiling])\n",
        "    return ops.all([d > sq, d <= ceiling + 1])\n",
        breaks=("ascent.invariant",),
    ),
    M(
        "ascent.kernel.no_jump",
        "A3",
        "the kernel's Advance goes to the next square only, never jumping",
        "castlerules/ascent/kernel.py",
        "    return ops.all([d > sq, d <= ceiling])\n",
        "    return ops.all([d == sq + 1, d <= ceiling])\n",
    ),
    M(
        "ascent.kernel.flipped_square_occupied",
        "A9",
        "the kernel's arrival square holding flipped cards is occupied for its own rank",
        "castlerules/ascent/kernel.py",
        "return o.any([o.not_(occupied), o.all([flipped, d == ceiling])])",
        "return o.any([o.not_(occupied), o.all([flipped, d == ceiling, d < 0])])",
    ),
    M(
        "ascent.kernel.no_flip",
        "A8",
        "the kernel's Advance never flips the moving part on arrival",
        "castlerules/ascent/kernel.py",
        "flp=o.ite(o.any([o.all([part, a.flip]), o.all([rest, a.rest_flips])]), True, u.flp),",
        "flp=o.ite(o.all([rest, a.rest_flips]), True, u.flp),",
    ),
    M(
        "ascent.kernel.part_by_its_card",
        "A7",
        "the kernel's moving part acts with the moved card's rank, not its leader's",
        "castlerules/ascent/kernel.py",
        "            top_value,\n            L.highest(part, value),\n",
        "            value,\n            L.highest(part, value),\n",
    ),
    M(
        "ascent.kernel.highest_of_stack",
        "A3",
        "under stack_rank=highest the kernel's part acts with the whole stack's highest rank",
        "castlerules/ascent/kernel.py",
        "L.highest(part, value)",
        "L.highest(stk, value)",
    ),
    M(
        "ascent.kernel.remainder_top_wrong",
        "A7",
        "the kernel reads the remainder's top one card too low",
        "castlerules/ascent/kernel.py",
        "o.all([together, u_dep == x_dep + 1])",
        "o.all([together, u_dep == x_dep + 2])",
    ),
    M(
        "ascent.lanes.diagonal_dropped",
        "A3",
        "the lanes of plain values and Z3 terms read no card as in its own stack (a grid's "
        "diagonal is never set), so a card on its Start is no part of its own move",
        "castlerules/core/lanes.py",
        "function(*row, *across[j], *(c[j] for c in line), k == j)",
        "function(*row, *across[j], *(c[j] for c in line), False)",
    ),
    M(
        "ascent.lanes.axis_drops_a_card",
        "A3",
        "the batch's pairwise reductions over the cards (of a grid, of the places held) drop "
        "the odd card out",
        "castlerules/batch/arrays.py",
        "        parts = paired + ([parts[-1]] if len(parts) % 2 else [])\n",
        "        parts = paired\n",
        kind="module",
        tests=("tests/core/test_lanes.py", "tests/batch/test_ascent_batch.py"),
    ),
    M(
        "ascent.lanes.marks_ignore_when",
        "A9",
        "the lanes of plain values and Z3 terms mark a place held whatever ``when`` says, so "
        "every occupied square reads as holding flipped cards",
        "castlerules/core/lanes.py",
        "                        o.all([a == i, b == j, *w])\n",
        "                        o.all([a == i, b == j])\n",
    ),
    M(
        "ascent.lanes.marks_bit_off_by_one",
        "A3",
        "the batch's places held read each square's bit one square up (the square above "
        "looks occupied when the square itself is)",
        "castlerules/batch/arrays.py",
        "xp.bitwise_and(xp.right_shift(word[i], j - low), 1)",
        "xp.bitwise_and(xp.right_shift(word[i], j - low + 1), 1)",
        kind="module",
        tests=("tests/core/test_lanes.py", "tests/batch/test_ascent_batch.py"),
    ),
    M(
        "ascent.batch.carried_board_stale",
        "A3",
        "the batch's random playouts carry the board of the position before each move into "
        "the next move, not the board after it",
        "castlerules/batch/ascent.py",
        "        return data, now, whole(after.terms()), bots_low, bots_high, live",
        "        return data, now, whole(p.board.terms()), bots_low, bots_high, live",
        kind="module",
        tests=("tests/batch/test_ascent_batch.py",),
    ),
    M(
        "ascent.kernel.successors_board_before_advance",
        "A9",
        "the one board after an Advance (the batch's, carried into the next move) is built of "
        "the cards before it",
        "castlerules/ascent/kernel.py",
        "        [lambda: moved, lambda: taken, lambda: p.s],",
        "        [lambda: p.s, lambda: taken, lambda: p.s],",
        kind="module",
        tests=("tests/batch/test_ascent_batch.py",),
    ),
    M(
        "ascent.kernel.some_in_ignores_when",
        "A14",
        "the kernel's 'some card of the column' questions forget their condition: every seat "
        "with a card on the board may advance and is still in the race",
        "castlerules/ascent/kernel.py",
        "lanes.marks(where, every, places, (1,), when)",
        "lanes.marks(where, every, places, (1,))",
    ),
    M(
        "ascent.kernel.mover_squares_flipped_for_held",
        "A11",
        "the mover's own squares (where only the stack just moved may take a favour) are "
        "read with the held and the flipped places swapped",
        "castlerules/ascent/kernel.py",
        "for when in (None, u.flp))",
        "for when in (u.flp, None))",
    ),
    M(
        "ascent.kernel.turn_over_of_the_board_before",
        "A14",
        "the one end of the turn that every case of an array step shares is read on the board "
        "before the move, not after it",
        "castlerules/ascent/kernel.py",
        "end_turn(o, p.shape, p.opt, after, p.s.actor)",
        "end_turn(o, p.shape, p.opt, p.board, p.s.actor)",
        kind="module",
        tests=("tests/batch/test_ascent_batch.py",),
    ),
    M(
        "ascent.batch.stacked_merge_swapped",
        "A3",
        "the batch's merge of two positions' cards (one array each) takes the other side of "
        "its condition",
        "castlerules/batch/arrays.py",
        "return Stacked(self.xp.where(cond, a.array, b.array))",
        "return Stacked(self.xp.where(cond, b.array, a.array))",
        kind="module",
        tests=("tests/batch/test_ascent_batch.py",),
    ),
    M(
        "ascent.lanes.marks_at_first_square",
        "A6",
        "the lanes of plain values and Z3 terms read every square of a card's column as "
        "its first square, held or not",
        "castlerules/core/lanes.py",
        "o.select([row[j] for row in table], a, low)",
        "o.select([row[0] for row in table], a, low)",
    ),
    M(
        "ascent.lanes.marks_at_column_zero_as_last",
        "A6",
        "the batch's places held at each card's column read column 0's cards in the last "
        "column's word",
        "castlerules/batch/arrays.py",
        "        for i in range(len(firsts) - 2, -1, -1):\n            mine =",
        "        for i in range(len(firsts) - 2, 0, -1):\n            mine =",
        kind="module",
        tests=("tests/core/test_lanes.py", "tests/batch/test_ascent_batch.py"),
    ),
    M(
        "ascent.batch.cards_before_the_move",
        "A3",
        "the batch's step leaves every game's cards as they lay before the move (only the "
        "turn moves on)",
        "castlerules/batch/ascent.py",
        "post = attrs.evolve(shared.after.s, **dict(zip(_TURN, turn, strict=True)))",
        "post = attrs.evolve(k, **dict(zip(_TURN, turn, strict=True)))",
        kind="module",
        tests=("tests/batch/test_ascent_batch.py",),
    ),
    M(
        "ascent.batch.turn_of_the_game_over",
        "A14",
        "the batch's step takes the turn after the move for the games over (which play on "
        "past their end) and the turn before it for the games still playing",
        "castlerules/batch/ascent.py",
        "turn = merge(o, over, _turn(k), _turn(out.post))",
        "turn = merge(o, over, _turn(out.post), _turn(k))",
        kind="module",
        tests=("tests/batch/test_ascent_batch.py",),
    ),
    M(
        "ascent.lanes.grid_column_reads_first_cells",
        "A3",
        "the batch's grid, read column by column, reads the first column of the grids it is "
        "built of for every column (a part read as the stack of the first card)",
        "castlerules/batch/arrays.py",
        "*rows, *(_item(c, j) for c in cols), *(c[:, j] for c in cells), index == j",
        "*rows, *(_item(c, j) for c in cols), *(c[:, 0] for c in cells), index == j",
        kind="module",
        tests=("tests/core/test_lanes.py", "tests/batch/test_ascent_batch.py"),
    ),
    M(
        "ascent.lanes.grid_slice_of_the_first_column",
        "A3",
        "the batch's grid, once computed whole, gives its first column for every column",
        "castlerules/batch/arrays.py",
        "            return self._whole[:, j]\n",
        "            return self._whole[:, 0]\n",
        kind="module",
        tests=("tests/core/test_lanes.py", "tests/batch/test_ascent_batch.py"),
    ),
    M(
        "ascent.lanes.packed_word_of_the_next_columns",
        "A9",
        "the batch's places held set each card's bit in the packed word of the columns after "
        "its own",
        "castlerules/batch/arrays.py",
        "mine = xp.logical_and(inside[j], xp.logical_and(k >= c * per, k < (c + 1) * per))",
        "mine = xp.logical_and(inside[j], xp.logical_and(k >= c * per + per, k < (c + 2) * per))",
        kind="module",
        tests=("tests/core/test_lanes.py", "tests/batch/test_ascent_batch.py"),
    ),
    M(
        "ascent.lanes.narrow_word_one_bit_short",
        "A9",
        "the batch's places held keep each column's word in 8 bits for 9 squares (its last "
        "square lost)",
        "castlerules/batch/arrays.py",
        "narrow = xp.uint8 if width <= 8 else",
        "narrow = xp.uint8 if width <= 9 else",
        kind="module",
        tests=("tests/core/test_lanes.py", "tests/batch/test_ascent_batch.py"),
    ),
    M(
        "ascent.lanes.packed_field_one_square_short",
        "A9",
        "the batch's places held unpack each column's field one square short (its last "
        "square never reads as held)",
        "castlerules/batch/arrays.py",
        "field = xp.asarray((1 << width) - 1, dtype=xp.uint32)",
        "field = xp.asarray((1 << (width - 1)) - 1, dtype=xp.uint32)",
        kind="module",
        tests=("tests/core/test_lanes.py", "tests/batch/test_ascent_batch.py"),
    ),
    M(
        "ascent.kernel.exposing_option_ignored",
        "A7",
        "the kernel ignores allow_exposing_split",
        "castlerules/ascent/kernel.py",
        "return o.all([sq >= 1, has_rest, o.not_(exposing), sq > rest_ceiling])",
        "return o.all([sq >= 1, has_rest, sq > rest_ceiling])",
    ),
    M(
        "ascent.kernel.flip_uncovered_ignored",
        "A8",
        "the kernel ignores flip_uncovered: a remainder left on its arrival square stays unflipped",
        "castlerules/ascent/kernel.py",
        "return ops.all([flip_uncovered, has_rest, sq == rest_ceiling])",
        "return ops.all([flip_uncovered, has_rest, sq == rest_ceiling, sq < 0])",
    ),
    M(
        "ascent.kernel.replays_unbounded",
        "A12",
        "the kernel ignores replays_per_turn: a turn plays again after every favour",
        "castlerules/ascent/kernel.py",
        "    return replays < limit\n",
        "    return replays >= 0\n",
    ),
    M(
        "ascent.kernel.taken_on_top",
        "A10",
        "the kernel puts the taken cards on top of the moved stack, not under it",
        "castlerules/ascent/kernel.py",
        "            f.sm + u.dep,\n",
        "            u.dep,\n",
    ),
    M(
        "ascent.kernel.taken_stay_unflipped",
        "A8",
        "the kernel leaves the cards a just-flipped stack takes unflipped",
        "castlerules/ascent/kernel.py",
        "flp=o.ite(taken, f.flipped,",
        "flp=o.ite(taken, False,",
    ),
    M(
        "ascent.kernel.harsh_ignored",
        "A13",
        "the kernel ignores removal_in_lower_half",
        "castlerules/ascent/kernel.py",
        "return ops.any([removal_in_lower_half, d >= upper_half])",
        "return ops.any([d >= upper_half])",
    ),
    M(
        "ascent.kernel.penalty_owner_ignored",
        "A13",
        "the kernel ignores penalty_to=owner",
        "castlerules/ascent/kernel.py",
        "o.ite(leaves, o.ite(f.to_owner, u.own, u.col), u.col),",
        "o.ite(leaves, u.col, u.col),",
    ),
    M(
        "ascent.kernel.favour_after_arrival_ignored",
        "A10",
        "the kernel offers a favour to a just-flipped stack under favour_after_arrival=False",
        "castlerules/ascent/kernel.py",
        "            opt.favour_after_arrival,\n"
        "            lands_flipped(o, d, o.select(b.ceil, m.k)),\n",
        "            opt.favour_after_arrival,\n            o.lit(False),\n",
    ),
    M(
        "ascent.kernel.favours_not_counted",
        "A10",
        "the kernel does not count the favours taken since the Advance",
        "castlerules/ascent/kernel.py",
        "return Step(ops.lit(True), step.sd, step.sm + size, step.sk + 1, step.replays)",
        "return Step(ops.lit(True), step.sd, step.sm + size, step.sk, step.replays)",
    ),
    M(
        "ascent.kernel.no_replay",
        "A12",
        "after a favour the kernel ends the turn when only an Advance is left",
        "castlerules/ascent/kernel.py",
        "o.select(after.advances, p.actor),",
        "o.lit(False),",
    ),
    M(
        "ascent.kernel.unflipped_read_as_unreached",
        "A14",
        "the kernel reads end_test=unflipped as unreached",
        "castlerules/ascent/kernel.py",
        "o.ite(end_test == 1, unflipped, can_move)",
        "o.ite(end_test == 1, unreached, can_move)",
    ),
    M(
        "ascent.kernel.can_move_read_as_unflipped",
        "A14",
        "the kernel reads end_test=can_move as unflipped",
        "castlerules/ascent/kernel.py",
        "o.ite(end_test == 1, unflipped, can_move)",
        "o.ite(end_test == 1, unflipped, unflipped)",
    ),
    M(
        "ascent.kernel.last_player_stops",
        "A14",
        "the kernel ignores last_player_continues",
        "castlerules/ascent/kernel.py",
        "o.all([o.not_(continues), o.count(race) <= 1])",
        "o.all([o.count(race) <= 1])",
    ),
    M(
        "ascent.kernel.never_stuck",
        "A14",
        "the kernel's game does not end when no player has a legal Advance",
        "castlerules/ascent/kernel.py",
        "o.not_(o.any(advances))])",
        "o.lit(False)])",
    ),
    M(
        "ascent.kernel.no_skip",
        "A14",
        "the kernel passes the turn to the next seat even if it has no Advance",
        "castlerules/ascent/kernel.py",
        "found = o.first([o.select(advances, seat) for seat in after])",
        "found = o.lit(0)",
    ),
    M(
        "ascent.kernel.removed_score_nothing",
        "A16",
        "the kernel's removed cards cost nothing",
        "castlerules/ascent/kernel.py",
        "return o.ite(col == seat, ",
        "return o.ite(o.all([col == seat, sq >= 0]), ",
    ),
    M(
        "ascent.kernel.die_ignored",
        "A18",
        "the kernel lets the die decide under die=none",
        "castlerules/ascent/kernel.py",
        "actor=ops.ite(options.die, 0, roll),",
        "actor=roll,",
    ),
    # ---------------------------------------------------------- Ascent tables
    M(
        "ascent.table.ceiling_off_by_one",
        "A6",
        "the ceiling off by one",
        AR,
        "path & ~((1 << (source + 1)) - 1) & ((1 << (ceiling + 1)) - 1)",
        "path & ~((1 << (source + 1)) - 1) & ((1 << (ceiling + 2)) - 1)",
        issue=True,
    ),
    M(
        "ascent.table.upper_half_off",
        "A13",
        "the upper half starts one square lower",
        AR,
        "return 1 <= square <= self.squares and square >= self.upper_half\n",
        "return 1 <= square <= self.squares and square >= self.upper_half - 1\n",
        kind="table",
    ),
    M(
        "ascent.table.fire_eater_two",
        "A18",
        "the Fire-eater is valued 2, as the Troubadour (a set is worth 22)",
        AR,
        "    return CARDS_PER_SET - cid % CARDS_PER_SET\n",
        "    return max(2, CARDS_PER_SET - cid % CARDS_PER_SET)\n",
        kind="table",
        breaks=("ascent.conservation", "ascent.scores"),
    ),
    # ---------------------------------------------------------- Ascent model
    M(
        "ascent.kernel.turn_reversed",
        "A3",
        "the kernel's turn order reversed (the proofs' model reads the same function)",
        "castlerules/ascent/kernel.py",
        (
            "o.ite(mover + j >= players, mover + j - players, mover"
            " + j) for j in range(1, players + 1)"
        ),
        "o.ite(mover - j < 0, mover - j + players, mover - j) for j in range(1, players + 1)",
        issue=True,
    ),
    M(
        "ascent.model.favour_flipped",
        "A8",
        (
            "the model lets a favour take a flipped stack (its hook"
            " for the sensitivity mutation always on)"
        ),
        AM,
        'flipped = False if self.p.mutation == "favour_flipped" else u.flp',
        "flipped = False",
        kind="model",
        breaks=("ascent.flipped",),
    ),
    M(
        "ascent.model.flipped_takes_flipped",
        "A8",
        "the model lets a flipped stack take a whole flipped stack of its own rank",
        AM,
        "                self.takeable(x),  # A8\n",
        "                any_of([self.takeable(x), all_of([m.tb.flp, m.bx.idx == NONE])]),  # A8\n",
        kind="model",
        more=(
            (
                (
                    "                kernel.ranks_lower(FOLD,"
                    " self.target_rank(m), self.taker_bound(m)),\n"
                ),
                (
                    "                kernel.ranks_lower(FOLD,"
                    " self.target_rank(m), self.taker_rank(m) + 1),\n"
                ),
            ),
        ),
        breaks=("ascent.flipped",),
    ),
    M(
        "ascent.model.every_card_by_its_own_ceiling",
        "A14",
        "the proofs' model, asking who may advance, lets every card of a stack move by its own "
        "ceiling, not only the top card",
        AM,
        (
            "                        u.dep == 0,\n                      "
            "  o.not_(kernel.never_moves(o, u.flp)),\n"
        ),
        (
            "                        u.dep >= 0,\n                      "
            "  o.not_(kernel.never_moves(o, u.flp)),\n"
        ),
        kind="model",
    ),
    M(
        "ascent.model.top_above_ceiling",
        "A6",
        "the model's invariant lets a stack's top stand one square above its ceiling",
        AM,
        "implies(all_of([path, u.dep == 0, u.sq > self.ceiling(u)]), self.excused(u)),",
        "implies(all_of([path, u.dep == 0, u.sq > self.ceiling(u) + 1]), self.excused(u)),",
        kind="model",
        breaks=("ascent.ceiling",),
    ),
    M(
        "ascent.model.uncovered_remainder_stays_unflipped",
        "A8",
        "flip_uncovered=True: the model's remainder, left uncovered on the arrival square of "
        "its rank by a split or a favour, never turns over",
        AM,
        (
            "                self.o.flip_uncovered,\n"
            "                all_of([x.sq >= 1, x.below != NONE]),\n"
        ),
        "                False,\n                all_of([x.sq >= 1, x.below != NONE]),\n",
        kind="model",
        more=(
            (
                "                self.o.flip_uncovered,\n                x.below != NONE,\n",
                "                False,\n                x.below != NONE,\n",
            ),
        ),
        breaks=("ascent.invariant",),
    ),
    M(
        "ascent.model.one_replay_too_many",
        "A12",
        "replays_per_turn: the model lets a turn replay once more than the bound",
        AM,
        "neg(kernel.replays_left(FOLD, t.replays, o.replay_limit)),",
        "neg(kernel.replays_left(FOLD, t.replays - 1, o.replay_limit)),",
        kind="model",
        breaks=("ascent.invariant",),
    ),
    M(
        "ascent.kernel.removed_keep_their_depth",
        "A13",
        "the kernel's removed cards keep their place in the remainder (a card in a pile "
        "with a depth)",
        "castlerules/ascent/kernel.py",
        "                leaves,\n                0,\n",
        "                leaves,\n                u.dep - size,\n",
        breaks=("ascent.invariant",),
    ),
    M(
        "ascent.kernel.strict_reading_one_over",
        "A7",
        "the kernel's strict reading (protection=False) lets a moving card go one square "
        "above its arrival square",
        "castlerules/ascent/kernel.py",
        "return ops.all([moving, arrival < d])",
        "return ops.all([moving, arrival + 1 < d])",
        breaks=("ascent.strict_ceiling",),
    ),
    M(
        "ascent.model.card_beyond_the_path",
        "A5",
        "the model's invariant lets a card stand one square beyond the path's last square",
        AM,
        "between(u.sq, REMOVED, o.squares),",
        "between(u.sq, REMOVED, o.squares + 1),",
        kind="model",
        breaks=("ascent.conservation", "ascent.scores", "ascent.termination"),
    ),
    M(
        "ascent.model.end_turn_opens_a_turn",
        "A12",
        (
            "the model lets EndTurn open a turn (a turn with no move): its"
            " EndTurn guard leaves out the kernel's after_advance"
        ),
        AM,
        "                kernel.after_advance(FOLD, t.mid),  # A3: a turn ends after its Advance\n",
        "",
        kind="model",
        breaks=("ascent.termination",),
    ),
    # stack_rank="highest" (A3): the model's stack ranks (each card's rv, the part's and
    # the remainder's rank cards pr and rb), which the proofs now also run under
    M(
        "ascent.model.highest_part_ranks_by_top",
        "A3",
        "stack_rank=highest: the model's moving part acts with its top card, not its highest",
        AM,
        "return m.pr if self.high and m.pr is not None else m.lead",
        "return m.lead",
        kind="model",
    ),
    M(
        "ascent.model.highest_ceiling_of_the_top",
        "A6",
        "stack_rank=highest: the model's invariant reads a stack's ceiling from its top "
        "card, not from its rank card",
        AM,
        "return self.o.arrival_of(self.rank(top))",
        "return self.o.arrival_of(top.val)",
        kind="model",
    ),
    M(
        "ascent.model.highest_remainder_ranks_by_top",
        "A7",
        "stack_rank=highest: the remainder an Advance or a favour leaves acts with its top "
        "card, not its highest",
        AM,
        "return m.rb if self.high and m.rb is not None else m.bx",
        "return m.bx",
        kind="model",
    ),
    M(
        "ascent.model.highest_taken_keep_their_rank",
        "A10",
        "stack_rank=highest: the cards a favour takes keep the rank of the stack they left",
        AM,
        "return attrs.evolve(after, rv=ite(taken, m.tb.rv, ite(rest, rest_rv, u.rv)))",
        "return attrs.evolve(after, rv=ite(rest, rest_rv, u.rv))",
        kind="model",
    ),
    M(
        "ascent.model.highest_taker_ranks_by_top",
        "A10",
        "stack_rank=highest: the model's favour taker acts with its top card's rank",
        AM,
        "return kernel.acts_with(FOLD, self.high, m.tt.val, m.tb.rv)",
        "return m.tt.val",
        kind="model",
    ),
    M(
        "ascent.model.highest_initial_rank_free",
        "A3",
        "stack_rank=highest: the model's new game leaves each card's stack rank free",
        AM,
        "                u.rv == u.val if self.high else True,\n",
        "                True,\n",
        kind="model",
    ),
    # ------------------------------------------------------ Ascent properties
    M(
        "ascent.property.flipped_weak",
        "A8",
        "property flipped weakened (column not checked)",
        AP,
        "return implies(before.flp, all_of([after.col == before.col, after.sq == before.sq, "
        "after.flp]))",
        "return implies(before.flp, all_of([after.sq == before.sq, after.flp]))",
        kind="property",
        partner="ascent.model.flipped_takes_flipped",
        issue=True,
    ),
    M(
        "ascent.property.ceiling_weak",
        "A6",
        "property ceiling weakened (one square of slack)",
        AP,
        "above = all_of([c.on_path(), c.sq > m.arr(c)])",
        "above = all_of([c.on_path(), c.sq > m.arr(c) + 1])",
        more=(
            (
                "exposed = all_of([t.on_path(), t.dep == 0, t.sq > m.ceiling(t)])",
                "exposed = all_of([t.on_path(), t.dep == 0, t.sq > m.ceiling(t) + 1])",
            ),
        ),
        kind="property",
        partner="ascent.model.top_above_ceiling",
        issue=True,
    ),
    # Each weakened claim with the partner that tells it from the strong one (see the
    # notes: a partner that breaks the invariant breaks every property resting on it).
    M(
        "ascent.property.invariant_weak",
        "A13",
        "property invariant weakened (a removed card's depth not checked)",
        AM,
        "all_of([u.dep == 0, u.below == NONE, u.top == NONE, neg(u.flp)]),",
        "all_of([u.below == NONE, u.top == NONE, neg(u.flp)]),",
        kind="property",
        partner="ascent.kernel.removed_keep_their_depth",
    ),
    M(
        "ascent.property.strict_ceiling_weak",
        "A7",
        "property strict_ceiling weakened (one square of slack)",
        AP,
        "return implies(u.on_path(), u.sq <= m.arr(u))",
        "return implies(u.on_path(), u.sq <= m.arr(u) + 1)",
        kind="property",
        partner="ascent.kernel.strict_reading_one_over",
    ),
    M(
        "ascent.property.conservation_weak",
        "A5",
        "property conservation weakened (a card's place may be one square beyond the path)",
        AP,
        "any_of([c.sq == REMOVED, between(c.sq, 0, m.o.squares)]),",
        "any_of([c.sq == REMOVED, between(c.sq, 0, m.o.squares + 1)]),",
        kind="property",
        partner="ascent.model.card_beyond_the_path",
    ),
    M(
        "ascent.property.scores_weak",
        "A17",
        "property scores weakened to [-22n, 22n]",
        AP,
        "bound = CLAIM_SET_VALUE * players",
        "bound = (CLAIM_SET_VALUE + 1) * players",
        kind="property",
        partner="ascent.table.fire_eater_two",
    ),
    M(
        "ascent.property.doubled.scores_weak",
        "A17",
        "property scores weakened: its bound doubled, [-42n, 42n]",
        AP,
        "bound = CLAIM_SET_VALUE * players",
        "bound = 2 * CLAIM_SET_VALUE * players",
        kind="property",
        partner="ascent.table.fire_eater_two",
        issue=True,
    ),
    M(
        "ascent.property.termination_weak",
        "A12",
        "property termination weakened (only a favour is checked not to open a turn)",
        AP,
        "                if case.kind != ADVANCE\n",
        "                if case.kind == FAVOUR\n",
        kind="property",
        partner="ascent.model.end_turn_opens_a_turn",
    ),
    # ------------------------------------- adapters: numbers, masks, tensors, returns
    M(
        "adapters.numbering.dealt_card_dealt_again",
        "B4",
        "a round's chance outcomes keep a card already dealt that round (only the last dealt "
        "is removed)",
        NUM,
        "        for k in sorted(dealt, reverse=True):\n",
        "        for k in sorted(dealt, reverse=True)[:1]:\n",
        kind="module",
        tests=ADAPTERS,
    ),
    M(
        "adapters.numbering.last_character_never_a_favourite",
        "B4",
        "the objective cards leave out every set holding the last character",
        NUM,
        "for combo in itertools.combinations(range(n), rules.objective_size)",
        "for combo in itertools.combinations(range(n - 1), rules.objective_size)",
        kind="module",
        tests=ADAPTERS,
    ),
    M(
        "adapters.numbering.bonus_not_in_low_bound",
        "B15",
        "the lowest final score forgets that a 0 counts as the bonus in a bonus round",
        NUM,
        "low += min([rules.bonus_points, *positive])",
        "low += min([0, *positive])",
        kind="module",
        tests=ADAPTERS,
    ),
    M(
        "adapters.numbering.no_vote_written_as_yes",
        "B11",
        "the observation tensor writes the seat's own No vote in the Yes slot",
        NUM,
        "ones.append(self.vote_at + (0 if obs.vote else 1))",
        "ones.append(self.vote_at + (0 if obs.vote is not None else 1))",
        kind="module",
        tests=ADAPTERS,
    ),
    M(
        "adapters.numbering.no_king_written_as_a",
        "B12",
        "the observation tensor writes a round without a king as a round won by character A",
        NUM,
        "ones.append(k + number * (n + 1) + (n if king is None else self.index[king]))",
        "ones.append(k + number * (n + 1) + (0 if king is None else self.index[king]))",
        kind="module",
        tests=ADAPTERS,
    ),
    M(
        "adapters.numbering.view_shows_no_as_yes",
        "B11",
        "the observation string reads the seat's own No vote as yes",
        NUM,
        '"vote " + ("-" if obs.vote is None else "yes" if obs.vote else "no"),',
        '"vote " + ("-" if obs.vote is None else "yes"),',
        kind="module",
        tests=ADAPTERS,
    ),
    M(
        "adapters.numbering.flipped_bit_inverted",
        "A8",
        "the Ascent tensor marks the cards that are not flipped as flipped",
        NUM,
        "                if flip:\n                    ones.append(base + flip_at)",
        "                if not flip:\n                    ones.append(base + flip_at)",
        kind="module",
        tests=ADAPTERS,
    ),
    M(
        "adapters.numbering.height_from_the_top",
        "A7",
        "the Ascent tensor counts a card's height in its stack from the top, not the bottom",
        NUM,
        "ones += (base + q, base + 2 * players + s, base + height_at + top - depth)",
        "ones += (base + q, base + 2 * players + s, base + height_at + depth)",
        kind="module",
        tests=ADAPTERS,
    ),
    M(
        "adapters.numbering.removed_from_column_0",
        "A13",
        "the Ascent tensor writes every removed card as removed from column 0",
        NUM,
        "ones += [k + c * per_card + players + q for c in gone]",
        "ones += [k + c * per_card + players for c in gone]",
        kind="module",
        tests=ADAPTERS,
    ),
    M(
        "adapters.numbering.ascent_bound_of_one_set",
        "A16",
        "Ascent's utility bounds are one set's values (-21..21), not n sets'",
        NUM,
        "        bound = SET_VALUE * numbered_cards(self.rules, self.players) // CARDS_PER_SET\n",
        "        bound = SET_VALUE\n",
        kind="module",
        tests=ADAPTERS,
    ),
    M(
        "adapters.openspiel.open_election_votes_shown",
        "B11",
        "the information state shows the other seats' votes of the election under way",
        OS,
        "(kind == _VOTE and tag == open_election)",
        "(kind == _VOTE and tag > open_election)",
        kind="module",
        tests=ADAPTERS,
    ),
    M(
        "adapters.openspiel.current_deal_shown",
        "B4",
        "the information state shows the other seats' objectives of the round being played",
        OS,
        "(kind == _DEAL and tag > finished)",
        "(kind == _DEAL and tag > finished + 1)",
        kind="module",
        tests=ADAPTERS,
    ),
    M(
        "adapters.openspiel.card_dealt_twice",
        "B4",
        "a chance action dealing a card already dealt this round is accepted",
        OS,
        "if not 0 <= action < len(game.table.cards) or action in dealt:",
        "if not 0 <= action < len(game.table.cards):",
        kind="module",
        tests=ADAPTERS,
    ),
    M(
        "adapters.openspiel.returns_before_the_end",
        "B16",
        "Throne's returns are the totals so far before the game is over, not zeros",
        OS,
        "        if engine.phase != _OVER:\n            return [0.0] * engine.players\n",
        "        if engine.phase != _OVER:\n"
        "            return [float(v) for v in throne.totals(engine)]\n",
        kind="module",
        tests=ADAPTERS,
    ),
    M(
        "adapters.numbering.shuffled_numbers_the_sets_in_play",
        "A18",
        "under deal=shuffled the actions name only the cards of the n sets, not all 36",
        NUM,
        'sets = MAX_SETS if rules.deal == "shuffled" else players',
        "sets = players",
        kind="module",
        tests=ADAPTERS,
    ),
    M(
        "adapters.openspiel.deal_repeats_cards",
        "A18",
        "the deal's chance node offers cards already dealt",
        OS,
        "left = [c for c in game.deck if c not in self._core[2]]",
        "left = list(game.deck)",
        kind="module",
        tests=ADAPTERS,
    ),
    M(
        "adapters.openspiel.die_never_names_the_last_seat",
        "A18",
        "the die's chance node never designates the last seat",
        OS,
        "return [(q, 1.0 / game.players) for q in range(game.players)]",
        "return [(q, 1.0 / (game.players - 1)) for q in range(game.players - 1)]",
        kind="module",
        tests=ADAPTERS,
    ),
    M(
        "adapters.openspiel.resampler_keeps_the_truth",
        "B11",
        "the ISMCTS resampler hands back the real position (every hidden fact) instead of a "
        "draw from the seat's observation",
        OS,
        "        return throne_state(state.get_game(), drawn)\n",
        "        return throne_state(state.get_game(), state.engine)\n",
        kind="module",
        tests=ADAPTERS,
    ),
    M(
        "adapters.pettingzoo.mask_for_a_seat_not_to_act",
        "B6",
        "a seat that is not to act gets the legal actions of the seat to act",
        PZ,
        "if self._actor(state) != seat:  # -1 once over",
        "if self._actor(state) < 0:  # -1 once over",
        kind="module",
        tests=ADAPTERS,
    ),
    M(
        "adapters.pettingzoo.vector_of_the_seat_to_act",
        "B4",
        "an agent's observation vector is the view of the seat to act (its objective, its vote)",
        PZ,
        "self._encoder.write(throne.observation(state, seat), vector)",
        "self._encoder.write(throne.observation(state, max(self._actor(state), 0)), vector)",
        kind="module",
        tests=ADAPTERS,
    ),
    M(
        "adapters.pettingzoo.every_seat_gets_the_last_movers_score",
        "B16",
        "at the end every agent is rewarded with the score of the seat that moved last",
        PZ,
        "self.rewards = {a: float(scores[self._seat[a]]) for a in self.agents}",
        "self.rewards = {a: float(scores[self._seat[agent]]) for a in self.agents}",
        kind="module",
        tests=ADAPTERS,
    ),
    M(
        "adapters.pettingzoo.svg_shows_the_secrets",
        "B4",
        "the SVG rendering draws every seat's favourites and No cards",
        PZ,
        "return throne.svg(self.state_, seat=seat, secrets=False)",
        "return throne.svg(self.state_, seat=seat)",
        kind="module",
        tests=ADAPTERS,
    ),
    # ------------------------------------------- bots: the hidden facts they draw
    M(
        "bots.determinize_returns_the_truth",
        "B11",
        "the montecarlo bot's determinization returns the real position before the end "
        "(the other seats' objectives and votes)",
        BOTS,
        "if module is not throne or throne.is_over(state):",
        "if module is not throne or not throne.is_over(state):",
        kind="module",
        tests=BOT_TESTS,
    ),
    M(
        "bots.determinize_leaves_later_rounds_undealt",
        "B4",
        "the montecarlo bot's determinization leaves the rounds to come without objectives",
        BOTS,
        "return sample_state(throne.observation(state, seat), rng, deal_future=True)",
        "return sample_state(throne.observation(state, seat), rng, deal_future=False)",
        kind="module",
        tests=BOT_TESTS,
    ),
    M(
        "bots.greedy_votes_no_without_a_no_card",
        "B11",
        "the greedy bot votes No against a candidate it does not favour, even without a No card",
        BOTS,
        ") or throne.no_cards(\n            state, seat\n        ) == 0",
        ") or throne.no_cards(\n            state, seat\n        ) < 0",
        kind="module",
        tests=BOT_TESTS,
    ),
    M(
        "bots.mcts_without_the_resampler",
        "B11",
        "the mcts bot gives ISMCTS no resampler, so its simulations do not start from draws "
        "of its seat's view",
        MCTS,
        "            bot.set_resampler(self._os.resampler(self._draw()))\n",
        "",
        kind="module",
        tests=BOT_TESTS,
    ),
    M(
        "throne.sampling.no_count_above_the_allowance",
        "B11",
        "a hidden No count is drawn from one more than the round's allowance",
        SAMPLING,
        "    full = obs.rules.no_cards_for(obs.players)\n",
        "    full = obs.rules.no_cards_for(obs.players) + 1\n",
        kind="module",
        tests=SAMPLING_TESTS,
    ),
    M(
        "throne.sampling.elimination_costs_no_card",
        "B13",
        "the hidden seats need not have spent the No cards the eliminations cost",
        SAMPLING,
        "    return min(full, most), max(0, fewest - seen_spent)\n",
        "    return min(full, most), 0\n",
        kind="module",
        tests=SAMPLING_TESTS,
    ),
    M(
        "throne.sampling.more_than_one_card_an_elimination",
        "B11",
        "a hidden seat may have spent more No cards than there were eliminations",
        SAMPLING,
        "    return min(full, most), max(0, fewest - seen_spent)\n",
        "    return full, max(0, fewest - seen_spent)\n",
        kind="module",
        tests=SAMPLING_TESTS,
    ),
    M(
        "throne.sampling.kept_cards_earlier_rounds_forgotten",
        "B11",
        "where the No cards are kept between rounds, the earlier rounds' eliminations are "
        "not counted in what the hidden seats have spent",
        SAMPLING,
        "    if rules.no_cards_reset_each_round:\n        return frozenset(totals)\n",
        "    if True:\n        return frozenset(totals)\n",
        kind="module",
        tests=SAMPLING_TESTS,
    ),
    M(
        "throne.sampling.kept_cards_scores_not_read",
        "B14",
        "a finished round's eliminations are not read from its scores (any castle under "
        "its king gives them)",
        SAMPLING,
        "        if any(not 0 <= x <= most[i][q] for q, x in enumerate(left)):\n",
        "        if False:\n",
        kind="module",
        tests=SAMPLING_TESTS,
    ),
    M(
        "throne.sampling.kept_cards_placement_floors_not_read",
        "B6",
        "a finished round's castle may hold a character below the lowest floor it could "
        "be placed on (a favourite scoring nothing there rather than eliminated)",
        SAMPLING,
        "    lowest = 1 if rules.equal_placement else min(rules.placement_floors)\n",
        "    lowest = 1\n",
        kind="module",
        tests=SAMPLING_TESTS,
    ),
    M(
        "throne.sampling.totals_as_a_box",
        "B11",
        "the spendings allowed are those between the fewest and the most eliminations the "
        "view allows, not those one total of eliminations allows",
        SAMPLING,
        "    return any(max(every) <= total <= sum(every) for total in elimination_totals(obs))\n",
        "    return max(every) <= max(elimination_totals(obs)) and sum(every) >= min(\n"
        "        elimination_totals(obs)\n"
        "    )\n",
        kind="module",
        tests=SAMPLING_TESTS,
    ),
    M(
        "throne.sampling.others_may_draw_the_seats_card",
        "B4",
        "another seat may be drawn the very objective card the seat holds",
        SAMPLING,
        "drawn_others, rng = deal({mine}, [q for q in range(players) if q != seat], rng)",
        "drawn_others, rng = deal(set(), [q for q in range(players) if q != seat], rng)",
        kind="module",
        tests=SAMPLING_TESTS,
    ),
    M(
        "throne.sampling.no_vote_without_a_no_card",
        "B11",
        "a face-down No vote is drawn for a seat that holds no No card",
        SAMPLING,
        "            elif counts_no[other] == 0:\n",
        "            elif counts_no[other] < 0:\n",
        kind="module",
        tests=SAMPLING_TESTS,
    ),
    M(
        "throne.sampling.read_objectives_repeat",
        "B4",
        "objectives given by hand may repeat a card within a round",
        SAMPLING,
        "            if mask in masks:\n                raise ArgumentError(",
        "            if False:\n                raise ArgumentError(",
        kind="module",
        tests=SAMPLING_TESTS,
    ),
    # ------------------------------------------ Throne notation: its own checks
    M(
        "throne.notation.overfull_floor",
        "B7",
        "a floor written with one character more than its capacity is read",
        TN,
        "if len(members) > rules.capacity(floor):",
        "if len(members) > rules.capacity(floor) + 1:",
        kind="module",
        tests=TN_TESTS,
    ),
    M(
        "throne.notation.character_on_two_floors",
        "B1",
        "a character written on two floors is not refused as such",
        TN,
        '            if floors[i] != UNPLACED:\n                raise NotationError(f"character',
        '            if False:\n                raise NotationError(f"character',
        kind="module",
        tests=TN_TESTS,
    ),
    M(
        "throne.notation.no_count_above_the_allowance",
        "B11",
        "a No count one above the allowance of the player count is read",
        TN,
        '_integer(v, at, text, 0, full, what="a No count")',
        '_integer(v, at, text, 0, full + 1, what="a No count")',
        kind="module",
        tests=TN_TESTS,
    ),
    M(
        "throne.notation.short_objective",
        "B4",
        "an objective with fewer characters than objective_size is read",
        TN,
        "if len(members) != rules.objective_size:",
        "if len(members) > rules.objective_size:",
        kind="module",
        tests=TN_TESTS,
    ),
    M(
        "throne.notation.objective_dealt_twice",
        "B4",
        "one round's deal may give two seats the same objective",
        TN,
        "            if mask in masks:\n                raise NotationError(",
        "            if False:\n                raise NotationError(",
        kind="module",
        tests=TN_TESTS,
    ),
    M(
        "throne.notation.stand_in_at_least_the_score",
        "B14",
        "an unknown objective of a finished game stands in with a card scoring at least the "
        "written score",
        TN,
        "if round_score(rules, last, state.floors, m) == wanted",
        "if round_score(rules, last, state.floors, m) >= wanted",
        kind="module",
        tests=TN_TESTS,
    ),
    M(
        "throne.notation.placement_above_the_floors",
        "B6",
        "during placement a character may stand one floor above the placement floors",
        TN,
        "if any(f > 0 and f not in rules.placement_floors for f in state.floors):",
        "if any(f > max(rules.placement_floors) + 1 for f in state.floors):",
        kind="module",
        tests=TN_TESTS,
    ),
    M(
        "throne.notation.throne_in_movement",
        "B10",
        "a character on the throne during the movement phase is read",
        TN,
        '        if counts[top]:\n            return ("a character on the throne means an election',
        '        if False:\n            return ("a character on the throne means an election',
        kind="module",
        tests=TN_TESTS,
    ),
    M(
        "throne.notation.full_nobles_under_the_candidate",
        "B8",
        "a full nobles' floor under the character on the throne is read",
        TN,
        "if counts[top] and counts[nobles] >= rules.capacity(nobles):",
        "if counts[top] and counts[nobles] > rules.capacity(nobles):",
        kind="module",
        tests=TN_TESTS,
    ),
    M(
        "throne.notation.every_vote_cast_unrevealed",
        "B11",
        "an election in which every seat has voted, not yet revealed, is read",
        TN,
        "        if cast == players:\n",
        "        if cast > players:\n",
        kind="module",
        tests=TN_TESTS,
    ),
    M(
        "throne.notation.no_vote_without_a_no_card",
        "B11",
        "a No vote by a seat without a No card is read",
        TN,
        "if state.votes[seat] == 0 and state.no_cards[seat] == 0:",
        "if state.votes[seat] == 0 and state.no_cards[seat] < 0:",
        kind="module",
        tests=TN_TESTS,
    ),
    M(
        "throne.notation.last_scores_only_summed",
        "B14",
        "a finished game's last round is checked by the sum of its scores only",
        TN,
        "    if state.results[-1] != expected_scores:\n",
        "    if sum(state.results[-1]) != sum(expected_scores):\n",
        kind="module",
        tests=TN_TESTS,
    ),
    M(
        "throne.notation.zero_in_a_bonus_round",
        "B15",
        "a past round's score of 0 is read in a bonus round",
        TN,
        "            if bonus and score == 0:\n",
        "            if bonus and score < 0:\n",
        kind="module",
        tests=TN_TESTS,
    ),
    M(
        "throne.notation.kingless_round_without_pass",
        "B12",
        "a past round without a king is read where no round can end without one",
        TN,
        "            if king_index < 0:\n                return (",
        "            if king_index < -1:\n                return (",
        kind="module",
        tests=TN_TESTS,
    ),
    M(
        "throne.notation.two_no_cards_for_one_elimination",
        "B13",
        "a seat may have discarded one No card more than the eliminations of the round",
        TN,
        "        if used > eliminated:\n",
        "        if used > eliminated + 1:\n",
        kind="module",
        tests=TN_TESTS,
    ),
    M(
        "throne.notation.elimination_without_a_no_card",
        "B13",
        "one elimination more than the No cards used this round is read",
        TN,
        "    if eliminated > used:\n",
        "    if eliminated > used + 1:\n",
        kind="module",
        tests=TN_TESTS,
    ),
    M(
        "throne.notation.parse_move_unchecked",
        "B6",
        "parse_move returns an illegal move without its refusal",
        TN,
        "    if check:\n        apply(state, move)  # raises the IllegalMove, with its clause",
        "    if False:\n        apply(state, move)  # raises the IllegalMove, with its clause",
        kind="module",
        tests=TN_TESTS,
    ),
    # ------------------------------------------ Ascent notation: its own checks
    M(
        "ascent.notation.card_of_a_set_not_in_play",
        "A18",
        "a card of set n (with n players, the sets are 0..n-1) is read",
        AN,
        "    if owner >= players:\n",
        "    if owner > players:\n",
        kind="module",
        tests=AN_TESTS,
    ),
    M(
        "ascent.notation.flipped_on_a_start",
        "A8",
        "a flipped stack on a Start is read",
        AN,
        "if flip and s == 0:",
        "if flip and s < 0:",
        kind="module",
        tests=AN_TESTS,
    ),
    M(
        "ascent.notation.card_twice_on_the_board",
        "A18",
        "a card written twice on the board is read",
        AN,
        "                if cid in seen:\n                    raise NotationError(\n"
        '                        f"card {_card_text(cid)} appears twice (A18)", text, at + flip',
        "                if False:\n                    raise NotationError(\n"
        '                        f"card {_card_text(cid)} appears twice (A18)", text, at + flip',
        kind="module",
        tests=AN_TESTS,
    ),
    M(
        "ascent.notation.card_dealt_twice_read",
        "A18",
        "a deal field that deals a card to two seats is read (the later seat keeps it)",
        AN,
        "            if owners[cid] >= 0:\n                raise NotationError(",
        "            if owners[cid] >= 9:\n                raise NotationError(",
        kind="module",
        tests=AN_TESTS,
    ),
    M(
        "ascent.notation.foreign_card_on_a_start",
        "A4",
        "a Start holding a card of another set next to its own is read",
        AN,
        "if any(owners[cid] != q for cid in cards):",
        "if all(owners[cid] != q for cid in cards):",
        kind="module",
        tests=AN_TESTS,
    ),
    M(
        "ascent.notation.flipped_above_the_arrival",
        "A8",
        "a flipped stack standing above its leader's arrival square is read",
        AN,
        "if t.arrival[leader] != s:",
        "if t.arrival[leader] < s:",
        kind="module",
        tests=AN_TESTS,
    ),
    M(
        "ascent.notation.card_on_the_board_and_removed",
        "A18",
        "a card both on the board and in a removed pile is read",
        AN,
        "            if cid in seen:\n"
        '                raise NotationError(f"card {_card_text(cid)} appears',
        "            if False:\n"
        '                raise NotationError(f"card {_card_text(cid)} appears',
        kind="module",
        tests=AN_TESTS,
    ),
    M(
        "ascent.notation.one_card_missing",
        "A18",
        "a position missing one card of the sets in play is read",
        AN,
        "    if missing:\n",
        "    if missing[1:]:\n",
        kind="module",
        tests=AN_TESTS,
    ),
    M(
        "ascent.notation.favour_limit_plus_one",
        "A10",
        "mid-turn, one favour more than favours_per_move is read",
        AN,
        "if limit is not None and step[2] > limit:",
        "if limit is not None and step[2] > limit + 1:",
        kind="module",
        tests=AN_TESTS,
    ),
    M(
        "ascent.notation.favour_step_after_arrival",
        "A10",
        "with favour_after_arrival=false, a favour step after a flipping arrival is read",
        AN,
        "if not rules.favour_after_arrival and flipped_t[actor] >> d & 1:",
        "if not rules.favour_after_arrival and flipped_t[actor] >> d & 1 and d < 0:",
        kind="module",
        tests=AN_TESTS,
    ),
    M(
        "ascent.notation.above_the_ceiling",
        "A6",
        "a card standing above its arrival square, unprotected, is read",
        AN,
        "    if bad:\n",
        "    if bad[1:]:\n",
        kind="module",
        tests=AN_TESTS,
    ),
    M(
        "ascent.notation.over_without_the_end",
        "A14",
        "a position marked over whose end test fails is read",
        AN,
        "        if not over:\n",
        "        if over is None:\n",
        kind="module",
        tests=AN_TESTS,
    ),
    M(
        "ascent.notation.seat_without_an_advance",
        "A14",
        "a seat to act with no legal Advance (it would have been skipped) is read",
        AN,
        "        if not state.moves:\n",
        "        if state.moves is None:\n",
        kind="module",
        tests=AN_TESTS,
    ),
    M(
        "ascent.notation.mid_turn_with_nothing_left",
        "A12",
        "mid-turn with neither a favour nor a replay left is read",
        AN,
        "    elif all(isinstance(move, EndTurn) for move in state.moves):\n",
        "    elif not state.moves:\n",
        kind="module",
        tests=AN_TESTS,
    ),
    M(
        "ascent.notation.mid_turn_on_the_start",
        "A3",
        "mid-turn on square 0 (the Start, where no move goes) is read",
        AN,
        'text, 1, squares, "the square just moved to")',
        'text, 0, squares, "the square just moved to")',
        kind="module",
        tests=AN_TESTS,
    ),
    M(
        "ascent.notation.parse_move_unchecked",
        "A2",
        "parse_move returns an illegal move without its refusal",
        AN,
        "    if check and move not in legal_moves(state):\n",
        "    if False and move not in legal_moves(state):\n",
        kind="module",
        tests=AN_TESTS,
    ),
    # ------------------------------------------------ the notations' shared readers
    M(
        "core.notation.inner_empty_field",
        "B11",
        "an empty field between two separators (a seat's No count left out) is read",
        CN,
        "        if not part:\n",
        "        if not part and start == 0:\n",
        kind="module",
        tests=CN_TESTS,
    ),
    M(
        "core.notation.extra_fields",
        "B14",
        "a list with more fields than expected (a score per seat and one more) is read",
        CN,
        "    if len(items) != count:\n",
        "    if len(items) < count:\n",
        kind="module",
        tests=CN_TESTS,
    ),
    M(
        "core.notation.range_one_too_far",
        "A5",
        "a number one above its range (a square beyond the path, a seat beyond the players) "
        "is read",
        CN,
        "    if not low <= value <= high:\n",
        "    if not low <= value <= high + 1:\n",
        kind="module",
        tests=CN_TESTS,
    ),
    # ------------------------------------------------ records: the stored result
    M(
        "records.result_of_an_unfinished_game",
        "B16",
        "make() stores a result for a game that is not over",
        REC,
        "if final is not None and module.is_over(final):",
        "if final is not None:",
        kind="module",
        tests=REC_TESTS,
    ),
    M(
        "records.no_winner",
        "B16",
        "a stored result with no winner is read",
        REC,
        "        or not winners\n",
        "",
        kind="module",
        tests=REC_TESTS,
    ),
    M(
        "records.winner_beyond_the_seats",
        "B16",
        "a stored winner one past the last seat is read",
        REC,
        "all(_is_int(w) and 0 <= w < players for w in winners)",
        "all(_is_int(w) and 0 <= w <= players for w in winners)",
        kind="module",
        tests=REC_TESTS,
    ),
    M(
        "records.winners_not_rechecked",
        "B16",
        "the check of a record compares the stored scores and the first winner only",
        REC,
        "        false = [w for w in stated_winners if w not in winners]\n",
        "        false = [w for w in stated_winners[:1] if w not in winners]\n",
        more=(
            (
                "        missing = [w for w in winners if w not in stated_winners]\n",
                "        missing = [w for w in winners[:1] if w not in stated_winners]\n",
            ),
        ),
        kind="module",
        tests=REC_TESTS,
    ),
    M(
        "records.result_before_the_end",
        "B3",
        "a result stored for moves that do not end the game is accepted",
        REC,
        "        if not module.is_over(state):\n",
        "        if module.is_over(state) is None:\n",
        kind="module",
        tests=REC_TESTS,
    ),
    # ------------------------------------------- the casebook's citations
    M(
        "casebook.citation.secret_vote_b10",
        "B11",
        "the casebook's secret-vote case cites B10 (the election) for B11 (the vote)",
        "castlerules/casebook/throne_cases.py",
        'step("throne-secret-vote", "B11",',
        'step("throne-secret-vote", "B10",',
        kind="module",
        tests=("tests/casebook/test_cited_clauses.py",),
        issue=True,
    ),
    # ------------------------------------------- views that keep a seat's secrets
    M(
        "boards.spectator_sees_an_objective",
        "B4",
        "the spectator's text board shows seat 0's objective",
        BOARDS,
        'if seat is not None and obs.phase != "over":',
        'if obs.phase != "over":',
        kind="module",
        tests=BOARD_TESTS,
    ),
    M(
        "boards.spectator_sees_a_no_count",
        "B11",
        "the spectator's text board shows seat 0's hidden No count",
        BOARDS,
        "if counts and ((seat is None and rules.no_cards_public) or seat is not None):",
        "if counts:",
        kind="module",
        tests=BOARD_TESTS,
    ),
    M(
        "desk.table_view_draws_the_secrets",
        "B4",
        "the desk's table view draws the board with every seat's favourites",
        DESK_SERVE,
        "secrets = boards.throne_secrets(state, hidden) if referee else None",
        "secrets = boards.throne_secrets(state, hidden)",
        kind="module",
        tests=DESK_TESTS,
    ),
    M(
        "desk.table_text_shows_the_current_deal",
        "B14",
        "the desk's table notation shows the objectives of the round under way",
        DESK_TABLE,
        "for number in range(scored + 1, rules.rounds + 1):",
        "for number in range(scored + 2, rules.rounds + 1):",
        kind="module",
        tests=DESK_TESTS,
    ),
    M(
        "throne.diagram.no_counts_shown",
        "B11",
        "the table's board (secrets=False) shows the No counts although the rules hide them",
        DIAGRAM,
        "shown_no = secrets or state.rules.no_cards_public",
        "shown_no = True",
        kind="module",
        tests=DIAGRAM_TESTS,
    ),
    M(
        "throne.diagram.marked_seats_favourites_ringed",
        "B4",
        "the table's board (secrets=False) still rings the marked seat's favourites",
        DIAGRAM,
        "shown_seat = seat if secrets else None",
        "shown_seat = seat",
        kind="module",
        tests=DIAGRAM_TESTS,
    ),
)


NOTES: dict[str, str] = {
    "ascent.apply_flipped_may_advance": (
        'The issue\'s "a flipped stack may advance".  Its first form, the A8 filter of '
        "the Advance generator dropped (``live = oc``), is an equivalent mutant and is "
        "no longer in the list: a flipped stack's top stands on its own arrival square, "
        "which is its ceiling (A6), so the ceiling window already leaves it no square to "
        "go to (a part landing on flipped cards is flipped with them, and a favour puts "
        "the taken cards under the top).  The filter is redundant with A6 and no test can "
        "tell; the check in ``apply`` is the killable form: without it a flipped stack is "
        "refused under the wrong clause (A6 instead of A8)."
    ),
    "ascent.favour_own_column": (
        "Its first form, the favour generator's list of other columns made to include "
        "the mover's own, is an equivalent mutant: on the favour's row the mover's column "
        "holds only the stack just moved, whose leader does not rank lower than itself "
        "(A10), so the generator never offers it.  The check in ``apply`` is the "
        "killable form: without it a favour naming a card of one's own column is "
        "refused for its rank, not for its column."
    ),
    "throne.eliminated_scores": (
        "With the seed's points, floor 1 and an eliminated character both score 0, so "
        "this mistake (an eliminated favourite scores as on floor 1) only shows under a "
        "``points`` option where floor 1 is worth something; the unit test "
        "``test_b13_b14_an_eliminated_favourite_scores_nothing_even_where_floor_1_scores`` "
        "plays that case."
    ),
    "throne.duplicate_objectives": (
        "A careless deal repeats an objective in under 1% of the rounds with 13 "
        "characters: no sampled game met one.  The unit test "
        "``test_b4_no_two_seats_share_an_objective_in_a_round`` deals 580 rounds, 60 of "
        "them with 7 characters (7 possible objectives), where a repeat is near certain."
    ),
    "ascent.model.flipped_takes_flipped": (
        "The partner of ``ascent.property.flipped_weak``: it moves flipped cards to "
        "another column and keeps them flipped on their square, the one thing the "
        "weakened claim (square and flip kept, column not checked) does not look at.  "
        "It needs two edits: a favour may take a flipped stack when the taker is flipped "
        "too, and an equal rank (two flipped tops on one row have the same rank).  "
        "``ascent.model.favour_flipped`` unflips the cards it takes, so the weakened "
        "claim still catches it and it cannot tell the two claims apart."
    ),
    "ascent.model.top_above_ceiling": (
        "The partner of ``ascent.property.ceiling_weak``: a model mistake in the "
        "invariant (a stack's top may stand one square above its ceiling) that leaves "
        "the invariant inductive.  A transition that lets a card go above its ceiling "
        "breaks the invariant itself, and then every property that rests on it fails, "
        "the weakened one too, so only such a partner can tell the claims apart."
    ),
    "ascent.kernel.removed_keep_their_depth": (
        "The partner of ``ascent.property.invariant_weak``: a removal that leaves each "
        "removed card its place in the remainder (as a remainder that stays keeps it) "
        'breaks only the conjunct "a removed card is in a pile" (depth 0), which the '
        "weakened invariant no longer states; no move touches a card in a pile, so the "
        "rest stays inductive and every other property still holds."
    ),
    "ascent.model.card_beyond_the_path": (
        "The partner of ``ascent.property.conservation_weak``, a mistake in the "
        "invariant's domain (as ``ascent.model.top_above_ceiling`` is in its ceiling): "
        "conservation reads the model only through that conjunct, so a move that put a "
        "card beyond the path would break the invariant and then every property, the "
        "weakened one too.  It breaks ``ascent.scores`` too (the counting lemma, which "
        "both run, places every card) and ``ascent.termination`` (a card's term is its "
        "square)."
    ),
    "ascent.table.fire_eater_two": (
        "The partner of ``ascent.property.scores_weak``, a rule table and not a model "
        "mistake: given the counting lemma, the scores' bounds are arithmetic over the "
        "cards' values, so a model mistake that breaks them breaks the lemma, which "
        "``ascent.conservation`` runs as well and the loosened bound does not weaken.  "
        "Only the values (``value_of``, shared by the engine and the model) can break "
        "the bound alone; a set worth 22 breaks conservation too."
    ),
    "ascent.model.end_turn_opens_a_turn": (
        "The partner of ``ascent.property.termination_weak``: a turn that may begin "
        "with EndTurn moves no card, so the Advances stay bounded and the favours of a "
        "turn too, but the turns themselves are not (a game of passes never ends); only "
        "the check that a turn begins with an Advance sees it, which the weakened claim "
        "makes for a favour only."
    ),
}
"""Why a mutation survives, where that is understood (shown on the docs page)."""
