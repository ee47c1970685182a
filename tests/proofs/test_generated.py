"""The mutations generated from the kernels and the properties (proofs.generated)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from castlerules import ascent, throne
from castlerules.ascent import kernel as akernel
from castlerules.core.ops import CONCRETE
from castlerules.throne import kernel as tkernel
from proofs import generated, mutants


def _guards(game: str) -> int:
    """How many guards the kernel returns for a move (every move has the same list)."""
    if game == "throne":
        ts = tkernel.Shape.of(throne.Rules(), 3)
        tp = tkernel.Position(
            CONCRETE,
            ts,
            tkernel.Options.of(CONCRETE, ts.rules),
            tkernel.from_state(throne.new_game(3, seed=0)),
        )
        return len(tkernel.guards(tp, tkernel.decode(tp, 0)))
    shape = akernel.Shape.of(ascent.Rules(), 2)
    state = akernel.from_state(ascent.new_game(2, first_player=0))
    p = akernel.Position(CONCRETE, shape, akernel.Options.of(CONCRETE, shape.rules), state)
    return len(akernel.guards(p, akernel.decode(p, 0)))


def test_every_guard_is_removed_and_negated_and_every_mutation_applies() -> None:
    made = generated.generated(include_equivalent=True)
    assert mutants.check(made) == []
    kinds = Counter(".".join(m.id.split(".")[:3]) for m in made)
    for game in ("throne", "ascent"):
        guards = _guards(game)
        assert kinds[f"{game}.generated.guard_removed"] == guards
        assert kinds[f"{game}.generated.guard_negated"] == guards
        assert kinds[f"{game}.generated.off_by_one"] > 0
    claims = {m.old.split(" =")[0] for m in made if m.kind == "bound"}
    assert claims == {n for mod in ("throne", "ascent") for n in _claims(mod)}


def test_each_equivalent_mutation_set_aside_is_still_generated_once() -> None:
    """Every reason of :data:`proofs.generated.EQUIVALENT` names one mutation the kernels
    produce (a stale one fails), and the run leaves exactly those out."""
    made = generated.generated(include_equivalent=True)
    aside = generated.equivalent_mutations(made=made)
    assert len(aside) == len(generated.EQUIVALENT)
    assert len({m.id for m, _why in aside}) == len(aside)
    run = {m.id for m in generated.generated()}
    assert {m.id for m in made} - run == {m.id for m, _why in aside}


def _claims(game: str) -> set[str]:
    text = (generated.ROOT / generated.PROPERTY_FILES[game]).read_text(encoding="utf-8")
    return {line.split(" =")[0] for line in text.splitlines() if line.startswith("CLAIM_")}


def test_a_new_guard_is_generated_without_touching_a_list(tmp_path: Path) -> None:
    """Planted: a kernel with one more guard yields two more mutations, unedited."""
    for name in generated.KERNELS.values():
        target = tmp_path / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text((generated.ROOT / name).read_text(encoding="utf-8"))
    path = tmp_path / generated.KERNELS["throne"]
    text = path.read_text(encoding="utf-8")
    extra = '        guard("B3", "the game is not over", p.over, "throne-game-over"),\n'
    planted = '        guard("B9", "a planted guard", p.moving, "throne-planted"),\n'
    assert text.count(extra) == 1
    path.write_text(text.replace(extra, extra + planted))
    before = generated.guard_mutations("throne")
    after = generated.guard_mutations("throne", root=tmp_path)
    assert len(after) == len(before) + 2
    assert {m.what for m in after} - {m.what for m in before} == {
        "guard 'a planted guard' removed",
        "guard 'a planted guard' negated",
    }


def test_the_held_out_mutations_apply_and_cover_properties_citations_tensors() -> None:
    from proofs.heldout import HELD_OUT

    assert mutants.check(HELD_OUT) == []
    places = Counter(m.id.split(".")[0] if m.kind == "module" else "property" for m in HELD_OUT)
    assert places == {"property": 3, "casebook": 2, "adapters": 2}
    assert all(mutants.layer_order(m) == ["proofs"] for m in HELD_OUT if m.kind == "bound")
