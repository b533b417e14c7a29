// The page: draws the board of any game from what the server says about it, shows the state of
// the game, and sends the server the legal moves a person enters by clicks. The server is the
// authority: the page offers only the legal moves it was sent and shows the position it is
// told. Test contract: every playable square has `data-square`, every piece `data-piece`, and
// `#fen` holds the FEN of the position shown; `?variant=<name>` starts that game. The move
// list and the graph are drawn by record.js, analysis mode's lines and arrows by analysis.js.
"use strict";

const $ = (id) => document.getElementById(id);
const SIDE_NAMES = { w: "White", b: "Black", n: "Neutral" }; // `n`: the game's own name
const LABEL_ROOM = 20; // pixels above the board for the names of boards

const page = {
  socket: null,
  variant: null, // the `variant` message
  pos: null, // the last `state` message
  received: 0, // when it came, for the clocks
  flipped: false,
  clicks: [],
  moves: [],
  lines: [], // analysis mode's lines of the node shown, by number from 0
  drag: null, // a piece being dragged: { from, x, y, moved, ghost }
  // The node the last navigation asked for and how many of its requests are unanswered: a key
  // pressed before the server's answer steps on from there, not from the node still shown.
  navTo: null,
  navPending: 0,
};

// ---- Connection ----

function connect() {
  const ws = new WebSocket(`ws://${location.host}/ws`);
  page.socket = ws;
  ws.onopen = () => {
    $("connection").textContent = "connected";
    const wanted = new URLSearchParams(location.search).get("variant") || "";
    send({ cmd: "new", variant: wanted });
  };
  ws.onclose = () => {
    $("connection").textContent = "disconnected: reload the page";
    $("connection").classList.add("down");
  };
  ws.onmessage = (e) => {
    const msg = JSON.parse(e.data);
    if (msg.type === "variant") onVariant(msg);
    else if (msg.type === "state") onState(msg);
    else if (msg.type === "info") onInfo(msg);
    else if (msg.type === "error") showMessage(msg.message);
    // A command done: what the last one refused is no longer news.
    else if (msg.type === "done") showMessage("");
  };
}

function send(cmd) {
  if (page.socket && page.socket.readyState === WebSocket.OPEN) page.socket.send(JSON.stringify(cmd));
}

function showMessage(text) {
  $("message").textContent = text || "";
}

// ---- The game's board and legend ----

function pieceInfo(code) {
  const letter = code.replace("_", "").toUpperCase();
  return page.variant.pieces.find((p) => p.letter === letter);
}

function sideOf(code) {
  if (code.startsWith("_")) return "n";
  return code === code.toUpperCase() ? "w" : "b";
}

function pieceImage(code) {
  const info = pieceInfo(code);
  return pieceSvg(info ? info.name : "", code.replace("_", ""), sideOf(code));
}

function onVariant(v) {
  page.variant = v;
  const select = $("variant");
  if (select.options.length !== v.variants.length) {
    select.innerHTML = v.variants.map((n) => `<option value="${n}">${n}</option>`).join("");
  }
  select.value = v.name;
  $("description").textContent = v.description;
  $("third-row").hidden = !v.third_party;
  SIDE_NAMES.n = v.neutral_name || "Neutral";
  $("third-name").textContent = SIDE_NAMES.n;
  const url = new URL(location.href);
  url.searchParams.set("variant", v.name);
  history.replaceState(null, "", url);
  document.title = `Menagerie: ${v.name}`;
  $("eval").textContent = "-";
  $("depth-now").textContent = "-";
  $("nodes").textContent = "-";
  $("pv").textContent = "";
  page.lines = [];
  buildBoard();
  buildLegend();
}

function fileIndex(sq) {
  return sq.charCodeAt(0) - 97;
}

function rankIndex(sq) {
  return parseInt(sq.slice(1), 10) - 1;
}

function squareName(f, r) {
  return String.fromCharCode(97 + f) + (r + 1);
}

// Grid position of a square as displayed (row 0 at the top).
function displayed(f, r) {
  const v = page.variant;
  return page.flipped ? { col: v.files - 1 - f, row: r } : { col: f, row: v.ranks - 1 - r };
}

