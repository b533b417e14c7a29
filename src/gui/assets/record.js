// The game's record on the page: the move list as a tree (the main line, variations inline in
// parentheses), stepping through it by clicks, the arrow keys, Home and End, and the evaluation
// graph over the main line. The server keeps the tree (`state.tree`: a node per move, node 0 the
// start, a node's first child continuing its line) and shows the node it is told to (`goto`).
// Test contract: every move is an element of `#moves` with `data-ply` (its ply from the start)
// and `data-node`, its text the move as written.
"use strict";

// The node that continues the line shown: `node`'s first child.
function nextNode(tree, node) {
  const n = tree[node];
  return n && n.children.length ? n.children[0] : null;
}

// The last node of the line through `node`.
function lineEnd(tree, node) {
  let n = node;
  while (nextNode(tree, n) !== null) n = nextNode(tree, n);
  return n;
}

// The start and the main line.
function mainLine(tree) {
  const out = [0];
  for (let n = nextNode(tree, 0); n !== null; n = nextNode(tree, n)) out.push(n);
  return out;
}

// The node a key leads to from `cursor`, or null.
function nodeForKey(tree, cursor, key) {
  if (key === "ArrowLeft") return cursor === 0 ? null : tree[cursor].parent;
  if (key === "ArrowRight") return nextNode(tree, cursor);
  if (key === "Home") return cursor === 0 ? null : 0;
  if (key === "End") {
    const end = lineEnd(tree, cursor);
    return end === cursor ? null : end;
  }
  return null;
}

// Fills `list` with the tree's moves; `onPick(node)` is called when one is clicked.
function renderMoveTree(list, state, describe, onPick) {
  list.innerHTML = "";
  const tree = state.tree;
  const ply = (container, id, number) => {
    const node = tree[id];
    if (node.side !== "n") {
      const full = Math.floor(node.number_ply / 2) + 1;
      let label = "";
      if (node.number_ply % 2 === 0) label = `${full}.`;
      else if (number) label = `${full}...`;
      if (label) {
        const num = document.createElement("span");
        num.className = "number";
        num.textContent = label;
        container.appendChild(num);
      }
    }
    const el = document.createElement("span");
    el.className = `ply side-${node.side}${id === state.cursor ? " current" : ""}`;
    el.dataset.ply = node.ply;
    el.dataset.node = id;
    el.textContent = node.text;
    el.title = describe(node.uci);
    el.addEventListener("click", () => onPick(id));
    container.appendChild(el);
    // A third party's ply is followed by the next player's number.
    return node.side === "n";
  };
  const line = (container, from, number) => {
    let n = from;
    while (tree[n].children.length) {
      const [main, ...others] = tree[n].children;
      number = ply(container, main, number);
      for (const alt of others) {
        const variation = document.createElement("span");
        variation.className = "variation";
        line(variation, alt, ply(variation, alt, true));
        container.appendChild(variation);
      }
      if (others.length) number = true;
      n = main;
    }
  };
  line(list, 0, true);
  const current = list.querySelector(".current");
  if (current) current.scrollIntoView({ block: "nearest" });
}

// A score as a number of pawns from White's side for the graph and the bar: a mate counts as
// ten pawns.
function scorePawns(score) {
  if (!score) return null;
  if (score.mate !== undefined) return score.mate >= 0 ? 10 : -10;
  return score.cp / 100;
}

// The evaluation graph over the main line as SVG, or "" while fewer than two positions of it
// have a score. The points are `data-node` circles; `cursor` is marked.
function graphSvg(tree, cursor) {
  const line = mainLine(tree);
  const scored = line.filter((n) => tree[n].eval);
  if (scored.length < 2) return "";
  const W = 340;
  const H = 100;
  const x = (i) => (line.length === 1 ? 0 : (i / (line.length - 1)) * (W - 8) + 4);
  const y = (pawns) => H / 2 - (Math.max(-5, Math.min(5, pawns)) / 5) * (H / 2 - 4);
  let path = "";
  let dots = "";
  line.forEach((n, i) => {
    const p = scorePawns(tree[n].eval);
    if (p === null) return;
    path += `${path ? "L" : "M"}${x(i).toFixed(1)} ${y(p).toFixed(1)} `;
    dots += `<circle class="point" data-node="${n}" cx="${x(i).toFixed(1)}" cy="${y(p).toFixed(1)}" r="2.5"><title>${tree[n].text || "start"}: ${p.toFixed(2)}</title></circle>`;
  });
  const at = line.indexOf(cursor);
  const mark = at >= 0 ? `<line class="cursor" x1="${x(at)}" x2="${x(at)}" y1="0" y2="${H}"/>` : "";
  return `<svg id="graph-svg" viewBox="0 0 ${W} ${H}" width="100%" preserveAspectRatio="none">` +
    `<rect class="white-half" x="0" y="${H / 2}" width="${W}" height="${H / 2}"/>` +
    `<line class="zero" x1="0" x2="${W}" y1="${H / 2}" y2="${H / 2}"/>${mark}<path d="${path}"/>${dots}</svg>`;
}

if (typeof module !== "undefined") {
  module.exports = { nextNode, lineEnd, mainLine, nodeForKey, scorePawns, graphSvg };
}
