#!/usr/bin/env node
// A Throne engine in plain JavaScript (Node, no dependency), speaking castlerules'
// conformance protocol (spec/conform.md) on standard input and output.
//
// Written from the rules pages (throne.md: the seed's clauses B1-B16 and the
// reference interpretation), not from castlerules' Python.  It plays the presets
// SEED and ORIGINAL and the options listed in SUPPORTED; any other reading is
// refused with ok:false.
//
//   node throne.js                      the engine
//   node throne.js --plant NAME[,NAME]  the engine with planted mistakes (PLANTS)
//   node throne.js --built-for ORIGINAL an engine written for one reading: it plays
//                                       ORIGINAL whatever rules it is asked for
//
// Check it:  castlerules conform throne -- node examples/engines/throne.js
"use strict";

const readline = require("node:readline");

const NAME = "throne.js 1.0";
const LETTERS = "ABCDEFGHIJKLM"; // 13 characters (rule 2)
const THRONE = 7; // the seventh floor is the throne (B1)
const NOBLES = 6;

// Planted mistakes, each against one clause, for the kit's own tests.
const PLANTS = {
  "first-player-fixed": "B3: every round is started by seat 0",
  "place-on-sixth": "B6: characters may also be placed on the nobles' floor",
  "fifth-on-a-floor": "B7: during placement a floor takes a fifth character",
  "climb-into-full": "B8: a character may climb into a floor that holds four",
  "votes-from-seat-0": "B10: the votes start at seat 0, not with the mover",
  "no-without-card": "B11: a seat with no No card left may still vote No",
  "eliminated-stays": "B13: a rejected candidate goes back to the nobles' floor",
  "nobles-score-4": "B14: a favourite on the nobles' floor scores 4, not 5",
  "no-bonus": "B15: a score of 0 in the third round stays 0",
  "tie-to-lowest-seat": "B16: a tie is won by the lowest seat alone",
};

// The published presets (throne.md): SEED is the default reading.
const PRESETS = {
  SEED: {},
  ORIGINAL: {
    placement_floors: [2, 3, 4, 5],
    equal_placement: true,
    movement_starter: "first_player",
    no_cards_public: false,
  },
};

const DEFAULTS = {
  placement_floors: [1, 2, 3, 4, 5], // B6: the first five floors
  equal_placement: false,
  placements_per_player: [4, 3, 2, 2], // for 3, 4, 5, 6 players (ORIGINAL)
  no_cards: [4, 3, 2, 2], // No cards for 3, 4, 5, 6 players (B11)
  no_cards_reset_each_round: true,
  first_player_rotates: true,
  movement_starter: "after_last_placer",
  allow_pass: false,
  no_cards_public: true, // what a seat may see: nothing the protocol shows
  points: [0, 1, 2, 3, 4, 5, 10], // floors 1..7 (B14)
  bonus_points: 33, // B15
  floor_capacity: 4, // B7
};
const SUPPORTED = Object.keys(DEFAULTS);

function parseArgs(argv) {
  const out = { plants: new Set(), builtFor: null };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === "--plant" || arg === "--built-for") {
      const value = argv[++i];
      if (value === undefined) fail(`${arg} needs a value`);
      if (arg === "--built-for") {
        if (!(value in PRESETS)) fail(`--built-for takes one of ${Object.keys(PRESETS)}`);
        out.builtFor = value;
      } else {
        for (const name of value.split(",")) {
          if (!(name in PLANTS)) fail(`unknown plant ${name}; the plants are: ${Object.keys(PLANTS)}`);
          out.plants.add(name);
        }
      }
    } else if (arg === "--list-plants") {
      for (const [name, what] of Object.entries(PLANTS)) console.log(`${name}\t${what}`);
      process.exit(0);
    } else {
      fail(`unknown argument ${arg}`);
    }
  }
  return out;
}

function fail(message) {
  process.stderr.write(`throne.js: ${message}\n`);
  process.exit(2);
}

const ARGS = parseArgs(process.argv.slice(2));
const planted = (name) => ARGS.plants.has(name);

function sameList(a, b) {
  return Array.isArray(a) && a.length === b.length && a.every((x, i) => x === b[i]);
}