function squareSize() {
  const v = page.variant;
  const room = Math.min(window.innerWidth - 40, 640);
  return Math.max(28, Math.min(64, Math.floor(room / Math.max(v.files, v.ranks))));
}

function buildBoard() {
  const v = page.variant;
  const board = $("board");
  const size = squareSize();
  board.style.setProperty("--sq", `${size}px`);
  board.style.gridTemplateColumns = `repeat(${v.files}, ${size}px)`;
  board.style.gridTemplateRows = `repeat(${v.ranks}, ${size}px)`;
  board.innerHTML = "";
  // Named boards have frames of their own; the rectangle around them is only a layout.
  board.classList.toggle("boards", v.regions.length > 0);
  const playable = new Set(v.squares);
  const regionOf = new Map();
  v.regions.forEach((reg, i) => reg.squares.forEach((s) => regionOf.set(s, i)));
  const cells = [];
  for (let r = 0; r < v.ranks; r++) {
    for (let f = 0; f < v.files; f++) {
      const name = squareName(f, r);
      const { col, row } = displayed(f, r);
      const el = document.createElement("div");
      el.style.gridColumn = col + 1;
      el.style.gridRow = row + 1;
      if (playable.has(name)) {
        el.className = `square ${(f + r) % 2 === 0 ? "dark" : "light"}`;
        el.dataset.square = name;
        el.title = name;
        el.addEventListener("click", () => onSquareClick(name));
        el.addEventListener("mouseenter", () => { $("piece-info").textContent = el.dataset.info; });
        if (regionOf.has(name)) markRegionEdges(el, f, r, regionOf);
        const below = page.flipped ? r + 1 : r - 1;
        const leftOf = page.flipped ? f + 1 : f - 1;
        if (row === v.ranks - 1 || !playable.has(squareName(f, below))) {
          el.dataset.file = String.fromCharCode(97 + f);
        }
        if (col === 0 || leftOf < 0 || leftOf >= v.files || !playable.has(squareName(leftOf, r))) {
          el.dataset.rank = r + 1;
        }
      } else {
        el.className = "hole";
      }
      cells.push(el);
    }
  }
  cells.forEach((c) => board.appendChild(c));
  drawRegionLabels(size);
}

// Each named region (Afterlife's four boards) gets a frame and its name.
function markRegionEdges(el, f, r, regionOf) {
  const own = regionOf.get(squareName(f, r));
  el.classList.add("in-region", `region-${own % 4}`);
  const same = (df, dr) => regionOf.get(squareName(f + df, r + dr)) === own &&
    f + df >= 0 && f + df < page.variant.files;
  const up = page.flipped ? -1 : 1;
  const right = page.flipped ? -1 : 1;
  if (!same(0, up)) el.classList.add("edge-top");
  if (!same(0, -up)) el.classList.add("edge-bottom");
  if (!same(-right, 0)) el.classList.add("edge-left");
  if (!same(right, 0)) el.classList.add("edge-right");
}

function drawRegionLabels(size) {
  const labels = $("labels");
  labels.innerHTML = "";
  for (const reg of page.variant.regions) {
    let top = Infinity;
    let left = Infinity;
    let right = -Infinity;
    for (const s of reg.squares) {
      const { col, row } = displayed(fileIndex(s), rankIndex(s));
      top = Math.min(top, row);
      left = Math.min(left, col);
      right = Math.max(right, col);
    }
    const el = document.createElement("div");
    el.className = "region-label";
    el.dataset.region = reg.name;
    el.textContent = reg.name;
    el.style.left = `${left * size}px`;
    el.style.top = `${top * size - LABEL_ROOM + 2}px`;
    el.style.minWidth = `${(right - left + 1) * size}px`;
    labels.appendChild(el);
  }
  $("board-wrap").style.paddingTop = page.variant.regions.length ? `${LABEL_ROOM}px` : "0";
  labels.style.top = page.variant.regions.length ? `${LABEL_ROOM}px` : "0";
}

