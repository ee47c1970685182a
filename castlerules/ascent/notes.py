"""The interpretation notes of Ascent: each decision the seed leaves open, with its
clause, as the docs' interpretation notes print them.
"""

from __future__ import annotations

from castlerules.core.options import Note

NOTES: tuple[Note, ...] = (
    Note(
        "A2",
        "seats, columns and sets",
        "Seats are numbered 0..n-1. Seat p owns column p and set p; the sets of absent "
        "players stay out of play. A card is identified by its set (owner) and rank; "
        "whoever's column it stands in controls it, moves it and scores it.",
    ),
    Note(
        "A18",
        "the deal",
        "Seed: « 36 cartes personnages, 6 pour chaque valeur (Prince, Evêque, Dame, "
        "Charlatan, Troubadour, Cracheur de feu) » and « Chaque joueur se voit attribuer une "
        "colonne de cases sur laquelle il déplace ses personnages. » Nothing says each "
        "player receives one card of each rank. deal='sets' (default, spec rule 1): one set "
        "per player (the same six ranks, worth 21), absent players' sets out of play. "
        "deal='shuffled': the cards of the six sets are shuffled by the game's seed (chance "
        "stream 'ascent.deal', apart from the die's) and dealt in blocks, 36//n cards to "
        "each seat in order; the cards left over (one with 5 players, who get 7 each) stay "
        "out of play. A player may then hold two cards of a rank, and each player's total "
        "value is a chance outcome: the score bounds follow the deal (at most the value "
        "dealt to the seat, plus what it captures), and the termination bound counts 36//n "
        "cards per seat. A card is still named by its set and rank (the set is the card's "
        "identity, no longer its owner); state.owners and owner_of(state, card) give the "
        "seat dealt each card, and the position notation gains a fifth field, the deal. "
        "The default stays 'sets': the spec's rule 1, and the reading under which every "
        "player's race is the same, which the seed's symmetric scoring suggests.",
        "deal",
    ),
    Note(
        "A5",
        "the path",
        "Seed: « Le chemin à parcourir pour un personnage est de 7 cases. » and « Les cartes "
        "personnage doivent être déplacées de leurs cases Départ à leurs cases arrivée. » "
        "path='shared_start' (default, spec rule 3): one Start below a column of 7 squares, "
        "the arrival squares on it, so a Fire-eater travels 2 squares and a Prince 7. "
        "path='staggered': every character travels 7 squares, from a start row of its own "
        "rank ('leurs cases Départ' in the plural), the start rows staggered like the "
        "arrival squares: the Fire-eater's is the Start, the Troubadour's row 1 ... the "
        "Prince's row 5, so the arrival squares are 7..12 of a path of 12 squares (Rules("
        "path='staggered') reads the shared Start's geometry so; another one given is kept, "
        "each rank starting at its arrival square less the Fire-eater's). Where the seed is "
        "silent we chose: a start row is the Start of its rank, beside the column, not a "
        "square of the path: it holds any number of single cards, blocks no square, is no "
        "row for favours, and its cards count as Start cards (minus their value, still in "
        "the race); a card leaves it for the first free square above it (A3); the upper half "
        "is the path's top six squares, 7..12 (as 4..7 of 7). Stacks and favours then form "
        "among ranks whose start rows are near, and a Prince races as far as a Fire-eater. "
        "The proofs' symbolic model reads the shared Start only: under 'staggered' the "
        "engine is tied to the kernel on every position of small games (python -m "
        "proofs.equivalence), and the invariants are not proved.",
        "path",
    ),
    Note(
        "A12",
        "one replay per turn",
        "Seed: « On ne peut faire cette faveur qu’avec la carte ou la pile que l’on vient de "
        "déplacer. Ensuite, on peut rejouer immédiatement si on le désire. » "
        "replays_per_turn=None (default, spec rule 16): after each favour the player may "
        "Advance again, and after a favour of that Advance again, with no bound but the "
        "favours the board offers: 'rejouer' read as a right each favour gives. "
        "replays_per_turn=1: once per turn ('on peut rejouer' read as one more move); after "
        "the favours of that replay the turn ends, and a further Advance is refused citing "
        "A12. An integer k allows k. A position then counts the replays of its turn (the "
        "turn field of the notation gains a fifth number once there is one). The default "
        "keeps the reading of the spec's rule 16, under which every favour earns its "
        "replay.",
        "replays_per_turn",
    ),
    Note(
        "A8",
        "a card left uncovered on its arrival square",
        "Seed: « Des cartes ou des piles qui ont atteint leur case d’arrivée de but sont "
        "retournées. Elles ne peuvent plus être déplacées. » A card can stand on its own "
        "arrival square unflipped: carried there under a higher card (A7), then left "
        "there when that card moves on (a split) or is taken with the cards above it (a "
        "favour). flip_uncovered=False (default, spec rule 12): only a part that lands on "
        "the arrival square of the rank it acts with turns over; the card left there has "
        "'reached' it for the score and the end test (A15, rule 18) but stays unflipped: it "
        "may move on, a favour may take it, and it holds the square against its own rank "
        "(A9 frees only a square holding flipped cards). flip_uncovered=True: the stack left "
        "uncovered on the arrival square of the rank it acts with turns over there, as if it "
        "had just arrived ('ont atteint ... sont retournées' read of any card that stands on "
        "its arrival square, not only of one that moves onto it); it never moves again and "
        "its square becomes free for its rank. The default keeps the flip an effect of "
        "arriving, as the seed's sentence follows the one on moving.",
        "flip_uncovered",
    ),
    Note(
        "A18",
        "what the die decides",
        "Seed: « 1 dé » (the material; no rule says what it decides). The die decides the first "
        "player only. It is rolled (seeded chance, stream "
        "'ascent.die') until it shows a face 1..n; seat face-1 begins. With six players "
        "one roll always suffices. new_game(first_player=...) overrides the roll; "
        "die='none' lets seat 0 begin.",
        "die",
    ),
    Note(
        "A3",
        "turn order",
        "Turns pass by increasing seat, cyclically, from the first player.",
    ),
    Note(
        "A3",
        "acting out of turn",
        "A move given for a seat that is not the seat to act is refused citing A3 "
        "('A son tour un joueur deplace'), the clause that sets whose turn it is.",
    ),
    Note(
        "A6",
        "arrival squares strictly increase with rank",
        "Seed: « Aucun personnage ne peut se déplacer sur une case supérieure à sa case "
        "d’arrivée. » The arrival option must be strictly increasing in rank: then a higher "
        "ceiling "
        "means a higher rank (A7's protection), and each arrival square belongs to one "
        "rank only (A9).",
        "arrival",
    ),
    Note(
        "A6",
        "no free square under the ceiling",
        "If every square from c's square up to the leader's arrival square is occupied "
        "(or the path ends), c has no move; the refusal cites A6 since the next free "
        "square would lie above the ceiling. It names what occupies each of those squares: "
        "the stack on it, flipped or not, and the clause that makes it occupied (A3: a "
        "square holding a stack is occupied; A9: the leader's own arrival square is free "
        "only when the cards on it are flipped, and a flipped arrival square of a lower "
        "rank is occupied for higher ranks). A leader that already stands above its "
        "ceiling (an exposed remainder in the lower half) can never move again.",
    ),
    Note(
        "A7",
        "protection reading",
        "Seed: « un personnage déplacé à l'intérieur d'une pile peut aller plus haut dès lors "
        "qu’il est sous la protection d’un personnage de rang supérieur de la pile ». "
        "The moving part is bound by its leader's ceiling only (protection=True). "
        "protection=False is the wrong, strict reading where every card of the moving "
        "part is bound by its own ceiling; it exists for the proofs' sensitivity tests.",
        "protection",
    ),
    Note(
        "A7",
        "exposing split when allowed",
        "Seed: « dès lors qu’il est sous la protection d’un personnage de rang supérieur de "
        "la pile ». With allow_exposing_split=True, a split may leave a card above its ceiling on "
        "top of the remainder; the remainder stays where it is in either half (A13 only "
        "removes what a take by another player exposes).",
        "allow_exposing_split",
    ),
    Note(
        "A5",
        "length of the path",
        "Seed: « Le chemin à parcourir pour un personnage est de 7 cases. » "
        "The squares option is not in the spec: it sets the number of path squares "
        "above the Start (6..20), for variants and for the proofs' small models. The "
        "default 7 is A5 ('le chemin ... est de 7 cases'); the arrival squares and "
        "upper_half must lie on the path (1..squares).",
        "squares",
    ),
    Note(
        "A8",
        "a card left on its own arrival square",
        "A card reaches its own arrival square unflipped when it gets there other than as "
        "a leader: inside a moving part that lands short of its leader's arrival square, "
        "or taken as a favour by an unflipped stack; a split may then leave it uncovered "
        "there. It stays unflipped (A8 flips a moving part on its leader's arrival square "
        "only). Uncovered, it cannot advance (its next square is above its ceiling, A6) "
        "and it blocks that rank's arrival square in its column, since A9 frees the square "
        "only for flipped cards. It may still be taken as a favour, has reached its square "
        "for the end of the game (A14, end_test='unreached'; under end_test='unflipped' it "
        "keeps its player in the race), and scores plus its value (A15).",
    ),
    Note(
        "A8",
        "flipped stacks are all flipped",
        "A stack is either wholly flipped or not at all: a part landing on flipped cards "
        "is flipped, and taken cards are flipped with a just-flipped taker (rule 14).",
    ),
    Note(
        "A10",
        "where taken cards go",
        "Taken cards go directly under the moved part (above any older flipped cards of "
        "that arrival square). With several favours, each take goes under the previous "
        "ones: the moved stack grows downward.",
    ),
    Note(
        "A10",
        "the Start row",
        "The Start is not a row for favours: cards on a Start are never taken (a favour "
        "there is refused citing A10).",
    ),
    Note(
        "A10",
        "choosing a favour",
        "A favour is Favour(t): t and every card above t in another column's unflipped "
        "stack on the moved stack's square, whose leader ranks lower than the moved "
        "leader. The player's own column is never a target (a refusal cites A10). A favour "
        "on a flipped stack is refused citing A10 (the favour's conditions), as is one on a "
        "leader of equal or higher rank, and one on another row where the player has no "
        "unflipped stack of its own. A favour on a row where one of the player's own "
        "unflipped stacks stands (one that did not just move, such as a stack the Advance "
        "jumped over) cites A11: only the card or stack just moved takes a favour. A "
        "favour of a card not in play (removed, of a set not dealt) is refused citing A10.",
    ),
    Note(
        "A10",
        "several favours",
        "Seed: « on peut prendre ces cartes sous son contrôle en les mettant sous sa carte ou "
        "sa pile » (how many times is not said). favours_per_move=k allows up to k favours "
        "after each Advance; None allows any "
        "number: after a favour, further favours on the same row (from any other column, "
        "including the remainder just left) stay available, by the same moved stack, "
        "until the player advances again or ends the turn. A favour beyond the limit "
        "cites A10; a favour when no stack was just moved cites A11.",
        "favours_per_move",
    ),
    Note(
        "A10",
        "favour after arrival",
        "Seed: « Si à la fin de son mouvement, on a des cartes ou des piles de cartes d’un "
        "rang inférieur dans une autre colonne mais sur la même rangée » and « Elles ne "
        "peuvent plus être déplacées. » (a favour is not a move of the taker). "
        "By default a stack that has just been flipped on arrival may take a favour; "
        "favour_after_arrival=False forbids it (a refusal cites A10).",
        "favour_after_arrival",
    ),
    Note(
        "A12",
        "ending the turn",
        "EndTurn declines: it is legal whenever a favour or a replay is available. After "
        "an Advance with no favour available the turn ends by itself; after a favour, if "
        "the player has neither another favour nor an Advance, the turn ends by itself. "
        "EndTurn at the start of a turn is refused citing A3 (a turn is a move). An "
        "Advance while a favour is pending (before any favour) is refused citing A12 "
        "(playing again comes after a favour).",
    ),
    Note(
        "A12",
        "the replay",
        "The replay after a favour may advance any stack of the player, and that Advance "
        "brings its own favour.",
    ),
    Note(
        "A13",
        "the upper half",
        "Seed: « Si, dans la moitié supérieure du plateau, seule une partie d'une pile est "
        "prise ». 'la moitié supérieure du plateau' is read on the whole board: eight rows "
        "counting "
        "the Start (0-7), whose upper half is rows 4-7 (spec rule 6), so upper_half=4. "
        "Reading it on the path alone (squares 1-7, A5), square 4 is the middle square and "
        "belongs to neither half; the upper half is then squares 5-7: upper_half=5. The "
        "two readings differ only when a take on square 4 exposes a remainder.",
        "upper_half",
    ),
    Note(
        "A13",
        "an exposed remainder in the lower half",
        "Seed: « Si, dans la moitié supérieure du plateau, seule une partie d'une pile est "
        "prise par un autre joueur ». The seed removes an exposed remainder only 'dans la "
        "moitié supérieure du plateau'; in the lower half it stays where it is (spec rule 15): "
        "its top card stands "
        "above its ceiling, so the remainder never advances again (A6), but it may still be "
        "taken as a favour. removal_in_lower_half=True (preset HARSH) removes it in both "
        "halves.",
        "removal_in_lower_half",
    ),
    Note(
        "A13",
        "who loses removed cards",
        "Seed: « toute la pile est retirée du plateau et placée devant leur propriétaire. "
        "Dans le compte final, la valeur des cartes sera soustraite des points. » "
        "penalty_to='column' (default, spec rule 15): 'leur propriétaire' is the player of "
        "the column the remainder stood in, who controls it and would have scored it: the "
        "removed cards count against that player, whoever owned them at setup. The seed "
        "gives a favour's taker 'contrôle' of the cards it takes ('prendre ces cartes sous "
        "son contrôle'), so a card changes hands with its column, and A15-A16 score every "
        "card for the player of its column; a removal ends that card's race where it stood. "
        "penalty_to='owner': 'propriétaire' read against 'contrôle', as the owner of the "
        "card's set at setup: each removed card counts against its original owner.",
        "penalty_to",
    ),
    Note(
        "A3",
        "the rank of a stack",
        "Seed: « un personnage déplacé à l'intérieur d'une pile peut aller plus haut dès lors "
        "qu’il est sous la protection d’un personnage de rang supérieur de la pile » and « des "
        "piles de cartes d’un rang inférieur ». stack_rank='top' (default, spec rules 5 and "
        "8): a stack acts with its top card, the leader: 'sous la protection' places the "
        "protector above the protected card, so a card rides above its ceiling only under a "
        "higher card, and the moving part goes where its top card may go. "
        "stack_rank='highest': 'de rang supérieur de la pile' read as any card of the stack: a "
        "moving part acts with its highest rank (its free squares, its ceiling, where it "
        "flips), every lower card of the part is protected wherever it lies in it, a "
        "remainder is exposed only above its own highest card's ceiling, and a favour "
        "compares the moved stack's highest rank with the target stack's. The proofs cover "
        "'top' only; 'highest' is checked by the engine's tests.",
        "stack_rank",
    ),
    Note(
        "A10",
        "what a favour may take",
        "Seed: « on a des cartes ou des piles de cartes d’un rang inférieur dans une autre "
        "colonne mais sur la même rangée, on peut prendre ces cartes sous son contrôle ». "
        "favour_takes='lower_top' (default, spec rule 13): a stack acts with its top card's "
        "rank (rule 5), so 'une pile de cartes d'un rang inférieur' is a stack whose top "
        "ranks lower; the favour takes any top part of it, whatever lies under that top (a "
        "Lady may take a Charlatan-topped stack holding a Lady). favour_takes='all_lower': "
        "'des cartes ... d'un rang inférieur' read card by card: only a part whose every "
        "card ranks lower than the taker's leader; the favour's card must lie above the "
        "first card that does not (a refusal cites A10).",
        "favour_takes",
    ),
    Note(
        "A14",
        "the end test",
        "Seed: « Le jeu finit quand il ne reste qu’un joueur dont les personnages peuvent se "
        "déplacer tandis que les personnages des autres joueurs ont atteint leurs cases "
        "d’arrivée. » When a turn ends, the game is over if at most one player is still in "
        "the race, or if no player has a legal Advance. end_test='unreached' (default, spec "
        "rule 18): a player is in the race while a card of their column (Start included) is "
        "not flipped and below its own arrival square. This reads the whole sentence: the "
        "others' characters « ont atteint leurs cases d’arrivée », and a card carried on or "
        "above its square has reached it, as A15 counts it (« ou se sont déplacées au-delà à "
        "l'intérieur d'une pile »), though it is not flipped and can never move again. "
        "end_test='unflipped' (the earlier reading): any unflipped card keeps its player in "
        "the race, so a player whose last unflipped card was carried past its square holds "
        "the game open, and the last real player plays on alone, which is what "
        "last_player_continues=False exists to prevent. end_test='can_move' (the most "
        "literal « peuvent se déplacer »): at most one player with a legal Advance now; a "
        "player whose unfinished cards are blocked for the moment counts as finished, though "
        "their cards have not reached their squares.",
        "end_test",
    ),
    Note(
        "A14",
        "the last player",
        "With last_player_continues=True the last player in the race plays on, alone, and "
        "the game ends only when no player has a legal Advance; end_test then has no effect "
        "(every value gives the same game). The default (False) ends the game as soon as "
        "at most one player is left in the race, as the seed says (« il ne reste qu’un "
        "joueur »).",
        "last_player_continues",
    ),
    Note(
        "A14",
        "skipping a player",
        "A player with no legal Advance is skipped when the turn passes; the skip cites "
        "A14, whose end condition implies that players who cannot move stop playing "
        "while others go on. The same player may play again if everyone else is skipped.",
    ),
    Note(
        "A1",
        "observation",
        "Ascent has no hidden information: observation(state, seat) is the state itself.",
    ),
    Note(
        "A15",
        "cards above their arrival square",
        "Every card on or above its arrival square scores its value (A15), whether a "
        "higher card protects it or it is an exposed remainder left in the lower half: "
        "in both cases it went beyond inside a stack.",
    ),
    Note(
        "A2",
        "cards that are not yours to move",
        "An Advance of a card outside the player's column (another column, removed, or "
        "of a set not in play) is refused citing A2.",
    ),
    Note(
        "A3",
        "order of the legal moves",
        "legal_moves lists the Favours (columns in seat order, each stack top first), "
        "then the Advances (Start cards in card order, then stacks from the lowest "
        "square up, top card first), then EndTurn.",
    ),
    Note(
        "A3",
        "notation of moves",
        "parse_move reads the text of a move (Advance 'L1', Favour 'xT2', EndTurn 'end') "
        "and checks it against the state, as both games do: a text that is not a move of a "
        "card in play is a NotationError; a well-formed move that is illegal here is the "
        "IllegalMove of apply, with its clause. parse_move(state, text, check=False) reads "
        "the notation only.",
    ),
)
"""Every interpretation decision where the seed and the spec are silent."""

__all__ = ["NOTES"]
