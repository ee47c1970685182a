/* The dispute desk: the castlerules library itself, run in the browser by Pyodide.
 *
 * No rule is written here.  Every question goes to castlerules.desk.handle (Python)
 * as a JSON request; a move is judged by the command line's own
 * `castlerules explain ... --json`, run in-process.  Everything the page loads
 * comes from the site itself (_static/desk/): Pyodide's runtime, the attrs and
 * castlerules wheels, the casebook's index.
 *
 * A dispute is the page's address: #game=..&position=..&move=..&rules=..
 * &options=..&view=..&compare=1 opens the same question with the same answer.
 */
(function () {
  "use strict";
  const root = document.getElementById("desk");
  if (!root) return;
  const script = document.currentScript || document.querySelector('script[src*="desk.js"]');
  const base = new URL(".", script.src).href + "desk/";
  const $ = (id) => document.getElementById(id);
  const timings = { opened: performance.now() };
  let handle = null; // castlerules.desk.handle, once loaded
  let cases = [];
  // The question on the desk: the position is kept whole here; the table view
  // never writes what a seat keeps secret into the page.
  let current = { game: "throne", position: "new:4", rules: "", options: [], view: "table" };
  const undoStack = []; // the positions before each move played here

  function progress(step, total, text) {
    const bar = $("desk-progress");
    bar.max = total;
    bar.value = step;
    $("desk-status").textContent = text;
  }

  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (k === "class") node.className = v;
      else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
      else node.setAttribute(k, v);
    }
    for (const child of children) {
      if (child === null || child === undefined) continue;
      node.append(typeof child === "string" ? document.createTextNode(child) : child);
    }
    return node;
  }

  function ask(request) {
    const started = performance.now();
    const answer = JSON.parse(handle(JSON.stringify(request)));
    answer.elapsed_ms = performance.now() - started;
    return answer;
  }

  function request(op, extra) {
    const r = { op: op, game: current.game, position: current.position, view: current.view };
    if (current.rules) r.rules = current.rules;
    if (current.options.length) r.options = current.options;
    return Object.assign(r, extra || {});
  }

  function clauseLink(clause) {
    const page = clause.startsWith("B") ? "throne-rules.html" : "ascent-rules.html";
    return el("a", { href: page + "#" + clause.toLowerCase(), class: "desk-clause" }, clause);
  }

  function showError(where, message) {
    where.replaceChildren(el("p", { class: "desk-error", role: "alert" }, message));
  }

  // ------------------------------------------------------------------ the position

  function showPosition() {
    const answer = ask(request("position"));
    const board = $("desk-board");
    const moves = $("desk-moves");
    if (!answer.ok) {
      showError(board, answer.error);
      moves.replaceChildren();
      $("desk-situation").textContent = "";
      return false;
    }
    board.innerHTML = answer.svg; // the library's own SVG
    current.public = answer.public_position; // what a link made at the table carries
    $("desk-situation").textContent = answer.situation + " — reading " + answer.rules + ".";
    const text = $("desk-position");
    if (answer.position !== null) {
      text.value = answer.position;
      text.placeholder = "";
    } else {
      text.value = "";
      text.placeholder =
        "(hidden in the table view: the notation holds every seat's objectives; " +
        "choose the referee view to see it)";
    }
    moves.replaceChildren(
      ...answer.moves.map((m) =>
        el("button", { type: "button", class: "desk-move", "data-move": m, onclick: () => play(m) }, m)
      )
    );
    if (!answer.moves.length) moves.append(el("span", {}, "no legal move: " + answer.situation));
    $("desk-undo").disabled = undoStack.length === 0;
    writeHash(null);
    return true;
  }

  function boardClicked(event) {
    const piece = event.target.closest("[data-character], [data-card]");
    if (!piece) return;
    const name = piece.getAttribute("data-character") || piece.getAttribute("data-card");
    const buttons = [...document.querySelectorAll("#desk-moves .desk-move")];
    const mine = buttons.filter((b) => {
      const m = b.dataset.move;
      return m === name || m.startsWith(name) || m === "x" + name;
    });
    buttons.forEach((b) => b.classList.toggle("desk-picked", mine.includes(b)));
    if (mine.length === 1) play(mine[0].dataset.move);
    else if (!mine.length) $("desk-status").textContent = name + " has no legal move here.";
  }

  // ------------------------------------------------------------------ a move

  function judge(move, compare) {
    const started = performance.now();
    const answer = ask(request("explain", { move: move, compare: compare }));
    const out = $("desk-answer");
    out.replaceChildren();
    if (!answer.ok || answer.answer === null) {
      showError(out, answer.error);
      return null;
    }
    const a = answer.answer;
    out.append(el("p", { class: "desk-question" }, "Seat " + a.seat + " plays " + move + " (reading " + a.rules + "):"));
    if (!a.legal) {
      const head = el("p", { class: "desk-verdict desk-illegal" }, "ILLEGAL: " + a.message);
      out.append(head);
      if (a.clause) {
        const text = a.clause_text;
        out.append(
          el("p", { class: "desk-rule" }, clauseLink(a.clause), " " + text.summary),
          el("blockquote", { lang: "fr", class: "desk-french" }, "« " + text.french + " »")
        );
      }
      out.dataset.clause = a.clause || "";
    } else {
      out.append(el("p", { class: "desk-verdict desk-legal" }, "LEGAL. What happened:"));
      out.append(
        el("ul", {}, ...a.events.map((e) => el("li", {}, clauseLink(e.clause), " " + e.text)))
      );
      if (a.over) out.append(el("p", {}, "The game is over: scores " + a.scores.join(", ") + "; won by seat " + a.winners.join(", seat ") + "."));
      else out.append(el("p", {}, "Next: seat " + a.next_player + " to play."));
      if (a.after !== undefined) {
        out.append(el("p", {}, "Position after: "), el("code", { class: "desk-after" }, a.after));
      }
      out.dataset.clause = "";
    }
    if (a.compare) out.append(comparison(a.compare));
    answer.total_ms = performance.now() - started;
    $("desk-timing").textContent = "answered in " + Math.round(answer.total_ms) + " ms";
    return answer;
  }

  function comparison(data) {
    const rows = data.readings.filter((r) => r.applicable !== false);
    const table = el(
      "table",
      { class: "desk-compare" },
      el("thead", {}, el("tr", {}, el("th", {}, "reading"), el("th", {}, "answer"), el("th", {}, "agrees"))),
      el(
        "tbody",
        {},
        ...rows.map((r) =>
          el(
            "tr",
            { class: r.agrees ? "" : "desk-disagrees" },
            el("td", {}, r.reading),
            el(
              "td",
              {},
              r.legal ? "legal: " + r.events.map((e) => e.clause + " " + e.text).join("; ") : "ILLEGAL (" + r.clause + "): " + r.message
            ),
            el("td", {}, r.agrees ? "yes" : "NO")
          )
        )
      )
    );
    const summary = data.disagree.length
      ? "Readings that answer otherwise: " + data.disagree.join(", ") + "."
      : "Every reading tried gives the same answer.";
    return el("div", { class: "desk-comparison" }, el("p", {}, "Compared with " + data.base + ": " + summary), table);
  }

  function play(move) {
    const answer = judge(move, $("desk-compare").checked);
    if (answer && answer.answer.legal) {
      undoStack.push(current.position);
      current.position = answer.next_position;
      showPosition();
      writeHash(null);
    } else {
      writeHash(move);
    }
  }

  function tryTyped() {
    const move = $("desk-move").value.trim();
    if (!move) return;
    const answer = judge(move, $("desk-compare").checked);
    writeHash(move);
    return answer;
  }

  // ------------------------------------------------------------------ the address

  function writeHash(move) {
    const p = new URLSearchParams();
    p.set("game", current.game);
    // A link made in the table view carries "?" for every objective not yet revealed.
    p.set("position", current.view === "table" && current.public ? current.public : current.position);
    if (current.rules) p.set("rules", current.rules);
    if (current.options.length) p.set("options", current.options.join(";"));
    p.set("view", current.view);
    if (move) p.set("move", move);
    if ($("desk-compare").checked) p.set("compare", "1");
    history.replaceState(null, "", "#" + p.toString());
    $("desk-link").href = location.href;
  }

  function readHash() {
    const p = new URLSearchParams(location.hash.slice(1));
    if (p.has("case")) return { case: p.get("case") }; // a "try it" link of the docs
    if (!p.has("game") || !p.has("position")) return null;
    current = {
      game: p.get("game"),
      position: p.get("position"),
      rules: p.get("rules") || "",
      options: (p.get("options") || "").split(";").filter((o) => o),
      view: p.get("view") === "referee" ? "referee" : "table",
    };
    $("desk-compare").checked = p.get("compare") === "1";
    return p.get("move");
  }

  function syncControls() {
    $("desk-game").value = current.game;
    $("desk-rules").value = current.rules;
    $("desk-options").value = current.options.join(", ");
    document.querySelector('input[name="desk-view"][value="' + current.view + '"]').checked = true;
  }

  // ------------------------------------------------------------------ controls

  function readingFromControls() {
    current.rules = $("desk-rules").value.trim();
    current.options = $("desk-options")
      .value.split(",")
      .map((o) => o.trim())
      .filter((o) => o);
  }

  function newGame() {
    current.game = $("desk-game").value;
    readingFromControls();
    current.position = "new:" + $("desk-players").value + ":" + $("desk-seed").value;
    undoStack.length = 0;
    $("desk-answer").replaceChildren();
    showPosition();
  }

  function loadPasted() {
    const text = $("desk-position").value.trim();
    if (!text) return;
    current.game = text.startsWith("throne") ? "throne" : $("desk-game").value;
    readingFromControls();
    current.position = text;
    undoStack.length = 0;
    showPosition();
  }

  function loadCase(key) {
    const c = cases.find((x) => x.key === key);
    if (!c) return;
    current = { game: c.game, position: c.position, rules: "", options: [], view: current.view };
    undoStack.length = 0;
    syncControls();
    $("desk-compare").checked = c.compare;
    $("desk-case-note").textContent = c.statement + " (" + c.clauses.join(", ") + ") " + c.settles;
    showPosition();
    if (c.move) {
      $("desk-move").value = c.move;
      tryTyped();
    }
  }

  function undo() {
    if (!undoStack.length) return;
    current.position = undoStack.pop();
    $("desk-answer").replaceChildren();
    showPosition();
  }

  function setView() {
    current.view = document.querySelector('input[name="desk-view"]:checked').value;
    showPosition();
    $("desk-answer").replaceChildren();
  }

  function perftRatio() {
    // The engine's speed here against CPython's (the figure of the docs page).
    const t = performance.now();
    const nodes = pyodide_.runPython(
      "from castlerules import throne\nthrone.perft(throne.new_game(4, seed=1), 4)"
    );
    return { nodes: nodes, ms: performance.now() - t };
  }
  let pyodide_ = null;

  async function boot() {
    $("desk-fallback").hidden = true;
    for (const node of document.querySelectorAll(".desk-static")) node.hidden = true;
    $("desk-ui").hidden = false;
    try {
      progress(0, 4, "Loading the Python runtime (Pyodide), about 12 MB …");
      const manifest = await (await fetch(base + "manifest.json")).json();
      await new Promise((resolve, reject) => {
        const s = document.createElement("script");
        s.src = base + "pyodide/pyodide.js";
        s.onload = resolve;
        s.onerror = () => reject(new Error("cannot load " + s.src));
        document.head.append(s);
      });
      pyodide_ = await loadPyodide({ indexURL: base + "pyodide/" });
      timings.runtime = performance.now();
      progress(1, 4, "Installing attrs and castlerules …");
      for (const wheel of manifest.wheels) {
        const bytes = await (await fetch(base + wheel)).arrayBuffer();
        pyodide_.unpackArchive(bytes, "wheel");
      }
      progress(2, 4, "Importing the engine …");
      handle = pyodide_.pyimport("castlerules.desk").handle;
      progress(3, 4, "Reading the casebook's index …");
      cases = await (await fetch(base + "cases.json")).json();
      const list = $("desk-case");
      for (const game of ["throne", "ascent"]) {
        const group = el("optgroup", { label: game === "throne" ? "Throne" : "Ascent" });
        for (const c of cases.filter((x) => x.game === game)) {
          group.append(el("option", { value: c.key }, c.key + " — " + c.statement));
        }
        list.append(group);
      }
      openHash();
      timings.ready = performance.now();
      const size = Object.values(manifest.files).reduce((a, b) => a + b, 0);
      const seconds = ((timings.ready - timings.opened) / 1000).toFixed(1);
      progress(4, 4, "Ready: castlerules " + manifest.wheels[1].split("-")[1] + " on Pyodide " + manifest.pyodide + ", first answer " + seconds + " s after opening the page (" + (size / 2 ** 20).toFixed(1) + " MiB loaded).");
      root.dataset.ready = "1";
      root.dataset.firstAnswerMs = String(Math.round(timings.ready - timings.opened));
    } catch (err) {
      progress(0, 4, "The desk could not start: " + err.message + ". If the page was opened from a file, serve the site instead: python3 -m http.server -d docs/_build/html");
      root.dataset.ready = "failed";
      $("desk-fallback").hidden = false;
      for (const node of document.querySelectorAll(".desk-static")) node.hidden = false;
    }
  }

  $("desk-new").addEventListener("click", newGame);
  $("desk-load").addEventListener("click", loadPasted);
  $("desk-try").addEventListener("click", tryTyped);
  $("desk-move").addEventListener("keydown", (e) => { if (e.key === "Enter") tryTyped(); });
  $("desk-undo").addEventListener("click", undo);
  $("desk-case").addEventListener("change", (e) => loadCase(e.target.value));
  $("desk-board").addEventListener("click", boardClicked);
  for (const radio of document.querySelectorAll('input[name="desk-view"]')) radio.addEventListener("change", setView);
  function openHash() {
    const move = readHash();
    if (move && move.case) {
      $("desk-case").value = move.case;
      loadCase(move.case);
      return;
    }
    syncControls();
    showPosition();
    if (move) {
      $("desk-move").value = move;
      tryTyped();
    }
  }

  window.addEventListener("hashchange", () => {
    if (handle) openHash();
  });
  window.castlerulesDesk = { ask: (r) => ask(r), perft: () => perftRatio(), timings: timings };
  boot();
})();