function buildLegend() {
  const v = page.variant;
  $("legend-title").textContent = `${v.name}: ${v.description}`;
  $("legend-notes").innerHTML = v.notes.map((n) => `<p>${escapeHtml(n)}</p>`).join("");
  const box = $("legend-pieces");
  box.innerHTML = "";
  for (const p of v.pieces) {
    const item = document.createElement("div");
    item.className = "legend-piece";
    item.dataset.legend = p.letter;
    const images = ["w", "b", "n"]
      .map((s) => `<span class="legend-image">${pieceSvg(p.name, p.letter, s)}</span>`)
      .join("");
    const promotes = p.promotes.length
      ? `<div>promotes to ${p.promotes.map((l) => nameOfLetter(l)).join(", ")}</div>`
      : "";
    const diagrams = p.diagrams.map(diagramSvg).join("");
    item.innerHTML =
      `<div class="legend-head">${images}<b>${p.letter}</b> ${escapeHtml(p.name)}${p.royal ? " (royal)" : ""}</div>` +
      `<div class="legend-body"><div class="diagrams">${diagrams || "<i>moves by its own rules (below)</i>"}</div>` +
      `<div><div>Betza: <code>${escapeHtml(p.betza || "-")}</code></div>${promotes}${valueLine(p)}` +
      p.notes.map((n) => `<p>${escapeHtml(n)}</p>`).join("") +
      "</div></div>";
    box.appendChild(item);
  }
}

// The engine's value of a piece, in pawns: one number where middlegame and endgame agree.
function valueLine(p) {
  if (!p.value) return "";
  const [mg, eg] = p.value.map((x) => x.toFixed(2));
  const text = mg === eg ? `${mg} pawns` : `${mg} pawns in the middlegame, ${eg} in the endgame`;
  return `<div class="legend-value">Engine's value: ${text}</div>`;
}

function nameOfLetter(letter) {
  const p = page.variant && page.variant.pieces.find((q) => q.letter === letter.toUpperCase());
  return p ? p.name : null;
}

function diagramSvg(d) {
  const R = 4;
  const cell = 11;
  const n = 2 * R + 1;
  const at = (x, y) => [(x + R) * cell + cell / 2, (R - y) * cell + cell / 2];
  let out = "";
  for (let y = 0; y < n; y++) {
    for (let x = 0; x < n; x++) {
      out += `<rect x="${x * cell}" y="${y * cell}" width="${cell}" height="${cell}" class="${(x + y) % 2 ? "dl" : "dd"}"/>`;
    }
  }
  for (const [dx, dy] of d.slides) {
    const k = R / Math.max(Math.abs(dx), Math.abs(dy));
    const [x0, y0] = at(0, 0);
    const [x1, y1] = at(dx * k, dy * k);
    out += `<line x1="${x0}" y1="${y0}" x2="${x1 + Math.sign(dx) * 4}" y2="${y1 - Math.sign(dy) * 4}" class="slide"/>`;
  }
  for (const [x, y, mode] of d.cells) {
    const [cx, cy] = at(x, y);
    if (mode === "b") out += `<circle cx="${cx}" cy="${cy}" r="3.5" class="both"/>`;
    else if (mode === "m") out += `<circle cx="${cx}" cy="${cy}" r="3" class="move"/>`;
    else if (mode === "c") out += `<path d="M${cx - 3} ${cy - 3} L${cx + 3} ${cy + 3} M${cx + 3} ${cy - 3} L${cx - 3} ${cy + 3}" class="capture"/>`;
    else out += `<rect x="${cx - 3}" y="${cy - 3}" width="6" height="6" class="initial"/>`;
  }
  const [px, py] = at(0, 0);
  out += `<circle cx="${px}" cy="${py}" r="4.5" class="centre"/>`;
  const caption = d.files ? `<div class="caption">on files ${d.files}</div>` : "";
  return `<div class="diagram"><svg viewBox="0 0 ${n * cell} ${n * cell}" width="${n * cell}" height="${n * cell}">${out}</svg>${caption}</div>`;
}

function escapeHtml(s) {
  return String(s).replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]);
}

// ---- The state of the game ----

function onState(s) {
  if (!page.variant || s.variant !== page.variant.name) return;
  if (!page.pos || page.pos.cursor !== s.cursor || !s.analysis) page.lines = [];
  page.pos = s;
  page.navPending = Math.max(0, page.navPending - 1);
  if (page.navPending === 0 || s.cursor === page.navTo) {
    page.navTo = null;
    page.navPending = 0;
  }
  page.received = performance.now();
  page.clicks = [];
  const occupied = new Set(s.pieces.map((p) => p.square));
  page.moves = readMoves(s.legal, (sq) => occupied.has(sq));
  renderPieces();
  renderReserves();
  renderHand();
  renderStatus();
  renderMoves();
  renderControls();
  renderClocks();
  renderAnalysis();
  $("fen").textContent = s.fen;
  $("pgn").value = s.pgn;
  hideChoice();
  markTargets();
}

