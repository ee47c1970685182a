/* The dispute desk: the castlerules library itself, run in the browser by Pyodide.
 *
 * No rule is written here.  Every question goes to castlerules.desk.Desk.handle
 * (Python) as a JSON request; a move is judged by the command line's own
 * `castlerules explain ... --json`, run in-process.  The page keeps positions
 * by their key only: in the table view it never receives what a seat keeps
 * hidden (castlerules.desk.table).  Everything the page loads comes from the
 * site itself (_static/desk/); a service worker (sw.js, built with Workbox)
 * keeps it for the next visit without a network.
 *
 * A dispute is the page's address: #game=..&position=..&move=..&view=..&compare=1
 * (or #case=KEY) opens the same question with the same answer.
 */
(function () {
  "use strict";
  const root = document.getElementById("desk");
  if (!root) return;
  const script = document.currentScript || document.querySelector('script[src*="desk.js"]');
  const base = new URL(".", script.src).href + "desk/";
  const $ = (id) => document.getElementById(id);
  const timings = { opened: performance.now() };
  let desk = null; // castlerules.desk.Desk(), once loaded
  let pyodide = null;
  let cases = [];
  // What is on the desk: the position's key (the engine keeps the position), the view,
  // the last answer about a move.
  let current = { key: null, game: "throne", view: "table", link: "", move: null };
  const undoStack = []; // keys of the positions before each move played here

  // ------------------------------------------------------------------ helpers

  function status(text, step, total) {
    $("desk-status").textContent = text;
    if (step !== undefined) {
      $("desk-progress").max = total;
      $("desk-progress").value = step;
    }
  }

  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === null || v === undefined || v === false) continue;
      if (k === "class") node.className = v;
      else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
      else node.setAttribute(k, v === true ? "" : v);
    }
    for (const child of children) {
      if (child === null || child === undefined || child === false) continue;
      node.append(typeof child === "string" || typeof child === "number" ? String(child) : child);
    }
    return node;
  }

  function ask(request) {
    const answer = JSON.parse(desk.handle(JSON.stringify(request)));
    return answer;
  }

  function clauseLink(clause) {
    // The clause sections of the games' pages carry the anchor clause-<id> (castlerules_sphinx).
    const page = clause.startsWith("B") ? "throne.html" : "ascent.html";
    return el("a", { href: page + "#clause-" + clause.toLowerCase(), class: "desk-clause" }, clause);
  }

  function showError(where, message) {
    where.replaceChildren(el("p", { class: "desk-error", role: "alert" }, message));
  }

  function clearAnswer() {
    $("desk-answer").replaceChildren();
    $("desk-answer").dataset.clause = "";
    $("desk-timing").textContent = "";
  }

  // ------------------------------------------------------------------ boards

  function piece(name, extra) {
    return el("span", Object.assign({ class: "desk-piece", "data-character": name }, extra || {}), name);
  }

  function throneBoard(b) {
    const floors = el("ol", { class: "desk-floors", "aria-label": "the castle, the throne first" });
    for (const f of b.floors) {
      const slots = el("span", { class: "desk-slots" });
      for (const c of f.characters) {
        const role = c === b.candidate ? " desk-candidate" : "";
        slots.append(piece(c, { class: "desk-piece" + role, title: c + " on floor " + f.floor }));
      }
      for (let k = f.characters.length; k < f.capacity; k++) slots.append(el("span", { class: "desk-slot", "aria-hidden": "true" }));
      floors.append(
        el(
          "li",
          { class: "desk-floor" + (f.floor === b.floors[0].floor ? " desk-throne" : ""), "data-floor": f.floor },
          el("span", { class: "desk-floor-label" }, el("b", {}, f.floor + " " + f.name), el("small", {}, f.points + " pt · room " + f.capacity)),
          slots
        )
      );
    }
    const list = (label, items) =>
      el("p", { class: "desk-list" }, el("b", {}, label + ": "), items.length ? el("span", { class: "desk-slots" }, ...items.map((c) => piece(c))) : "none");
    const head = ["Seat", "No cards", "Total"];
    const voting = b.seats.some((s) => s.voted !== null);
    if (voting) head.push("Voted");
    head.push("Objective");
    if (b.secrets_shown && voting) head.push("Vote");
    const rows = b.seats.map((s) => {
      const cells = [
        el("th", { scope: "row" }, "Seat " + s.seat + (s.to_act ? " ◀ to act" : "")),
        el("td", {}, s.no_cards === null ? "secret" : String(s.no_cards)),
        el("td", {}, String(s.total)),
      ];
      if (voting) cells.push(el("td", {}, s.voted ? "yes" : "not yet"));
      cells.push(el("td", { class: "desk-mono" }, s.objective === null ? "secret" : s.objective));
      if (b.secrets_shown && voting) cells.push(el("td", {}, s.vote || "—"));
      return el("tr", { class: s.to_act ? "desk-to-act" : "" }, ...cells);
    });
    const kings = b.kings.length ? list("Kings", b.kings.map((k) => k || "none")) : null;
    return el(
      "div",
      { class: "desk-throne-board" },
      el("p", { class: "desk-headline" }, b.headline),
      floors,
      list("Not placed yet", b.unplaced),
      list("Eliminated this round", b.eliminated),
      kings,
      el("table", { class: "desk-seats" }, el("thead", {}, el("tr", {}, ...head.map((h) => el("th", { scope: "col" }, h)))), el("tbody", {}, ...rows))
    );
  }

  function ascentBoard(b) {
    const head = el("tr", {}, el("th", { scope: "col" }, "Square"), ...b.columns.map((c) => el("th", { scope: "col", class: c.to_act ? "desk-to-act" : "" }, "Seat " + c.seat + (c.to_act ? " ◀" : ""))));
    const rows = [];
    for (let sq = b.squares; sq >= 0; sq--) {
      const arrival = b.arrival[String(sq)];
      const label = sq === 0 ? "Start" : sq + (arrival ? " (" + arrival + ")" : "");
      rows.push(
        el(
          "tr",
          { class: b.upper_half.includes(sq) ? "desk-upper" : "" },
          el("th", { scope: "row" }, label),
          ...b.columns.map((c) =>
            el("td", {}, ...c.squares[sq].map((card) => el("span", { class: "desk-card-chip desk-rank-" + card.rank + (card.flipped ? " desk-flipped" : ""), "data-card": card.card, title: card.card + " " + card.rank + (card.flipped ? ", flipped" : "") }, card.card)))
          )
        )
      );
    }
    rows.push(el("tr", {}, el("th", { scope: "row" }, "Removed"), ...b.columns.map((c) => el("td", {}, c.removed.join(" ") || "none"))));
    rows.push(el("tr", {}, el("th", { scope: "row" }, "Score"), ...b.columns.map((c) => el("td", {}, el("b", {}, String(c.score))))));
    return el(
      "div",
      { class: "desk-ascent-board" },
      el("p", { class: "desk-headline" }, b.headline),
      el("table", { class: "desk-columns" }, el("thead", {}, head), el("tbody", {}, ...rows))
    );
  }

  // ------------------------------------------------------------------ a position

  function showPosition(answer) {
    if (!answer.ok) {
      showError($("desk-board"), answer.error);
      $("desk-moves").replaceChildren();
      $("desk-situation").textContent = "";
      return false;
    }
    current.key = answer.key;
    current.game = answer.game;
    current.link = answer.link;
    const b = answer.board;
    $("desk-board").replaceChildren(b.game === "throne" ? throneBoard(b) : ascentBoard(b));
    const hidden = answer.hidden;
    const missing = hidden.votes.length || hidden.no_cards.length || hidden.objectives.length;
    $("desk-situation").textContent =
      answer.situation.charAt(0).toUpperCase() + answer.situation.slice(1) + " — reading " + answer.rules + (missing ? " (this position leaves some secrets out: ?)" : "") + ".";
    const text = $("desk-position");
    if (answer.position !== null) {
      text.value = answer.position;
      text.placeholder = "";
    } else {
      text.value = "";
      text.placeholder = "Hidden in the table view (the notation holds every seat's secrets): choose the referee view to see it, or paste a position here.";
    }
    $("desk-moves").replaceChildren(
      ...answer.moves.map((m) => el("button", { type: "button", class: "desk-move", "data-move": m, onclick: () => play(m, true) }, m))
    );
    if (!answer.moves.length) $("desk-moves").append(el("span", {}, "No legal move: " + answer.situation + "."));
    $("desk-undo").disabled = undoStack.length === 0;
    writeHash(null);
    return true;
  }

  function load(request) {
    clearAnswer();
    undoStack.length = 0;
    return showPosition(ask(Object.assign({ op: "position", view: current.view }, request)));
  }

  function boardClicked(event) {
    const target = event.target.closest("[data-character], [data-card]");
    if (!target) return;
    const name = target.getAttribute("data-character") || target.getAttribute("data-card");
    const buttons = [...document.querySelectorAll("#desk-moves .desk-move")];
    const mine = buttons.filter((b) => {
      const m = b.dataset.move;
      return m === name || m.startsWith(name) || m === "x" + name;
    });
    buttons.forEach((b) => b.classList.toggle("desk-picked", mine.includes(b)));
    if (mine.length === 1) play(mine[0].dataset.move, true);
    else if (!mine.length) status(name + " has no legal move here.");
    else mine[0].focus();
  }

  // ------------------------------------------------------------------ a move

  function verdictNodes(answer) {
    const v = answer.verdict;
    const out = [el("p", { class: "desk-question" }, "Seat " + v.seat + " plays " + answer.move + " (reading " + v.rules + "):")];
    if (answer.withheld) {
      out.push(el("p", { class: "desk-verdict desk-withheld" }, "NOT SAID AT THE TABLE. " + answer.withheld));
      return out;
    }
    if (!v.legal) {
      out.push(el("p", { class: "desk-verdict desk-illegal" }, "ILLEGAL: " + v.message));
      if (v.clause) {
        out.push(
          el("p", { class: "desk-rule" }, clauseLink(v.clause), " " + v.clause_text.summary),
          el("blockquote", { lang: "fr", class: "desk-french" }, "« " + v.clause_text.french + " »")
        );
      }
      return out;
    }
    out.push(el("p", { class: "desk-verdict desk-legal" }, "LEGAL. What happened:"));
    out.push(el("ul", {}, ...v.events.map((e) => el("li", {}, clauseLink(e.clause), " " + e.text))));
    for (const d of v.depends_on_unknown || []) {
      out.push(el("p", {}, "Seat " + d.seat + " scores one of " + d.possible_scores.join(", ") + " in round " + d.round + ", by its objective (not given)."));
    }
    if (v.over) out.push(el("p", {}, "The game is over" + (v.scores ? ": scores " + v.scores.join(", ") + "; won by seat " + v.winners.join(", seat ") : "") + "."));
    else out.push(el("p", {}, "Next: seat " + v.next_player + " to play."));
    if (answer.next_note) out.push(el("p", { class: "desk-note" }, answer.next_note));
    return out;
  }

  function comparison(c, refused) {
    if (refused) return el("div", { class: "desk-comparison" }, el("p", {}, "Compare readings: " + refused + "."));
    const counted = c.tried === null ? "" : c.agree + " of " + c.tried + " other readings agree";
    const head = c.rows.length
      ? "Compared with " + c.base + (counted ? ": " + counted + "; these do not:" : ":")
      : "Compared with " + c.base + ": " + (counted || "every reading agrees") + ".";
    return el(
      "div",
      { class: "desk-comparison" },
      el("p", { class: "desk-compare-head" }, head),
      c.rows.length ? el("ul", { class: "desk-compare" }, ...c.rows.map((r) => el("li", { class: "desk-" + r.kind.split(" ")[0] }, el("b", {}, r.reading), " — " + r.kind + ": " + r.why))) : null
    );
  }

  function judge(move) {
    const started = performance.now();
    const compare = $("desk-compare").checked;
    const answer = ask({ op: "explain", key: current.key, move: move, compare: compare, view: current.view });
    const out = $("desk-answer");
    out.replaceChildren();
    current.move = move;
    if (!answer.ok) {
      showError(out, answer.error);
      return answer;
    }
    out.append(...verdictNodes(answer));
    if (compare) out.append(comparison(answer.compare, answer.compare_refused));
    out.dataset.clause = (answer.verdict && answer.verdict.clause) || "";
    answer.total_ms = performance.now() - started;
    $("desk-timing").textContent = "Answered in " + Math.round(answer.total_ms) + " ms.";
    return answer;
  }

  function reveal() {
    // The answer stands next to the board (or under it on a phone): bring it into view.
    const out = $("desk-answer");
    const box = out.getBoundingClientRect();
    if (box.top < 0 || box.bottom > window.innerHeight) out.scrollIntoView({ block: "start", behavior: "instant" });
  }

  function keepFocus(fromButton) {
    // Focus stays on the move box after a move (a tap on a phone does not open its keyboard).
    if (fromButton && window.matchMedia("(pointer: coarse)").matches) return;
    $("desk-move").focus({ preventScroll: true });
  }

  function play(move, fromButton) {
    const answer = judge(move);
    if (answer.ok && answer.next) {
      undoStack.push(current.key);
      const shownAnswer = [...$("desk-answer").childNodes];
      showPosition(Object.assign({ ok: true }, answer.next));
      $("desk-answer").replaceChildren(...shownAnswer); // the move's answer stays beside the board
      writeHash(null);
    } else if (answer.ok) {
      current.link = answer.link;
      writeHash(move);
    }
    reveal();
    keepFocus(fromButton);
    return answer;
  }

  function tryTyped(event) {
    if (event) event.preventDefault();
    const move = $("desk-move").value.trim();
    if (!move) {
      status("Type a move first, e.g. C6 (Throne) or L1 (Ascent).");
      return null;
    }
    const answer = judge(move);
    if (answer.ok) current.link = answer.link;
    writeHash(move);
    reveal();
    keepFocus(false);
    return answer;
  }

  // ------------------------------------------------------------------ the address

  function writeHash(move) {
    // Python writes the link (a table view link holds only what every seat may see).
    let fragment = current.link;
    if (move && !/[?&]?move=/.test(fragment)) fragment += "&move=" + encodeURIComponent(move);
    if ($("desk-compare").checked && !/compare=1/.test(fragment)) fragment += "&compare=1";
    history.replaceState(null, "", "#" + fragment);
    $("desk-link").href = location.href;
  }

  function openHash() {
    const p = new URLSearchParams(location.hash.slice(1));
    if (p.has("case")) return loadCase(p.get("case"));
    if (!p.has("game") || !p.has("position")) return load({ game: "throne", position: "new:4" });
    current.view = p.get("view") === "referee" ? "referee" : "table";
    syncView();
    $("desk-compare").checked = p.get("compare") === "1";
    const request = { game: p.get("game"), position: p.get("position") };
    if (p.get("rules")) request.rules = p.get("rules");
    if (p.get("options")) request.options = p.get("options").split(";").filter((o) => o);
    const ok = load(request);
    const move = p.get("move");
    if (ok && move) {
      $("desk-move").value = move;
      tryTyped();
    }
    return ok;
  }

  function syncView() {
    document.querySelector('input[name="desk-view"][value="' + current.view + '"]').checked = true;
  }

  // ------------------------------------------------------------------ controls

  function newGame() {
    const request = {
      game: $("desk-game").value,
      position: "new:" + $("desk-players").value + ":" + $("desk-seed").value,
    };
    const rules = $("desk-rules").value.trim();
    if (rules) request.rules = rules;
    const options = $("desk-options").value.split(",").map((o) => o.trim()).filter((o) => o);
    if (options.length) request.options = options;
    $("desk-case").value = "";
    $("desk-case-note").textContent = "";
    load(request);
  }

  function detectGame(text) {
    // The game is read from the text: Throne's notation starts with "throne"; a new
    // game (new:N) is the selector's; anything else is read as Ascent's.
    if (text.startsWith("new:")) return $("desk-game").value;
    return /^throne(\s|$)/.test(text) ? "throne" : "ascent";
  }

  function loadPasted() {
    const text = $("desk-position").value.trim();
    if (!text) {
      status("Paste a position's notation into the box first.");
      return;
    }
    const game = detectGame(text);
    $("desk-game").value = game;
    $("desk-case").value = "";
    $("desk-case-note").textContent = "";
    if (load({ game: game, position: text })) status("Loaded a " + (game === "throne" ? "Throne" : "Ascent") + " position.");
  }

  function loadCase(key) {
    const c = cases.find((x) => x.key === key);
    clearAnswer();
    if (!c) {
      $("desk-case").value = "";
      $("desk-case-note").textContent = "";
      status(key ? "There is no casebook case '" + key + "': choose one from the list." : "Choose a case from the list.");
      showError($("desk-answer"), key ? "Unknown casebook case: " + key : "No case chosen.");
      return false;
    }
    $("desk-case").value = key;
    $("desk-game").value = c.game;
    $("desk-compare").checked = c.compare;
    $("desk-case-note").textContent = c.statement + " (" + c.clauses.join(", ") + ") " + c.settles;
    const ok = load({ game: c.game, position: c.position });
    if (ok && c.move) {
      $("desk-move").value = c.move;
      tryTyped();
    } else {
      $("desk-move").value = "";
    }
    return ok;
  }

  function undo() {
    if (!undoStack.length) return;
    const key = undoStack.pop();
    clearAnswer();
    showPosition(ask({ op: "position", key: key, view: current.view }));
    $("desk-undo").disabled = undoStack.length === 0;
  }

  function setView() {
    current.view = document.querySelector('input[name="desk-view"]:checked').value;
    clearAnswer();
    if (current.key) showPosition(ask({ op: "position", key: current.key, view: current.view }));
  }

  async function copyLink() {
    const url = location.href;
    try {
      await navigator.clipboard.writeText(url);
      status("Link copied: " + url.length + " characters.");
    } catch (err) {
      // No clipboard (an insecure page, or refused): show the address to copy by hand.
      window.prompt("Copy this link:", url);
    }
  }

  function perft() {
    // The engine's speed here against CPython's (the figure of the docs page).
    const t = performance.now();
    const nodes = pyodide.runPython("from castlerules import throne\nthrone.perft(throne.new_game(4, seed=1), 4)");
    return { nodes: nodes, ms: performance.now() - t };
  }

  // ------------------------------------------------------------------ start

  function registerWorker() {
    if (!("serviceWorker" in navigator) || !location.protocol.startsWith("http")) return;
    navigator.serviceWorker.register(new URL("../sw.js", script.src).href).then(
      (registration) => {
        root.dataset.worker = "registered";
        navigator.serviceWorker.ready.then(() => (root.dataset.worker = "ready"));
        return registration;
      },
      (err) => (root.dataset.worker = "failed: " + err.message)
    );
  }

  async function boot() {
    $("desk-fallback").hidden = true;
    for (const node of document.querySelectorAll(".desk-static")) node.hidden = true;
    $("desk-ui").hidden = false;
    if (location.protocol === "file:") {
      throw new Error("a page opened from a file cannot load WebAssembly");
    }
    registerWorker();
    status("Loading the Python runtime (Pyodide), about 12 MB the first time …", 0, 4);
    const manifest = await (await fetch(base + "manifest.json")).json();
    await new Promise((resolve, reject) => {
      const s = document.createElement("script");
      s.src = base + "pyodide/pyodide.js";
      s.onload = resolve;
      s.onerror = () => reject(new Error("cannot load " + s.src));
      document.head.append(s);
    });
    pyodide = await loadPyodide({ indexURL: base + "pyodide/" });
    timings.runtime = performance.now();
    status("Installing attrs and castlerules …", 1, 4);
    for (const wheel of manifest.wheels) {
      const bytes = await (await fetch(base + wheel)).arrayBuffer();
      pyodide.unpackArchive(bytes, "wheel");
    }
    status("Importing the engine …", 2, 4);
    desk = pyodide.pyimport("castlerules.desk").Desk();
    status("Reading the casebook's index …", 3, 4);
    cases = await (await fetch(base + "cases.json")).json();
    const list = $("desk-case");
    for (const game of ["throne", "ascent"]) {
      const group = el("optgroup", { label: game === "throne" ? "Throne" : "Ascent" });
      for (const c of cases.filter((x) => x.game === game)) group.append(el("option", { value: c.key }, c.key + " — " + c.statement));
      list.append(group);
    }
    $("desk-all").disabled = false;
    const opened = openHash();
    timings.ready = performance.now();
    const seconds = ((timings.ready - timings.opened) / 1000).toFixed(1);
    const controlled = navigator.serviceWorker && navigator.serviceWorker.controller ? ", kept for offline use" : "";
    if (opened !== false) status("Ready: castlerules " + manifest.wheels[1].split("-")[1] + " on Pyodide " + manifest.pyodide + ", first answer " + seconds + " s after opening the page" + controlled + ".", 4, 4);
    root.dataset.ready = "1";
    root.dataset.firstAnswerMs = String(Math.round(timings.ready - timings.opened));
    // Ready: the focus goes to the move box (unless the reader is elsewhere on the page).
    const active = document.activeElement;
    if (!active || active === document.body || root.contains(active)) $("desk-move").focus({ preventScroll: true });
  }

  $("desk-new").addEventListener("click", newGame);
  $("desk-load").addEventListener("click", loadPasted);
  $("desk-ask-form").addEventListener("submit", tryTyped);
  $("desk-undo").addEventListener("click", undo);
  $("desk-copy").addEventListener("click", copyLink);
  $("desk-case").addEventListener("change", (e) => loadCase(e.target.value));
  $("desk-board").addEventListener("click", boardClicked);
  $("desk-compare").addEventListener("change", () => clearAnswer());
  for (const radio of document.querySelectorAll('input[name="desk-view"]')) radio.addEventListener("change", setView);
  window.addEventListener("hashchange", () => {
    if (desk && location.href !== $("desk-link").href) openHash();
  });
  window.castlerulesDesk = { ask: (r) => ask(r), perft: () => perft(), timings: timings };
  boot().catch((err) => {
    status(
      "The desk could not start (" + err.message + "): serve the site and open it over http, e.g. python3 -m http.server -d docs/_build/html",
      0,
      4
    );
    root.dataset.ready = "failed";
    $("desk-fallback").hidden = false;
    for (const node of document.querySelectorAll(".desk-static")) node.hidden = false;
  });
})();
