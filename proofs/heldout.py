"""A held-out set of mutations: mistakes planted where no earlier list looked, each of
which must die (``python -m proofs.mutants --held-out``).

Issue 47 asked that mutations the project had not seen, planted one at a time in the
properties, in the casebook's citations and in the adapters' tensors, be killed by
some layer.  These were written after the counter-witnesses
(:mod:`proofs.strength`), the citation check (:func:`castlerules.casebook.check.verify`)
and the tensors' read-back tests, without running them first:

- properties weakened (kind ``bound``: the proof run must fail, through the
  counter-witnesses): a No count may rise by one within a round (B11), Ascent's score
  bound tripled (A17), a flipped card may change square (A8);
- the casebook citing a neighbour clause (kind ``module``, killed by the casebook's
  tests): the secret vote citing B10 for B11, the refusal of a No without a card
  citing B10;
- the adapters' tensors (kind ``module``, killed by the adapters' tests): Throne's
  "who has voted" plane shifted by one seat, Ascent's favours-taken number written
  as the moved count.
"""

from __future__ import annotations

from proofs.mutation_list import Mutation

CASES = "castlerules/casebook/throne_cases.py"
NUM = "castlerules/adapters/numbering.py"
CASEBOOK_TESTS = ("tests/casebook/test_cited_clauses.py",)
ADAPTER_TESTS = (
    "tests/adapters/test_numbering.py",
    "tests/adapters/test_tensor_blocks.py",
    "tests/adapters/test_openspiel.py",
)

HELD_OUT: tuple[Mutation, ...] = (
    Mutation(
        "throne.heldout.no_count_rises_by_one",
        "B11",
        "property no_cards weakened: within a round a No count may rise by one",
        "proofs/throne.py",
        "*(implies(same, b <= a) for a, b in zip(pre.no, post.no, strict=True)),",
        "*(implies(same, b <= a + 1) for a, b in zip(pre.no, post.no, strict=True)),",
        kind="bound",
    ),
    Mutation(
        "ascent.heldout.score_bound_tripled",
        "A17",
        "property scores weakened: its bound tripled, [-63n, 63n]",
        "proofs/ascent.py",
        "bound = CLAIM_SET_VALUE * players",
        "bound = 3 * CLAIM_SET_VALUE * players",
        kind="bound",
    ),
    Mutation(
        "ascent.heldout.flipped_may_change_square",
        "A8",
        "property flipped weakened: a flipped card keeps its column, not its square",
        "proofs/ascent.py",
        "all_of([after.col == before.col, after.sq == before.sq, after.flp])",
        "all_of([after.col == before.col, after.flp])",
        kind="bound",
    ),
    Mutation(
        "casebook.heldout.secret_vote_cites_b10",
        "B11",
        "the case of the secret vote cites B10 (the election) for B11",
        CASES,
        'step("throne-secret-vote", "B11",',
        'step("throne-secret-vote", "B10",',
        kind="module",
        tests=CASEBOOK_TESTS,
    ),
    Mutation(
        "casebook.heldout.no_card_left_cites_b10",
        "B11",
        "the refusal of a No without a No card cites B10 for B11",
        CASES,
        'refusal("throne-no-card-left", "B11",',
        'refusal("throne-no-card-left", "B10",',
        kind="module",
        tests=CASEBOOK_TESTS,
    ),
    Mutation(
        "adapters.heldout.voted_plane_shifted",
        "B11",
        "Throne's tensor marks the seat after each seat that has voted",
        NUM,
        "ones += [k + seat for seat, voted in enumerate(obs.voted) if voted]",
        "ones += [k + (seat + 1) % players for seat, voted in enumerate(obs.voted) if voted]",
        kind="module",
        tests=ADAPTER_TESTS,
    ),
    Mutation(
        "adapters.heldout.favours_written_as_moved",
        "A10",
        "Ascent's tensor writes the moved count where the favours taken go",
        NUM,
        "values += [(k + squares + 2, moved), (k + squares + 3, favours)]",
        "values += [(k + squares + 2, moved), (k + squares + 3, moved)]",
        kind="module",
        tests=ADAPTER_TESTS,
    ),
)
"""The held-out mutations (see the module's documentation)."""