function renderPieces() {
  const s = page.pos;
  document.querySelectorAll("#board .piece").forEach((el) => el.remove());
  document.querySelectorAll("#board .square").forEach((el) => {
    el.title = el.dataset.square;
    el.dataset.info = "";
    el.classList.remove("check", "last", "linked");
    el.style.removeProperty("--link");
  });
  for (const p of s.pieces) {
    const sq = document.querySelector(`#board [data-square="${p.square}"]`);
    if (!sq) continue;
    const el = document.createElement("div");
    el.className = "piece";
    el.dataset.piece = p.piece;
    const info = pieceInfo(p.piece);
    el.title = [`${SIDE_NAMES[p.color]} ${info ? info.name : p.piece} on ${p.square}`, ...p.labels].join("; ");
    el.innerHTML = pieceImage(p.piece);
    // Pieces let clicks through to their square, which carries their description: the whole
    // labels (a label's meaning follows its `: `), shown for the square under the pointer.
    sq.title = el.title;
    sq.dataset.info = el.title;
    if (p.attached) {
      const carried = document.createElement("div");
      carried.className = "attached";
      carried.dataset.attached = p.attached;
      carried.title = `carries ${nameOfLetter(p.attached.replace("_", "")) || p.attached}`;
      carried.innerHTML = pieceImage(p.attached);
      el.appendChild(carried);
    }
    if (p.labels.length) {
      const badges = document.createElement("div");
      badges.className = "badges";
      badges.innerHTML = p.labels
        .map((l) => `<span class="badge" title="${escapeHtml(l)}">${escapeHtml(l.split(": ")[0])}</span>`)
        .join("");
      el.appendChild(badges);
    }
    if (p.link) {
      sq.classList.add("linked");
      sq.style.setProperty("--link", `hsl(${(p.link * 97) % 360} 70% 45%)`);
    }
    sq.appendChild(el);
  }
  for (const c of s.check) {
    const sq = document.querySelector(`#board [data-square="${c}"]`);
    if (sq) sq.classList.add("check");
  }
  const last = s.moves[s.moves.length - 1];
  if (last) {
    for (const m of last.uci.match(/[a-l](?:10|[1-9])/g) || []) {
      const sq = document.querySelector(`#board [data-square="${m}"]`);
      if (sq) sq.classList.add("last");
    }
  }
}

function renderReserves() {
  const s = page.pos;
  const bottom = page.flipped ? "b" : "w";
  const top = page.flipped ? "w" : "b";
  const fill = (id, side) => {
    const el = $(id);
    const list = s.reserve[side] || [];
    el.innerHTML = list.length
      ? `<span class="reserve-title">${SIDE_NAMES[side]} holds</span>` +
        list.map((code) => `<span class="reserve-piece" data-piece="${code}" data-reserve="${side}" title="${escapeHtml((pieceInfo(code) || {}).name || code)}">${pieceImage(code)}</span>`).join("")
      : "";
  };
  fill("reserve-top", top);
  fill("reserve-bottom", bottom);
  fill("reserve-neutral", "n");
}

// Buttons for the moves that start off the board: placing a piece, and passing.
function renderHand() {
  const hand = $("hand");
  hand.innerHTML = "";
  if (!myTurn()) return;
  const turn = page.pos.turn;
  const drops = [];
  for (const m of page.moves) {
    const first = m.steps[0];
    if (first.kind === "drop" && !drops.includes(first.value)) drops.push(first.value);
  }
  for (const letter of drops) {
    const b = document.createElement("button");
    b.className = "drop";
    b.dataset.drop = letter;
    const code = turn === "n" ? `_${letter}` : turn === "w" ? letter : letter.toLowerCase();
    b.title = `place ${nameOfLetter(letter) || letter}`;
    b.innerHTML = pieceImage(code) + `<span>place ${escapeHtml(nameOfLetter(letter) || letter)}</span>`;
    b.addEventListener("click", () => {
      page.clicks = [];
      step({ kind: "drop", value: letter });
    });
    hand.appendChild(b);
  }
  if (page.moves.some((m) => m.steps[0].kind === "pass")) {
    const b = document.createElement("button");
    b.id = "pass";
    b.textContent = "Pass";
    b.addEventListener("click", () => send({ cmd: "move", text: "0000" }));
    hand.appendChild(b);
  }
}