// The reading asked for: a preset and the options that differ from it.
function readRules(request) {
  if (ARGS.builtFor) return { ...DEFAULTS, ...PRESETS[ARGS.builtFor] };
  if (!request || typeof request !== "object") throw new Error("rules must be an object");
  const preset = PRESETS[request.preset];
  if (!preset) throw new Error(`this engine plays the presets SEED and ORIGINAL, not ${request.preset}`);
  const rules = { ...DEFAULTS, ...preset };
  for (const [name, value] of Object.entries(request.options || {})) {
    if (!SUPPORTED.includes(name)) throw new Error(`this engine does not play option ${name}`);
    rules[name] = value;
  }
  if (rules.floor_capacity !== 4 && !Number.isInteger(rules.floor_capacity)) throw new Error("bad floor_capacity");
  return rules;
}

class Throne {
  constructor(players, rules, objectives) {
    if (!Number.isInteger(players) || players < 3 || players > 6) throw new Error("players must be 3 to 6");
    if (!Array.isArray(objectives) || objectives.length < 3) throw new Error("the deal needs 3 rounds of objectives");
    for (const round of objectives) {
      if (!Array.isArray(round) || round.length !== players) throw new Error("one objective per seat");
    }
    this.n = players;
    this.rules = rules;
    this.objectives = objectives.map((round) => round.map((card) => new Set(card)));
    this.noCardsFull = rules.no_cards[players - 3];
    this.noCards = new Array(players).fill(this.noCardsFull);
    this.totals = new Array(players).fill(0);
    this.round = 1;
    this.over = false;
    this.startRound();
  }

  capacity(floor) {
    if (floor === THRONE) return 1;
    return this.rules.floor_capacity;
  }

  firstPlayer() {
    if (planted("first-player-fixed")) return 0;
    return this.rules.first_player_rotates ? (this.round - 1) % this.n : 0;
  }

  startRound() {
    // Rule 11: an empty castle, eliminations forgotten, new objectives (B4).
    this.floor = {}; // letter -> floor; absent: not placed; -1: eliminated (B13)
    this.count = new Array(THRONE + 1).fill(0);
    this.phase = "placement";
    this.turn = this.firstPlayer();
    this.placed = 0;
    this.passes = 0;
    this.votes = null;
    this.placements = this.rules.equal_placement
      ? this.n * this.rules.placements_per_player[this.n - 3]
      : LETTERS.length;
  }

  next(seat) {
    return (seat + 1) % this.n;
  }

  placementFloors() {
    const floors = [...this.rules.placement_floors];
    if (planted("place-on-sixth")) floors.push(NOBLES);
    return floors;
  }

  legal() {
    const moves = [];
    if (this.phase === "placement") {
      for (const c of LETTERS) {
        if (c in this.floor) continue;
        for (const f of this.placementFloors()) {
          const room = planted("fifth-on-a-floor") ? this.capacity(f) + 1 : this.capacity(f);
          if (this.count[f] < room) moves.push(`${c}${f}`);
        }
      }
    } else if (this.phase === "movement") {
      for (const c of LETTERS) {
        const f = this.floor[c];
        if (!(f >= 1 && f < THRONE)) continue; // eliminated or on the throne
        const above = f + 1;
        const full = this.count[above] >= this.capacity(above);
        if (!full || (planted("climb-into-full") && above < THRONE)) moves.push(`${c}+`);
      }
      if (this.rules.allow_pass) moves.push("pass");
    } else if (this.phase === "election") {
      moves.push("yes");
      if (this.noCards[this.turn] > 0 || planted("no-without-card")) moves.push("no");
    }
    return moves;
  }

  play(move) {
    if (!this.legal().includes(move)) return false;
    if (this.phase === "placement") this.place(move[0], Number(move.slice(1)));
    else if (move === "pass") this.pass();
    else if (move === "yes" || move === "no") this.vote(move === "yes");
    else this.climb(move[0]);
    return true;
  }

  place(c, f) {
    this.floor[c] = f;
    this.count[f]++;
    this.placed++;
    this.turn = this.next(this.turn);
    if (this.placed === this.placements) {
      // Rule 7 (ORIGINAL): the characters nobody placed go to the servants.
      for (const x of LETTERS) {
        if (!(x in this.floor)) {
          this.floor[x] = 1;
          this.count[1]++;
        }
      }
      this.phase = "movement";
      // Rule 8 (B8): the seat after the last placer, or the round's first player.
      if (this.rules.movement_starter === "first_player") this.turn = this.firstPlayer();
    }
  }

