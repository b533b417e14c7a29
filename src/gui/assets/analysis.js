// Analysis mode on the page: the engine's lines (MultiPV) with score, depth and moves, the
// evaluation bar, and the best move drawn on the board: an arrow for each part of a move that
// goes from one square to another (an Afterlife turn has several), a ring where a piece is
// placed or arrives (a Chaos drop, a Destiny). The moves are read from their coordinate text
// (docs/protocol.md), as the move entry reads them.
"use strict";

const ARROW_SQUARE = /[a-l](?:10|[1-9])/g;

// The parts of a move text to draw: `{ arrows: [[from, to]], marks: [square] }`.
function moveShapes(text) {
  const arrows = [];
  const marks = [];
  if (!text || text === "0000") return { arrows, marks };
  const parts = text.split(/(?=[+/])/);
  const main = parts[0];
  const drop = /^[A-Za-z]@([a-l](?:10|[1-9]))$/.exec(main);
  if (drop) marks.push(drop[1]);
  else {
    for (const leg of main.split(",")) {
      const sq = leg.match(ARROW_SQUARE) || [];
      if (sq.length >= 2 && sq[0] !== sq[1]) arrows.push([sq[0], sq[1]]);
      else if (sq.length >= 1) marks.push(sq[0]);
    }
    // A shot goes out and back: its way back is not drawn.
    if (arrows.length === 2 && arrows[0][0] === arrows[1][1] && arrows[0][1] === arrows[1][0]) arrows.pop();
  }
  for (const part of parts.slice(1)) {
    const sq = part.match(ARROW_SQUARE) || [];
    if (part[0] === "+" && sq.length >= 2) arrows.push([sq[0], sq[1]]);
    else if (sq.length >= 1) marks.push(sq[sq.length - 1]);
  }
  return { arrows, marks };
}

// Draws `text` on the board's overlay (`#arrows`), or clears it.
function drawBestMove(text) {
  const board = document.getElementById("board");
  let svg = document.getElementById("arrows");
  if (!svg) {
    svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
    svg.id = "arrows";
    board.appendChild(svg);
  }
  svg.setAttribute("width", board.clientWidth);
  svg.setAttribute("height", board.clientHeight);
  const centre = (sq) => {
    const el = board.querySelector(`[data-square="${sq}"]`);
    return el ? [el.offsetLeft + el.offsetWidth / 2, el.offsetTop + el.offsetHeight / 2, el.offsetWidth] : null;
  };
  const { arrows, marks } = moveShapes(text);
  let out = '<defs><marker id="arrowhead" viewBox="0 0 10 10" refX="5" refY="5" markerWidth="3" markerHeight="3" orient="auto"><path d="M0 0 L10 5 L0 10 z"/></marker></defs>';
  for (const [from, to] of arrows) {
    const a = centre(from);
    const b = centre(to);
    if (!a || !b) continue;
    // Stop short of the target's centre so the head sits on the square.
    const len = Math.hypot(b[0] - a[0], b[1] - a[1]) || 1;
    const k = Math.max(0, (len - b[2] * 0.3) / len);
    const x2 = a[0] + (b[0] - a[0]) * k;
    const y2 = a[1] + (b[1] - a[1]) * k;
    out += `<line class="arrow" data-from="${from}" data-to="${to}" x1="${a[0]}" y1="${a[1]}" x2="${x2}" y2="${y2}" stroke-width="${Math.max(4, a[2] / 6)}" marker-end="url(#arrowhead)"/>`;
  }
  for (const sq of marks) {
    const c = centre(sq);
    if (c) out += `<circle class="mark" data-square-mark="${sq}" cx="${c[0]}" cy="${c[1]}" r="${c[2] * 0.4}" stroke-width="${Math.max(3, c[2] / 10)}"/>`;
  }
  svg.innerHTML = text ? out : "";
}

// A score for the lines and the bar: `+0.25`, `#3`, `-` when there is none.
function scoreText(score) {
  if (!score) return "-";
  if (score.mate !== undefined) return `#${score.mate}`;
  return (score.cp >= 0 ? "+" : "") + (score.cp / 100).toFixed(2);
}

// The bar's share for White, from 0 to 100.
function whiteShare(score) {
  if (!score) return 50;
  if (score.mate !== undefined) return score.mate >= 0 ? 100 : 0;
  return 50 + 50 * (2 / (1 + Math.exp(-score.cp / 400)) - 1);
}

// Shows analysis lines `lines` (indexed from 0) in `list` and the first one on the bar.
function renderLines(list, lines, count) {
  list.innerHTML = "";
  for (let i = 0; i < count; i++) {
    const line = lines[i];
    const li = document.createElement("li");
    li.className = "line";
    li.dataset.line = i + 1;
    if (line) {
      li.innerHTML = `<b class="score"></b> <span class="depth"></span> <span class="line-moves"></span>`;
      li.querySelector(".score").textContent = scoreText(line.score);
      li.querySelector(".depth").textContent = line.depth ? `d${line.depth}` : "";
      li.querySelector(".line-moves").textContent = line.pv.join(" ");
    } else {
      li.textContent = "...";
    }
    list.appendChild(li);
  }
  const first = lines[0];
  document.getElementById("eval-fill").style.width = `${whiteShare(first && first.score)}%`;
  document.getElementById("eval-bar-text").textContent = first ? scoreText(first.score) : "";
}

if (typeof module !== "undefined") module.exports = { moveShapes, scoreText, whiteShare };