function renderStatus() {
  const s = page.pos;
  const who = SIDE_NAMES[s.turn];
  const player = s.players[s.turn];
  let turn = `${who} to move`;
  if (!s.result) turn += player === "human" ? " (you)" : s.thinking ? " (engine thinking...)" : ` (${player})`;
  $("turn").textContent = s.result ? "" : turn;
  $("turn").dataset.turn = s.turn;
  $("turn-notes").innerHTML = (s.result ? [] : s.turn_notes || []).map((n) => `<li>${escapeHtml(n)}</li>`).join("");
  $("result").textContent = s.result ? `${s.result.result} ${s.result.reason}` : "";
  $("pause").textContent = s.paused ? "Resume engine" : "Pause engine";
}

function renderMoves() {
  renderMoveTree($("moves"), page.pos, (uci) => describeMove(uci, nameOfLetter), (node) => goto(node));
}

function goto(node) {
  if (page.pos && node !== null && node !== page.pos.cursor) send({ cmd: "goto", node });
}

// Analysis mode's controls, lines, bar and arrow, and the graph over the game.
function renderAnalysis() {
  const s = page.pos;
  const on = s.analysis !== null && s.analysis !== undefined;
  $("analyse").textContent = on ? "Stop analysis" : "Analyse";
  $("analyse").classList.toggle("on", on);
  $("eval-bar").hidden = !on;
  $("eval-bar").style.width = `${$("board").offsetWidth}px`;
  if (on) {
    $("lines").value = String(s.analysis);
    renderLines($("analysis-lines"), page.lines, s.analysis);
  } else {
    $("analysis-lines").innerHTML = "";
  }
  drawBestMove(on && page.lines[0] ? page.lines[0].pv_uci[0] : "");
  $("scan-status").textContent = s.scan ? `Analysing the game: position ${s.scan.done} of ${s.scan.total}` : "";
  $("graph").innerHTML = graphSvg(s.tree, s.cursor);
}

function renderControls() {
  const s = page.pos;
  for (const side of ["w", "b"]) $(`player-${side}`).value = s.players[side];
  const tp = s.third_party;
  $("player-n").value = s.players.n === "engine" ? `engine-${tp.favors}` : s.players.n;
  $("seed-row").hidden = s.players.n !== "random";
  const e = s.engine;
  if (document.activeElement.tagName !== "INPUT") {
    $("third-seed").value = tp.seed;
    $("movetime").value = e.movetime_ms / 1000;
    $("depth").value = e.depth || 0;
    $("threads").value = e.threads;
    $("hash").value = e.hash_mb;
    if (s.clock) {
      $("clock-min").value = s.clock.base_ms / 60000;
      $("clock-inc").value = s.clock.increment_ms / 1000;
    }
  }
}

function formatClock(ms) {
  const t = Math.max(0, ms);
  const m = Math.floor(t / 60000);
  const sec = Math.floor((t % 60000) / 1000);
  const tenth = Math.floor((t % 1000) / 100);
  return `${m}:${String(sec).padStart(2, "0")}${m < 1 ? "." + tenth : ""}`;
}

function renderClocks() {
  const s = page.pos;
  if (!s) return;
  const clock = s.clock;
  const bottom = page.flipped ? "b" : "w";
  const top = page.flipped ? "w" : "b";
  for (const [id, side] of [["clock-top", top], ["clock-bottom", bottom]]) {
    const el = $(id);
    if (!clock) {
      el.textContent = "";
      el.hidden = true;
      continue;
    }
    el.hidden = false;
    let left = clock[side];
    if (clock.running === side && !s.result) left -= performance.now() - page.received;
    el.textContent = `${SIDE_NAMES[side]} ${formatClock(left)}`;
    el.classList.toggle("running", clock.running === side && !s.result);
  }
}