  climb(c) {
    const f = this.floor[c];
    this.count[f]--;
    this.floor[c] = f + 1;
    this.count[f + 1]++;
    this.passes = 0;
    if (f + 1 === THRONE) {
      // B10: an election; every seat votes, the mover first (rule 9).
      this.phase = "election";
      this.candidate = c;
      this.mover = this.turn;
      this.votes = [];
      if (planted("votes-from-seat-0")) this.turn = 0;
      return;
    }
    this.turn = this.next(this.turn);
  }

  vote(yes) {
    this.votes.push({ seat: this.turn, yes });
    if (this.votes.length < this.n) {
      this.turn = this.next(this.turn);
      return;
    }
    const noes = this.votes.filter((v) => !v.yes);
    if (noes.length === 0) {
      this.endRound(); // B12: a king, the round ends
      return;
    }
    // B13: eliminated; each No voter discards a No card (B11).
    for (const v of noes) this.noCards[v.seat] = Math.max(0, this.noCards[v.seat] - 1);
    const c = this.candidate;
    this.count[THRONE] = 0;
    if (planted("eliminated-stays")) {
      this.floor[c] = NOBLES;
      this.count[NOBLES]++;
    } else {
      this.floor[c] = -1;
    }
    this.votes = null;
    const living = LETTERS.split("").some((x) => this.floor[x] >= 1);
    if (!living) {
      this.endRound(); // nobody left in the castle: the round ends without a king
      return;
    }
    this.phase = "movement";
    this.turn = this.next(this.mover);
  }

  pass() {
    this.passes++;
    if (this.passes === this.n) {
      this.endRound(); // every seat passed in a row: no king
      return;
    }
    this.turn = this.next(this.turn);
  }

  points(floor) {
    if (!(floor >= 1)) return 0; // eliminated or never placed (B13)
    if (floor === NOBLES && planted("nobles-score-4")) return 4;
    return this.rules.points[floor - 1];
  }

  endRound() {
    const objectives = this.objectives[this.round - 1];
    for (let seat = 0; seat < this.n; seat++) {
      let score = 0;
      for (const c of objectives[seat]) score += this.points(this.floor[c]);
      // B15: in the third and last scoring, 0 counts as 33.
      if (score === 0 && this.round === 3 && !planted("no-bonus")) score = this.rules.bonus_points;
      this.totals[seat] += score;
    }
    if (this.round === 3) {
      this.over = true;
      this.phase = "over";
      return;
    }
    this.round++;
    if (this.rules.no_cards_reset_each_round) this.noCards.fill(this.noCardsFull);
    this.startRound();
  }

  winners() {
    const best = Math.max(...this.totals);
    const all = this.totals.flatMap((t, seat) => (t === best ? [seat] : []));
    return planted("tie-to-lowest-seat") ? all.slice(0, 1) : all;
  }

  status() {
    const out = { to_move: this.over ? null : this.turn, over: this.over, scores: [...this.totals] };
    if (this.over) out.winners = this.winners();
    return out;
  }
}

let game = null;

function answer(request) {
  const id = request.id;
  switch (request.op) {
    case "hello":
      return { id, name: NAME, games: ["throne"], protocol: 1 };
    case "start": {
      if (request.game !== "throne") return { id, ok: false, error: "this engine plays Throne only" };
      try {
        game = new Throne(request.players, readRules(request.rules), (request.deal || {}).objectives);
      } catch (err) {
        game = null;
        return { id, ok: false, error: err.message };
      }
      return { id, ok: true };
    }
    case "legal":
      return { id, moves: game && !game.over ? game.legal() : [] };
    case "play":
      return { id, ok: Boolean(game && !game.over && typeof request.move === "string" && game.play(request.move)) };
    case "status":
      if (!game) return { id, error: "no game started" };
      return { id, ...game.status() };
    default:
      return { id, error: `unknown request ${JSON.stringify(request.op)}` };
  }
}

const input = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
input.on("line", (line) => {
  let request;
  try {
    request = JSON.parse(line);
  } catch {
    process.stdout.write(JSON.stringify({ id: null, error: "not JSON" }) + "\n");
    return;
  }
  if (request && request.op === "quit") {
    input.close();
    return;
  }
  process.stdout.write(JSON.stringify(answer(request || {})) + "\n");
});
input.on("close", () => process.exit(0));
