"""The seed clauses of both games: stable IDs, the French text, an English rendering.

Every rule check in the engines cites one of these IDs; so do the errors they
raise, the tests that cover them, the proofs and the documentation.  The
French text of each clause is an exact excerpt of the user's seed (kept in
``docs/seeds/``); ``tests/core/test_clauses.py`` checks that it still is.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

import attrs


@attrs.frozen(slots=True)
class Clause:
    """One clause of a seed: its stable ID, the French text, and English."""

    id: str
    game: str
    french: str
    english: str
    summary: str

    def __str__(self) -> str:
        return f"{self.id}: {self.summary}"


_ALL: tuple[Clause, ...] = (
    Clause(
        id="B1",
        game="throne",
        french="Le plateau de jeu représente un château de sept étages. Au septième et dernier étage se trouve le trône tant convoité.",
        english="A castle of seven floors; the throne is the seventh.",
        summary="Seven floors; the throne is the 7th.",
    ),
    Clause(
        id="B2",
        game="throne",
        french="* 6ème étage : nobles\n* 5ème étage : dignitaires\n* 4ème étage : officiers\n* 3ème étage : marchands\n* 2ème étage : artisans\n* 1ème étage : servants",
        english="Floors 1 to 6 are servants, craftsmen, merchants, officers, dignitaries and nobles.",
        summary="Floors 1 servants, 2 craftsmen, 3 merchants, 4 officers, 5 dignitaries, 6 nobles, 7 throne.",
    ),
    Clause(
        id="B3",
        game="throne",
        french="Le jeu se joue en trois manches.",
        english="The game is played in three rounds.",
        summary="Three rounds.",
    ),
    Clause(
        id="B4",
        game="throne",
        french="En début de manche les joueurs reçoivent une carte « objectif (secret) » où est indiquée leurs six personnages favoris.",
        english="At the start of each round every player receives a secret objective card naming six favourite characters.",
        summary="Each round each player gets a secret objective of 6 favourite characters.",
    ),
    Clause(
        id="B5",
        game="throne",
        french='Le but du jeu est de faire en sorte que ses "poulains" se trouvent le plus haut dans le château en fin de manche. Les joueurs peuvent avoir des favoris identiques.',
        english="Get your favourites as high as possible in the castle by the end of the round; players may share favourites.",
        summary="Score by how high your favourites are; players may share favourites.",
    ),
    Clause(
        id="B6",
        game="throne",
        french="Au début de chaque manche les joueurs à tour de rôle placent un personnage dans le château (seulement dans les cinq premiers étages).",
        english="At the start of each round the players in turn place one character each in the castle, on the first five floors only.",
        summary="Placement phase, in turn, on placement_floors only (by default floors 1-5).",
    ),
    Clause(
        id="B7",
        game="throne",
        french="Il ne peut y avoir plus de quatre prétendants dans un même étage.",
        english="A floor never holds more than four characters.",
        summary="At most 4 characters on a floor.",
    ),
    Clause(
        id="B8",
        game="throne",
        french="Une fois les personnages disposés, chaque joueur à tour de rôle peut faire monter un personnage d'un étage (si l'étage supérieur compte moins de quatre occupants).",
        english="Once all are placed, each player in turn moves one character up one floor, if the floor above holds fewer than four.",
        summary="Movement phase: move one character up one floor if the floor above has fewer than 4.",
    ),
    Clause(
        id="B9",
        game="throne",
        french="Il est interdit de faire descendre un personnage.",
        english="A character never moves down.",
        summary="No character ever moves down.",
    ),
    Clause(
        id="B10",
        game="throne",
        french="Dès qu'un personnage monte de l'étage des nobles vers celui du trône cela provoque l'élection du roi.",
        english="A character climbing from the nobles to the throne triggers the election of the king.",
        summary="A character reaching the throne triggers an election.",
    ),
    Clause(
        id="B11",
        game="throne",
        french='Chaque joueur vote alors pour accepter ou non le candidat (le candidat étant celui qui se situe au septième étage). Tous les joueurs doivent secrètement choisir une carte vote "oui" ou une carte vote "non" (attention chaque joueur ne détient qu\'un nombre limité de cartes "non" et celles-ci sont défaussées après usage). Les cartes sont dévoilées simultanément :',
        english="Every player secretly plays a Yes or a No card; No cards are limited and discarded once used; votes are revealed together.",
        summary="Secret Yes/No vote; No cards are limited and discarded once used.",
    ),
    Clause(
        id="B12",
        game="throne",
        french='si tous les votes sont "oui" le roi est élu et la manche se termine.',
        english="If every vote is Yes the candidate is crowned and the round ends.",
        summary="All Yes: king elected, round ends.",
    ),
    Clause(
        id="B13",
        game="throne",
        french='S\'il y a même seulement un seul vote "non" le personnage en plus de ne pas être élu, est éliminé. Une fois le pion personnage écarté du plateau le jeu peut reprendre.',
        english="A single No vote eliminates the candidate from the castle, and play resumes.",
        summary="Any No: the candidate is eliminated, play resumes.",
    ),
    Clause(
        id="B14",
        game="throne",
        french="A chaque fin de manche on effectue un décompte.\nTous les joueurs révèlent leur objectif et marque des points en fonction de la position de leurs personnages.\n* 10 points pour un personnage à l'étage du roi.\n* 5 points pour un personnage à l'étage des nobles\n* 4 points pour un personnage à l'étage des dignitaires\n* 3 points pour un personnage à l'étage des officiers\n* 2 points pour un personnage à l'étage des marchands\n* 1 point pour un personnage à l'étage des artisans\n* 0 point pour un personnage à l'étage des servants",
        english="At the end of each round every player reveals the objective and scores 10/5/4/3/2/1/0 points for each favourite on the throne, nobles ... servants floor.",
        summary="Round scoring by floor of each favourite.",
    ),
    Clause(
        id="B15",
        game="throne",
        french="Attention : au troisième et dernier décompte si un joueur marque 0 point et bien il en marque en réalité 33, c'est à dire le maximum que l'on puisse faire",
        english="In the third and last scoring, a player who scores 0 points scores 33 instead, the maximum possible.",
        summary="In the third scoring, a round score of 0 counts as 33.",
    ),
    Clause(
        id="B16",
        game="throne",
        french="Celui qui possède le plus de points à la fin du dernier décompte est le grand vainqueur.",
        english="The player with the most points after the last scoring wins.",
        summary="Highest total after the third round wins.",
    ),
    Clause(
        id="A1",
        game="ascent",
        french="Les cartes personnage doivent être déplacées de leurs cases Départ à leurs cases arrivée. C’est une concurrence acharnée entre les différents personnages pour les meilleures positions. A la fin, les valeurs des cartes sur leurs cases d’arrivée déterminent qui a gagné.",
        english="Cards travel from their Start squares to their arrival squares; at the end the values of cards on arrival squares decide the winner.",
        summary="Cards travel from Start to their arrival squares.",
    ),
    Clause(
        id="A2",
        game="ascent",
        french="Chaque joueur se voit attribuer une colonne de cases sur laquelle il déplace ses personnages.",
        english="Each player is given a column of squares and moves their characters only there.",
        summary="Each player owns one column and moves only there.",
    ),
    Clause(
        id="A3",
        game="ascent",
        french="A son tour un joueur déplace une pile entière ou seulement une partie à la prochaine case plus élevée si elle est libre ou saute directement par-dessus des cases occupées à la prochaine case libre adjacente.",
        english="On their turn a player moves a whole stack, or only part of it, to the next higher square if it is free, or jumps straight over occupied squares to the next free one.",
        summary="A move takes a whole stack or part of it to the next higher free square, jumping over occupied squares.",
    ),
    Clause(
        id="A4",
        game="ascent",
        french="Tout le monde aspire à des positions plus élevées. Par conséquent, les personnages se déplacent toujours vers le haut.",
        english="Characters always move up.",
        summary="Moves only go up.",
    ),
    Clause(
        id="A5",
        game="ascent",
        french="Le chemin à parcourir pour un personnage est de 7 cases.",
        english="A character's path is seven squares long.",
        summary="The path has 7 squares.",
    ),
    Clause(
        id="A6",
        game="ascent",
        french="Aucun personnage ne peut se déplacer sur une case supérieure à sa case d’arrivée.",
        english="No character may move onto a square above its arrival square.",
        summary="Ceiling: no character moves above its arrival square.",
    ),
    Clause(
        id="A7",
        game="ascent",
        french="Cependant, un personnage déplacé à l'intérieur d'une pile peut aller plus haut dès lors qu’il est sous la protection d’un personnage de rang supérieur de la pile.",
        english="However, a character moved inside a stack may go higher while a higher-ranked character of the stack protects it.",
        summary="Protection: inside a stack, under a higher-rank character.",
    ),
    Clause(
        id="A8",
        game="ascent",
        french="Des cartes ou des piles qui ont atteint leur case d’arrivée de but sont retournées. Elles ne peuvent plus être déplacées.",
        english="Cards or stacks that reach their arrival square are flipped and never move again.",
        summary="Reaching the arrival square flips the cards; flipped cards never move again.",
    ),
    Clause(
        id="A9",
        game="ascent",
        french="Des cases d’arrivée avec des cartes retournées sont considérées libres pour les personnages de même rang et occupées pour des personnages de classe plus élevée.",
        english="An arrival square holding flipped cards is free for characters of the same rank and occupied for higher ranks.",
        summary="A flipped arrival square is free for the same rank, occupied for higher ranks.",
    ),
    Clause(
        id="A10",
        game="ascent",
        french="Il est dans l’intérêt d’un joueur de s’occuper des personnages adverses, pour les convertir en sa faveur. Si à la fin de son mouvement, on a des cartes ou des piles de cartes d’un rang inférieur dans une autre colonne mais sur la même rangée, on peut prendre ces cartes sous son contrôle en les mettant sous sa carte ou sa pile.",
        english="After a move, cards or stacks of lower rank on the same row of another column may be taken under your moved card or stack.",
        summary="Favour: take lower-rank cards on the same row of another column, under your moved stack.",
    ),
    Clause(
        id="A11",
        game="ascent",
        french="On ne peut faire cette faveur qu’avec la carte ou la pile que l’on vient de déplacer.",
        english="Only the card or stack just moved can do the favour.",
        summary="Only the card or stack just moved does the favour.",
    ),
    Clause(
        id="A12",
        game="ascent",
        french="Ensuite, on peut rejouer immédiatement si on le désire.",
        english="After a favour the player may play again at once.",
        summary="After a favour the player may play again.",
    ),
    Clause(
        id="A13",
        game="ascent",
        french="Si, dans la moitié supérieure du plateau, seule une partie d'une pile est prise par un autre joueur et que le personnage au sommet de la pile restante se trouve en position plus haute que sa classe ne le permet, toute la pile est retirée du plateau et placée devant leur propriétaire. Dans le compte final, la valeur des cartes sera soustraite des points.",
        english="In the upper half, if only part of a stack is taken and the top of the rest stands higher than its rank allows, the whole rest leaves the board and its value is subtracted from its owner's score.",
        summary="Upper half: an exposed remainder above its ceiling is removed as a penalty.",
    ),
    Clause(
        id="A14",
        game="ascent",
        french="Le jeu finit quand il ne reste qu’un joueur dont les personnages peuvent se déplacer tandis que les personnages des autres joueurs ont atteint leurs cases d’arrivée.",
        english="The game ends when only one player's characters can still move and every other player's characters have arrived.",
        summary="End of game.",
    ),
    Clause(
        id="A15",
        game="ascent",
        french="Les valeurs de toutes les cartes qui ont atteint leur but, ou se sont déplacées au-delà à l'intérieur d'une pile, comptent comme points de victoire.",
        english="Cards on or above their arrival square, the latter inside a stack, score their value.",
        summary="Cards at or above their arrival square score their value.",
    ),
    Clause(
        id="A16",
        game="ascent",
        french="Les valeurs de toutes les cartes qui n'ont pas atteint leur but ou qui ont été défaussées comptent comme pénalités.",
        english="Cards below their arrival square, and discarded cards, score minus their value.",
        summary="Cards below arrival, and removed cards, score minus their value.",
    ),
    Clause(
        id="A17",
        game="ascent",
        french="Le joueur avec le plus de points a gagné.",
        english="The player with the most points wins.",
        summary="Most points wins.",
    ),
    Clause(
        id="A18",
        game="ascent",
        french="1 dé\n36 cartes personnages, 6 pour chaque valeur (Prince, Evêque, Dame, Charlatan, Troubadour, Cracheur de feu).",
        english="Material: one die and 36 character cards, six of each of six values.",
        summary="Material: one die; 36 cards, six of each of six ranks.",
    ),
)

CLAUSES: Mapping[str, Clause] = MappingProxyType({c.id: c for c in _ALL})
"""Every clause of both games, by ID (``"A1"`` .. ``"A18"``, ``"B1"`` .. ``"B16"``)."""


def clause(clause_id: str) -> Clause:
    """Return the clause with this ID; ``KeyError`` names the known IDs."""
    try:
        return CLAUSES[clause_id]
    except KeyError:
        known = ", ".join(CLAUSES)
        raise KeyError(f"unknown clause {clause_id!r}; known clauses: {known}") from None


def clauses_of(game: str) -> tuple[Clause, ...]:
    """The clauses of one game (``"throne"`` or ``"ascent"``), in seed order."""
    return tuple(c for c in _ALL if c.game == game)