function onInfo(info) {
  if (info.analysis) {
    if (!page.pos || info.node !== page.pos.cursor) return;
    page.lines[info.multipv - 1] = info;
    renderAnalysis();
    return;
  }
  const sc = info.score;
  const text = sc.mate !== undefined ? `#${sc.mate}` : (sc.cp >= 0 ? "+" : "") + (sc.cp / 100).toFixed(2);
  $("eval").textContent = text;
  $("depth-now").textContent = `${info.depth}/${info.seldepth}`;
  $("nodes").textContent = `${info.nodes} (${Math.round(info.nps / 1000)} kn/s)`;
  $("pv").textContent = info.pv.join(" ");
}

// ---- Entering moves ----

// Whether a person may move now: their turn, or any turn in analysis mode.
function myTurn() {
  const s = page.pos;
  return s && !s.result && (s.players[s.turn] === "human" || (s.analysis !== null && s.analysis !== undefined));
}

function onSquareClick(sq) {
  if (!myTurn()) return;
  const next = { kind: "square", value: sq };
  if (page.clicks.length && tryStep(next)) return;
  // Not a continuation: start again from this square, or clear the selection.
  page.clicks = [];
  if (!tryStep(next)) {
    hideChoice();
    markTargets();
  }
}

function tryStep(s) {
  const clicks = [...page.clicks, s];
  if (!follow(page.moves, clicks).alive.length) return false;
  page.clicks = clicks;
  resolve();
  return true;
}

function step(s) {
  if (!tryStep(s)) {
    page.clicks = [];
    markTargets();
  }
}

// After a click: send a complete move, offer a choice, or mark the next squares.
function resolve() {
  let f = follow(page.moves, page.clicks);
  // Past the first two clicks, a single way on is taken at once (the Magician to promote, the
  // one Destiny).
  while (page.clicks.length >= 2 && !f.complete.length && f.next.length === 1) {
    page.clicks.push(f.next[0]);
    f = follow(page.moves, page.clicks);
  }
  const choices = f.next.filter((n) => n.kind === "choice");
  if (f.complete.length === 1 && !f.next.length) {
    page.clicks = [];
    hideChoice();
    markTargets();
    send({ cmd: "move", text: f.complete[0].text });
    return;
  }
  markTargets(f);
  if (f.complete.length > 1 || (f.complete.length && f.next.length) || choices.length) {
    offerChoice(f, choices);
  } else {
    hideChoice();
  }
}

function offerChoice(f, choices) {
  const box = $("choice");
  box.innerHTML = '<div class="choice-title">Choose:</div>';
  const turn = page.pos.turn;
  const code = (letter) => (turn === "n" ? `_${letter.toUpperCase()}` : turn === "w" ? letter.toUpperCase() : letter.toLowerCase());
  for (const m of f.complete) {
    const b = document.createElement("button");
    b.className = "option";
    b.dataset.move = m.text;
    b.textContent = `${m.text}: ${describeMove(m.text, nameOfLetter)}`;
    b.addEventListener("click", () => {
      page.clicks = [];
      hideChoice();
      send({ cmd: "move", text: m.text });
    });
    box.appendChild(b);
  }
  for (const c of choices) {
    const b = document.createElement("button");
    b.className = "option";
    b.dataset.choice = c.value;
    const name = c.value.length === 1 ? nameOfLetter(c.value) : null;
    const sample = f.alive.find((m) => m.steps[page.clicks.length] && m.steps[page.clicks.length].value === c.value);
    const label = sample ? `${sample.text}: ${describeMove(sample.text, nameOfLetter)}` : c.value;
    b.innerHTML = (name ? pieceImage(code(c.value)) : "") + `<span>${escapeHtml(label)}</span>`;
    b.addEventListener("click", () => step(c));
    box.appendChild(b);
  }
  const cancel = document.createElement("button");
  cancel.className = "cancel";
  cancel.textContent = "Cancel";
  cancel.addEventListener("click", () => {
    page.clicks = [];
    hideChoice();
    markTargets();
  });
  box.appendChild(cancel);
  box.hidden = false;
}

