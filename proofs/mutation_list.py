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
    """``engine``, ``table`` (a rule number, shared by engine and model), ``model``
    or ``property`` (a weakened claim)."""
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
        "throne.kernel.over_ignored",
        "B3",
        "the kernel lets moves be played after the end",
        TK,
        '("B3", "the game is not over", p.over),',
        '("B3", "the game is not over", o.lit(False)),',
    ),
    M(
        "throne.kernel.place_while_moving",
        "B8",
        "the kernel lets a character be placed in the movement phase",
        TK,
        '("B8", "no placing while moving", both([place, p.moving])),',
        '("B8", "no placing while moving", both([place, p.moving, p.over])),',
    ),
    M(
        "throne.kernel.place_in_election",
        "B11",
        "the kernel lets a character be placed during an election",
        TK,
        '("B11", "no placing during an election", both([place, p.electing])),',
        '("B11", "no placing during an election", both([place, p.electing, p.over])),',
    ),
    M(
        "throne.kernel.place_twice",
        "B6",
        "the kernel lets a placed character be placed again",
        TK,
        '("B6", "a character not yet placed", both([place, m.mine != 0])),',
        '("B6", "a character not yet placed", both([place, m.mine < 0])),',
    ),
    M(
        "throne.kernel.place_anywhere",
        "B6",
        "the kernel lets a character be placed on any floor",
        TK,
        '("B6", "onto a placement floor", both([place, m.placeable == 0])),',
        '("B6", "onto a placement floor", both([place, m.placeable < 0])),',
    ),
    M(
        "throne.kernel.place_into_full",
        "B7",
        "the kernel lets a character be placed on a full floor",
        TK,
        '("B7", "onto a floor with room", both([place, p.full(m.floor)])),',
        '("B7", "onto a floor with room", both([place, p.full(m.floor + 1)])),',
    ),
    M(
        "throne.kernel.climb_from_throne",
        "B8",
        "the kernel cites B6 for a climb of the candidate",
        TK,
        '("B8", "nothing is above the throne", both([climb, m.mine == top])),',
        '("B6", "nothing is above the throne", both([climb, m.mine == top])),',
    ),
    M(
        "throne.kernel.climb_while_placing",
        "B6",
        "the kernel lets a character climb while placing",
        TK,
        '("B6", "no climbing while placing", both([climb, p.placing])),',
        '("B6", "no climbing while placing", both([climb, p.placing, p.over])),',
    ),
    M(
        "throne.kernel.climb_in_election",
        "B11",
        "the kernel lets a character climb during an election",
        TK,
        '("B11", "no climbing during an election", both([climb, p.electing])),',
        '("B11", "no climbing during an election", both([climb, p.electing, p.over])),',
    ),
    M(
        "throne.kernel.eliminated_climbs",
        "B13",
        "the kernel cites B8 for the climb of an eliminated character",
        TK,
        '("B13", "an eliminated character has left", both([climb, m.mine == ELIMINATED])),',
        '("B8", "an eliminated character has left", both([climb, m.mine == ELIMINATED])),',
    ),
    M(
        "throne.kernel.climb_into_full",
        "B8",
        "the kernel lets a character climb into a full floor",
        TK,
        '("B8", "the floor above has room", both([climb, p.full(m.mine + 1)])),',
        '("B8", "the floor above has room", both([climb, p.full(m.mine + 2)])),',
    ),
    M(
        "throne.kernel.vote_anytime",
        "B10",
        "the kernel lets a seat vote outside an election",
        TK,
        '("B10", "votes only in an election", both([vote, o.not_(p.electing)])),',
        '("B10", "votes only in an election", both([vote, p.over])),',
    ),
    M(
        "throne.kernel.no_without_card",
        "B11",
        "the kernel lets a seat vote No without a No card",
        TK,
        '("B11", "a No needs a No card", both([m.kind == K_NO, o.select(s.no, s.turn) <= 0])),',
        '("B11", "a No needs a No card", both([m.kind == K_NO, o.select(s.no, s.turn) < 0])),',
    ),
    M(
        "throne.kernel.pass_always",
        "B8",
        "the kernel lets a seat pass without allow_pass",
        TK,
        '("B8", "passing needs allow_pass", both([pass_, p.moving, o.not_(p.opt.allow_pass)])),',
        '("B8", "passing needs allow_pass", both([pass_, p.moving, p.over])),',
    ),
    M(
        "throne.kernel.pass_while_placing",
        "B6",
        "the kernel lets a seat pass while placing",
        TK,
        '("B6", "no passing while placing", both([pass_, p.placing])),',
        '("B6", "no passing while placing", both([pass_, p.placing, p.over])),',
    ),
    M(
        "throne.kernel.pass_in_election",
        "B11",
        "the kernel lets a seat pass during an election",
        TK,
        '("B11", "no passing during an election", both([pass_, p.electing])),',
        '("B11", "no passing during an election", both([pass_, p.electing, p.over])),',
    ),
    M(
        "throne.kernel.no_leftovers",
        "B6",
        "the kernel leaves the leftover characters unplaced under equal placement",
        TK,
        "fl = tuple(o.ite(o.all([opt.equal, x == 0]), 1, x) for x in fl)",
        "fl = tuple(o.ite(o.all([opt.equal, x == 0]), 0, x) for x in fl)",
    ),
    M(
        "throne.kernel.starter_ignored",
        "B8",
        "the kernel ignores movement_starter",
        TK,
        "starter = o.ite(opt.from_first, first_player(o, shape, opt, s.rnd), p.nxt)",
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
        "no=tuple(o.ite(opt.reset, shape.full, x) for x in no),",
        "no=tuple(o.ite(opt.reset, x, x) for x in no),",
        breaks=("throne.no_cards",),
    ),
    M(
        "throne.kernel.first_player_fixed",
        "B3",
        "the kernel starts every round with seat 0",
        TK,
        "return ops.ite(options.rotates, ops.lookup(shape.first, rnd), 0)",
        "return ops.ite(options.rotates, 0, 0)",
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
        "throne.kernel.full_floor_has_room",
        "B7",
        "the kernel counts a floor at its capacity as having room",
        TK,
        "return o.select(self.on, floor) >= o.lookup(self.shape.caps, floor)",
        "return o.select(self.on, floor) > o.lookup(self.shape.caps, floor)",
        breaks=("throne.capacity", "throne.invariant"),
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
    M(
        "throne.property.round_score_weak",
        "B15",
        "property round_score weakened to 34 a round",
        TP,
        "CLAIM_ROUND_MAX = 33\n",
        "CLAIM_ROUND_MAX = 34\n",
        kind="property",
        partner="throne.table.king_eleven",
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
    M(
        "throne.property.capacity_weak",
        "B7",
        "property capacity weakened to 5 a floor",
        TP,
        "CLAIM_FLOOR = 4\n",
        "CLAIM_FLOOR = 5\n",
        kind="property",
        partner="throne.table.floor_of_five",
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
                "implies(pre.phase == MOVEMENT, self.legal(*climbs)),",
                "implies(all_of([pre.phase == MOVEMENT, any_of(f >= 1 for f in pre.fl)]), "
                "self.legal(*climbs)),",
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
        "throne.property.round_ends_with_king_weak",
        "B12",
        "property round_ends_with_king weakened (the ranking function only never falls)",
        TP,
        'out.append(("rank", _measure(s, case.post) > self.measure_pre))',
        'out.append(("rank", _measure(s, case.post) >= self.measure_pre))',
        more=(
            (
                "lambda c: _measure(s, c.post) > _measure(s, pre),",
                "lambda c: _measure(s, c.post) >= _measure(s, pre),",
            ),
        ),
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
    M(
        "throne.property.totals_weak",
        "B16",
        "property totals weakened to 0..99",
        TP,
        "CLAIM_TOTAL = (1, 99)\n",
        "CLAIM_TOTAL = (0, 99)\n",
        kind="property",
        partner="throne.table.no_bonus_round",
    ),
    # ------------------------------------------------------------- Ascent engine
    M(
        "ascent.apply_flipped_may_advance",
        "A8",
        "a flipped stack may advance (apply's A8 check removed)",
        AT,
        "        if fl >> s & 1:\n            raise IllegalMove(",
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
        "                if st and value[st[0]] < r and not flipped[q] >> d & 1:",
        "                if st and value[st[0]] <= r and not flipped[q] >> d & 1:",
    ),
    M(
        "ascent.favour_flipped",
        "A10",
        "a favour may take a flipped stack",
        AT,
        "                if st and value[st[0]] < r and not flipped[q] >> d & 1:",
        "                if st and value[st[0]] < r:",
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
        "colp[d] = taker[:m] + taken + taker[m:]",
        "colp[d] = taken + taker",
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
        "ascent.exposing_split",
        "A7",
        "a split may expose a card above its ceiling",
        AT,
        "                if s <= arr[st[i + 1]]:",
        "                if s <= arr[st[i + 1]] + 1:",
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
        "    if alive <= 1 and not t.last_player_continues:",
        "    if alive <= 0 and not t.last_player_continues:",
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
        "ascent.model_end_test_unflipped",
        "A14",
        "the model's reference end test counts every unflipped card",
        AM,
        "all_of([here, u.sq < self.arr(u)]) for here, u",
        "all_of([here, True]) for here, u",
        kind="model",
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
        "                owner = x // CARDS_PER_SET\n",
        "                owner = q\n",
    ),
    M(
        "ascent.model_favour_all_lower_ignored",
        "A10",
        "the model's favour_takes=all_lower takes any part, as the default",
        AM,
        "implies(all_of([self.o.fall, taken]), self.rank_ok(",
        "implies(all_of([self.o.fall, taken, False]), self.rank_ok(",
        kind="model",
    ),
    M(
        "ascent.model_penalty_owner_ignored",
        "A13",
        "the model's penalty_to=owner leaves removed cards on the column's pile",
        AM,
        "            col = ite(taken, p, ite(all_of([rest, self.o.pown]), u.owner, u.col))",
        "            col = ite(taken, p, u.col)",
        kind="model",
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
        "        lead = rank_card(t, part) if t.highest else st[0]\n",
        "        lead = st[0]\n",
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
        "ascent.kernel.over_ignored",
        "A14",
        "the kernel lets moves be played after the end",
        "castlerules/ascent/kernel.py",
        '("A14", "the game is not over", p.over),',
        '("A14", "the game is not over", o.lit(False)),',
    ),
    M(
        "ascent.kernel.advance_before_favour",
        "A12",
        "the kernel refuses the replay after a favour instead of the Advance before one",
        "castlerules/ascent/kernel.py",
        "both([advance, s.mid, s.sk == 0]),",
        "both([advance, s.mid, s.sk == 1]),",
    ),
    M(
        "ascent.kernel.any_column",
        "A2",
        "the kernel lets a player advance the cards of any column",
        "castlerules/ascent/kernel.py",
        "mine = both([m.present, m.col == s.actor, m.sq >= 0])",
        "mine = both([m.present, m.sq >= 0])",
    ),
    M(
        "ascent.kernel.flipped_moves",
        "A8",
        "the kernel does not refuse a flipped card for being flipped",
        "castlerules/ascent/kernel.py",
        '("A8", "a flipped card never moves", both([advance, m.flp])),',
        '("A8", "a flipped card never moves", both([advance, m.flp, m.sq == 0])),',
    ),
    M(
        "ascent.kernel.no_free_square",
        "A6",
        "the kernel lets a card advance with no free square under its ceiling",
        "castlerules/ascent/kernel.py",
        "both([advance, o.not_(o.select(b.reach, m.k))]),",
        "both([advance, o.not_(o.select(b.reach, m.k)), m.sq < 0]),",
    ),
    M(
        "ascent.kernel.exposing_allowed",
        "A7",
        "the kernel lets a split expose a card above its arrival square",
        "castlerules/ascent/kernel.py",
        "both([advance, o.select(b.exposed, m.k)]),",
        "both([advance, o.select(b.exposed, m.k), m.sq < 0]),",
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
        '("A11", "a favour follows an Advance", both([favour, o.not_(s.mid)])),',
        '("A11", "a favour follows an Advance", both([favour, o.not_(s.mid), s.sk > 0])),',
    ),
    M(
        "ascent.kernel.one_favour_too_many",
        "A10",
        "the kernel allows one favour more than favours_per_move",
        "castlerules/ascent/kernel.py",
        "both([favour, s.sk >= opt.limit])",
        "both([favour, s.sk > opt.limit])",
    ),
    M(
        "ascent.kernel.other_row_cites_a10",
        "A11",
        "the kernel cites A10 for a favour of a card on a row where the mover has a stack",
        "castlerules/ascent/kernel.py",
        "both([favour, o.not_(found), elsewhere_own]),",
        "both([favour, o.not_(found), elsewhere_own, found]),",
    ),
    M(
        "ascent.kernel.favour_from_start",
        "A10",
        "the kernel lets a favour take a card from a Start",
        "castlerules/ascent/kernel.py",
        "both([favour, o.not_(found)])),",
        "both([favour, o.not_(found), m.sq >= 1])),",
    ),
    M(
        "ascent.kernel.favour_takes_flipped",
        "A10",
        "the kernel lets a favour take a flipped stack",
        "castlerules/ascent/kernel.py",
        '("A10", "flipped cards are never taken", both([favour, m.flp])),',
        '("A10", "flipped cards are never taken", both([favour, m.flp, m.sq == 0])),',
    ),
    M(
        "ascent.kernel.favour_takes_equal",
        "A10",
        "the kernel lets a favour take a stack of equal rank",
        "castlerules/ascent/kernel.py",
        "both([favour, o.select(b.stack_rank, m.k) >= p.taker])",
        "both([favour, o.select(b.stack_rank, m.k) > p.taker])",
    ),
    M(
        "ascent.kernel.flipped_never_takes",
        "A10",
        "the kernel refuses every favour of a just-flipped stack, favour_after_arrival or not",
        "castlerules/ascent/kernel.py",
        "both([favour, o.not_(opt.after_arrival), p.taker_flipped]),",
        "both([favour, p.taker_flipped]),",
    ),
    M(
        "ascent.kernel.all_lower_top_only",
        "A10",
        "under favour_takes=all_lower the kernel checks only a take of one card",
        "castlerules/ascent/kernel.py",
        "both([favour, opt.all_lower, bad_taken]),",
        "both([favour, opt.all_lower, bad_taken, m.dep == 0]),",
    ),
    M(
        "ascent.kernel.end_anytime",
        "A3",
        "the kernel lets a turn end before its Advance",
        "castlerules/ascent/kernel.py",
        '("A3", "a turn ends only after an Advance", both([end, o.not_(s.mid)])),',
        '("A3", "a turn ends only after an Advance", both([end, o.not_(s.mid), s.sk > 0])),',
    ),
    M(
        "ascent.kernel.ceiling_off_by_one",
        "A6",
        "the kernel's destination may lie one square above the leader's ceiling",
        "castlerules/ascent/kernel.py",
        "                        d <= c,\n",
        "                        d <= c + 1,\n",
    ),
    M(
        "ascent.kernel.no_jump",
        "A3",
        "the kernel's Advance goes to the next square only, never jumping",
        "castlerules/ascent/kernel.py",
        "                        d > sq[k],\n",
        "                        d == sq[k] + 1,\n",
    ),
    M(
        "ascent.kernel.flipped_square_occupied",
        "A9",
        "the kernel's arrival square holding flipped cards is occupied for its own rank",
        "castlerules/ascent/kernel.py",
        "o.all([o.select(flipped_at[d], col[k]), d == c]),",
        "o.all([o.select(flipped_at[d], col[k]), d == c, d < 0]),",
    ),
    M(
        "ascent.kernel.no_flip",
        "A8",
        "the kernel's Advance never flips the moving part on arrival",
        "castlerules/ascent/kernel.py",
        "    flip = d == o.select(b.ceil, m.k)\n    size = m.dep + 1\n",
        "    flip = d == o.select(b.ceil, m.k) + 1\n    size = m.dep + 1\n",
    ),
    M(
        "ascent.kernel.part_by_its_card",
        "A7",
        "the kernel's moving part acts with the moved card's rank, not its leader's",
        "castlerules/ascent/kernel.py",
        "o.ite(opt.highest, highest_of(o, [(part[k][j], value[j]) for j in slots]), top_value[k])",
        "o.ite(opt.highest, highest_of(o, [(part[k][j], value[j]) for j in slots]), value[k])",
    ),
    M(
        "ascent.kernel.highest_of_stack",
        "A3",
        "under stack_rank=highest the kernel's part acts with the whole stack's highest rank",
        "castlerules/ascent/kernel.py",
        "highest_of(o, [(part[k][j], value[j]) for j in slots])",
        "highest_of(o, [(stk[k][j], value[j]) for j in slots])",
    ),
    M(
        "ascent.kernel.remainder_top_wrong",
        "A7",
        "the kernel reads the remainder's top one card too low",
        "castlerules/ascent/kernel.py",
        "dep[j] == dep[k] + 1]",
        "dep[j] == dep[k] + 2]",
    ),
    M(
        "ascent.kernel.exposing_option_ignored",
        "A7",
        "the kernel ignores allow_exposing_split",
        "castlerules/ascent/kernel.py",
        "                    o.not_(opt.exposing),\n",
        "                    o.lit(True),\n",
    ),
    M(
        "ascent.kernel.taken_on_top",
        "A10",
        "the kernel puts the taken cards on top of the moved stack, not under it",
        "castlerules/ascent/kernel.py",
        "                s.sm + s.dep[j],\n",
        "                s.dep[j],\n",
    ),
    M(
        "ascent.kernel.taken_stay_unflipped",
        "A8",
        "the kernel leaves the cards a just-flipped stack takes unflipped",
        "castlerules/ascent/kernel.py",
        "flp.append(o.ite(in_taken, p.taker_flipped, s.flp[j]))",
        "flp.append(o.ite(in_taken, False, s.flp[j]))",
    ),
    M(
        "ascent.kernel.removal_on_arrival_square",
        "A13",
        "the kernel removes a remainder whose top stands on its own arrival square",
        "castlerules/ascent/kernel.py",
        "            d > o.lookup(shape.ceiling, rest_rank),\n",
        "            d >= o.lookup(shape.ceiling, rest_rank),\n",
    ),
    M(
        "ascent.kernel.upper_half_off",
        "A13",
        "the kernel's upper half starts one square higher",
        "castlerules/ascent/kernel.py",
        "o.any([opt.removal_lower, d >= shape.upper_half]),",
        "o.any([opt.removal_lower, d > shape.upper_half]),",
    ),
    M(
        "ascent.kernel.harsh_ignored",
        "A13",
        "the kernel ignores removal_in_lower_half",
        "castlerules/ascent/kernel.py",
        "o.any([opt.removal_lower, d >= shape.upper_half]),",
        "o.any([d >= shape.upper_half]),",
    ),
    M(
        "ascent.kernel.penalty_owner_ignored",
        "A13",
        "the kernel ignores penalty_to=owner",
        "castlerules/ascent/kernel.py",
        "o.ite(leaves, o.ite(opt.to_owner, shape.owner[j], s.col[j]), s.col[j]),",
        "o.ite(leaves, s.col[j], s.col[j]),",
    ),
    M(
        "ascent.kernel.favour_after_arrival_ignored",
        "A10",
        "the kernel offers a favour to a just-flipped stack under favour_after_arrival=False",
        "castlerules/ascent/kernel.py",
        "o.any([opt.after_arrival, o.not_(flip)]),",
        "o.lit(True),",
    ),
    M(
        "ascent.kernel.favours_not_counted",
        "A10",
        "the kernel does not count the favours taken since the Advance",
        "castlerules/ascent/kernel.py",
        "        sk=s.sk + 1,\n",
        "        sk=s.sk,\n",
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
        "ascent.kernel.arrival_square_unreached",
        "A14",
        "the kernel's end test counts a card on its own arrival square as unreached",
        "castlerules/ascent/kernel.py",
        "live[j], s.sq[j] < shape.arrival[j]]",
        "live[j], s.sq[j] <= shape.arrival[j]]",
    ),
    M(
        "ascent.kernel.unflipped_read_as_unreached",
        "A14",
        "the kernel reads end_test=unflipped as unreached",
        "castlerules/ascent/kernel.py",
        "o.ite(opt.end_test == 1, unflipped[q], b.advances[q])",
        "o.ite(opt.end_test == 1, unreached[q], b.advances[q])",
    ),
    M(
        "ascent.kernel.can_move_read_as_unflipped",
        "A14",
        "the kernel reads end_test=can_move as unflipped",
        "castlerules/ascent/kernel.py",
        "o.ite(opt.end_test == 1, unflipped[q], b.advances[q])",
        "o.ite(opt.end_test == 1, unflipped[q], unflipped[q])",
    ),
    M(
        "ascent.kernel.last_player_stops",
        "A14",
        "the kernel ignores last_player_continues",
        "castlerules/ascent/kernel.py",
        "[o.all([o.not_(opt.continues), o.count(race) <= 1]),",
        "[o.all([o.count(race) <= 1]),",
    ),
    M(
        "ascent.kernel.never_stuck",
        "A14",
        "the kernel's game does not end when no player has a legal Advance",
        "castlerules/ascent/kernel.py",
        "o.not_(o.any(list(b.advances)))]",
        "o.lit(False)]",
    ),
    M(
        "ascent.kernel.no_skip",
        "A14",
        "the kernel passes the turn to the next seat even if it has no Advance",
        "castlerules/ascent/kernel.py",
        "found = o.first([o.select(b.advances, seat) for seat in after])",
        "found = o.lit(0)",
    ),
    M(
        "ascent.kernel.arrival_scores_minus",
        "A15",
        "the kernel scores a card on its arrival square minus its value",
        "castlerules/ascent/kernel.py",
        "o.ite(s.sq[j] >= shape.arrival[j], shape.value[j], -shape.value[j]),",
        "o.ite(s.sq[j] > shape.arrival[j], shape.value[j], -shape.value[j]),",
    ),
    M(
        "ascent.kernel.removed_score_nothing",
        "A16",
        "the kernel's removed cards cost nothing",
        "castlerules/ascent/kernel.py",
        "                    s.col[j] == q,\n",
        "                    o.all([s.col[j] == q, s.sq[j] >= 0]),\n",
    ),
    M(
        "ascent.kernel.die_ignored",
        "A18",
        "the kernel lets the die decide under die=none",
        "castlerules/ascent/kernel.py",
        "actor=ops.ite(options.die_none, 0, roll),",
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
    # ---------------------------------------------------------- Ascent model
    M(
        "ascent.model.turn_reversed",
        "A3",
        "the model's turn order reversed",
        AM,
        "                q = (me + k) % n",
        "                q = (me - k) % n",
        kind="model",
        issue=True,
    ),
    M(
        "ascent.model.favour_flipped",
        "A8",
        "the model lets a favour take a flipped stack",
        AM,
        'return True if self.p.mutation == "favour_flipped" else neg(u.flp)',
        "return True",
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
                'return low <= high if self.p.mutation == "favour_equal_rank" else low < high',
                "return low <= high",
            ),
        ),
        breaks=("ascent.flipped",),
    ),
    M(
        "ascent.model.top_above_ceiling",
        "A6",
        "the model's invariant lets a stack's top stand one square above its ceiling",
        AM,
        "implies(all_of([path, u.dep == 0, u.sq > self.arr(u)]), self.excused(u)),",
        "implies(all_of([path, u.dep == 0, u.sq > self.arr(u) + 1]), self.excused(u)),",
        kind="model",
        breaks=("ascent.ceiling",),
    ),
    M(
        "ascent.model.ceiling_off_by_one",
        "A6",
        "the model's ceiling off by one",
        AM,
        "d <= self.arr(lead),  # A6: not above the leader's ceiling",
        "d <= self.arr(lead) + 1,  # A6: not above the leader's ceiling",
        kind="model",
        breaks=("ascent.invariant",),
    ),
    # ------------------------------------------------------ Ascent properties
    M(
        "ascent.property.flipped_weak",
        "A8",
        "property flipped weakened (column not checked)",
        AP,
        "implies(c.flp, all_of([after.col == c.col, after.sq == c.sq, after.flp])),",
        "implies(c.flp, all_of([after.sq == c.sq, after.flp])),",
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
                "exposed = all_of([t.on_path(), t.dep == 0, t.sq > m.arr(t)])",
                "exposed = all_of([t.on_path(), t.dep == 0, t.sq > m.arr(t) + 1])",
            ),
        ),
        kind="property",
        partner="ascent.model.top_above_ceiling",
        issue=True,
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
}
"""Why a mutation survives, where that is understood (shown on the docs page)."""