// Dragging a piece: a press on a square and a release on another are the clicks on both (the
// move entry then goes on as after clicks: a choice, or further squares of a many-part turn).
function wireDrag() {
  const board = $("board");
  board.addEventListener("pointerdown", (e) => {
    const sq = e.target.closest("[data-square]");
    if (!sq || !myTurn() || e.button !== 0) return;
    page.drag = { from: sq.dataset.square, x: e.clientX, y: e.clientY, moved: false, ghost: null };
  });
  window.addEventListener("pointermove", (e) => {
    const d = page.drag;
    if (!d) return;
    if (!d.moved) {
      if (Math.hypot(e.clientX - d.x, e.clientY - d.y) < 5) return;
      d.moved = true;
      const last = page.clicks[page.clicks.length - 1];
      if (!last || last.kind !== "square" || last.value !== d.from) onSquareClick(d.from);
      const piece = board.querySelector(`[data-square="${d.from}"] .piece`);
      if (piece) {
        d.ghost = document.createElement("div");
        d.ghost.className = "drag-ghost";
        d.ghost.style.width = `${piece.offsetWidth}px`;
        d.ghost.style.height = `${piece.offsetHeight}px`;
        d.ghost.innerHTML = piece.innerHTML;
        document.body.appendChild(d.ghost);
        piece.classList.add("dragged");
      }
    }
    if (d.ghost) {
      d.ghost.style.left = `${e.clientX - d.ghost.offsetWidth / 2}px`;
      d.ghost.style.top = `${e.clientY - d.ghost.offsetHeight / 2}px`;
    }
  });
  const end = (e) => {
    const d = page.drag;
    page.drag = null;
    if (!d || !d.moved) return;
    if (d.ghost) d.ghost.remove();
    board.querySelectorAll(".piece.dragged").forEach((p) => p.classList.remove("dragged"));
    const under = e.type === "pointerup" ? document.elementFromPoint(e.clientX, e.clientY) : null;
    const target = under && under.closest("#board [data-square]");
    if (target && target.dataset.square !== d.from) onSquareClick(target.dataset.square);
  };
  window.addEventListener("pointerup", end);
  window.addEventListener("pointercancel", end);
}

function hideChoice() {
  $("choice").hidden = true;
  $("choice").innerHTML = "";
}

function markTargets(f) {
  document.querySelectorAll("#board .square").forEach((el) => el.classList.remove("selected", "dest", "capture", "start"));
  document.querySelectorAll("#hand .drop").forEach((el) => el.classList.remove("selected"));
  if (myTurn() && !page.clicks.length) {
    for (const m of page.moves) {
      if (m.steps[0].kind === "square") {
        const el = document.querySelector(`#board [data-square="${m.steps[0].value}"]`);
        if (el) el.classList.add("start");
      }
    }
  }
  if (!f) return;
  for (const c of page.clicks) {
    if (c.kind === "square") {
      const el = document.querySelector(`#board [data-square="${c.value}"]`);
      if (el) el.classList.add("selected");
    } else if (c.kind === "drop") {
      const el = document.querySelector(`#hand [data-drop="${c.value}"]`);
      if (el) el.classList.add("selected");
    }
  }
  for (const n of f.next) {
    if (n.kind !== "square") continue;
    const el = document.querySelector(`#board [data-square="${n.value}"]`);
    if (!el) continue;
    el.classList.add("dest");
    if (el.querySelector(".piece")) el.classList.add("capture");
  }
}

// ---- Controls ----

function settingsFromForm() {
  const num = (id) => parseFloat($(id).value) || 0;
  return {
    cmd: "settings",
    clock_ms: Math.round(num("clock-min") * 60000),
    increment_ms: Math.round(num("clock-inc") * 1000),
    movetime_ms: Math.max(10, Math.round(num("movetime") * 1000)),
    depth: Math.round(num("depth")),
    threads: Math.max(1, Math.round(num("threads"))),
    hash_mb: Math.max(1, Math.round(num("hash"))),
  };
}

function copyText(text, what) {
  const done = () => showMessage(`${what} copied`);
  if (navigator.clipboard && window.isSecureContext) {
    navigator.clipboard.writeText(text).then(done, () => fallbackCopy(text, done));
  } else {
    fallbackCopy(text, done);
  }
}

function fallbackCopy(text, done) {
  const area = $("pgn");
  const old = area.value;
  area.value = text;
  area.select();
  document.execCommand("copy");
  area.value = old;
  done();
}

function wire() {
  $("variant").addEventListener("change", (e) => send({ cmd: "new", variant: e.target.value }));
  $("new").addEventListener("click", () => send({ cmd: "new", variant: page.variant ? page.variant.name : "" }));
  $("undo").addEventListener("click", () => send({ cmd: "undo" }));
  $("flip").addEventListener("click", () => {
    page.flipped = !page.flipped;
    buildBoard();
    if (page.pos) onState(page.pos);
  });
  $("go").addEventListener("click", () => send({ cmd: "go" }));
  $("stop").addEventListener("click", () => send({ cmd: "stop" }));
  $("pause").addEventListener("click", () => send({ cmd: page.pos && page.pos.paused ? "go" : "pause" }));
  for (const side of ["w", "b"]) {
    const key = { w: "white", b: "black" }[side];
    $(`player-${side}`).addEventListener("change", (e) => send({ cmd: "settings", [key]: e.target.value }));
  }
  // Who plays the third party: the seeded choice, the engine helping a player, or a person.
  $("player-n").addEventListener("change", (e) => {
    const [third, favors] = e.target.value.split("-");
    const cmd = { cmd: "settings", third };
    if (favors) cmd.third_favors = favors === "w" ? "white" : "black";
    if (third === "random") cmd.third_seed = Math.max(0, Math.round(parseFloat($("third-seed").value) || 0));
    send(cmd);
  });
  $("third-seed").addEventListener("change", (e) =>
    send({ cmd: "settings", third_seed: Math.max(0, Math.round(parseFloat(e.target.value) || 0)) }));
  $("apply").addEventListener("click", () => send(settingsFromForm()));
  $("set-fen").addEventListener("click", () => send({ cmd: "fen", fen: $("fen-input").value }));
  $("copy-fen").addEventListener("click", () => page.pos && copyText(page.pos.fen, "FEN"));
  $("copy-pgn").addEventListener("click", () => page.pos && copyText(page.pos.pgn, "PGN"));
  $("load-pgn").addEventListener("click", () => send({ cmd: "pgn", pgn: $("pgn-input").value }));
  $("analyse").addEventListener("click", () => {
    const on = !(page.pos && page.pos.analysis);
    send({ cmd: "analysis", on, lines: parseInt($("lines").value, 10) });
  });
  $("lines").addEventListener("change", () => {
    if (page.pos && page.pos.analysis) send({ cmd: "analysis", on: true, lines: parseInt($("lines").value, 10) });
  });
  $("analyse-game").addEventListener("click", () => send({ cmd: "analyse_game" }));
  $("graph").addEventListener("click", (e) => {
    const svg = $("graph-svg");
    if (!svg || !page.pos) return;
    const line = mainLine(page.pos.tree);
    const box = svg.getBoundingClientRect();
    const i = Math.round(((e.clientX - box.left) / box.width) * (line.length - 1));
    goto(line[Math.max(0, Math.min(line.length - 1, i))]);
  });
  const navigate = (key) => {
    if (!page.pos) return;
    const from = page.navTo ?? page.pos.cursor;
    const node = nodeForKey(page.pos.tree, from, key);
    if (node === null) return;
    page.navTo = node;
    page.navPending += 1;
    send({ cmd: "goto", node });
  };
  $("nav-first").addEventListener("click", () => navigate("Home"));
  $("nav-back").addEventListener("click", () => navigate("ArrowLeft"));
  $("nav-forward").addEventListener("click", () => navigate("ArrowRight"));
  $("nav-last").addEventListener("click", () => navigate("End"));
  document.addEventListener("keydown", (e) => {
    if (e.target.closest("input, textarea, select") || e.altKey || e.ctrlKey || e.metaKey) return;
    if (!["ArrowLeft", "ArrowRight", "Home", "End"].includes(e.key)) return;
    e.preventDefault();
    navigate(e.key);
  });
  wireDrag();
  $("legend-button").addEventListener("click", () => $("legend").showModal());
  $("legend-close").addEventListener("click", () => $("legend").close());
  window.addEventListener("resize", () => {
    if (!page.variant) return;
    buildBoard();
    if (page.pos) onState(page.pos);
  });
  setInterval(renderClocks, 100);
}

wire();
connect();
