// Entering moves by clicks, worked out from the texts of the legal moves the engine sends
// (docs/protocol.md). Each text becomes a list of steps: squares to click, a piece to place
// (`Q@e5`), a pass, and choices (a promotion letter, a Destiny). A click keeps the legal moves
// whose steps begin with the clicks so far; the page marks their next squares, offers a choice
// when several moves remain at the same point, and sends the move when one is complete.
"use strict";

const SQUARE = "[a-l](?:10|[1-9])";
const LEG = new RegExp(`^(${SQUARE})(${SQUARE})([a-z]?)$`);
const DROP = new RegExp(`^([A-Za-z])@(${SQUARE})$`);
const SUFFIX_PROMOTION = new RegExp(`^(${SQUARE})([a-z])$`);
const SUFFIX_ARRIVAL = new RegExp(`^([A-Za-z])@(${SQUARE}|-)$`);

// The steps of a move text; `occupied(sq)` says whether a square holds a piece now. Returns
// null for a text this page cannot read (the move can still be chosen from the list).
function moveSteps(text, occupied) {
  const parts = text.split(/(?=[+/])/);
  const steps = mainSteps(parts[0], occupied);
  if (!steps) return null;
  for (const part of parts.slice(1)) {
    const more = part[0] === "+" ? extraStep(part.slice(1)) : arrivalSteps(part.slice(1));
    if (!more) return null;
    steps.push(...more);
  }
  return steps;
}

function mainSteps(main, occupied) {
  if (main === "0000") return [{ kind: "pass" }];
  const drop = DROP.exec(main);
  if (drop) return [{ kind: "drop", value: drop[1].toUpperCase() }, { kind: "square", value: drop[2] }];
  const legs = main.split(",").map((l) => LEG.exec(l));
  if (legs.some((l) => !l) || legs.slice(0, -1).some((l) => l[3])) return null;
  // The squares in order, a leg's start left out when the previous leg ended there.
  const squares = [legs[0][1], legs[0][2]];
  for (const l of legs.slice(1)) {
    if (l[1] !== squares[squares.length - 1]) squares.push(l[1]);
    squares.push(l[2]);
  }
  const letter = legs[legs.length - 1][3];
  const first = squares[0];
  const last = squares[squares.length - 1];
  let path;
  if (squares.length >= 3 && last === first) {
    // Out and back (a shot): the piece stays; its target is the first leg's end.
    path = [first, squares[1]];
  } else {
    // Squares between that hold a piece (an en-passant victim, a shield's partners) are
    // effects of the move, not places to click.
    const between = squares.slice(1, -1).filter((s) => !occupied(s));
    path = [first, ...between, last];
  }
  const steps = path.map((s) => ({ kind: "square", value: s }));
  if (letter) steps.push({ kind: "choice", value: letter });
  return steps;
}

// `+h1h2`: a second piece's step in the same turn.
function extraStep(text) {
  const leg = LEG.exec(text);
  if (!leg || leg[3]) return null;
  return [{ kind: "square", value: leg[1] }, { kind: "square", value: leg[2] }];
}

// `/a1h` (the piece on a1 becomes an H) or `/F@j2` (the piece F arrives on j2; `-`: it ceases to
// exist).
function arrivalSteps(text) {
  const promo = SUFFIX_PROMOTION.exec(text);
  if (promo) return [{ kind: "square", value: promo[1] }, { kind: "choice", value: promo[2] }];
  const arrival = SUFFIX_ARRIVAL.exec(text);
  if (!arrival) return null;
  if (arrival[2] === "-") return [{ kind: "choice", value: text }];
  return [{ kind: "square", value: arrival[2] }];
}

function sameStep(a, b) {
  return a.kind === b.kind && a.value === b.value;
}

// The legal moves as `{ text, steps }`.
function readMoves(texts, occupied) {
  return texts.map((text) => ({ text, steps: moveSteps(text, occupied) })).filter((m) => m.steps);
}

// Where the clicks `done` lead among `moves`: the moves still possible, the complete ones, and
// the next steps of the others.
function follow(moves, done) {
  const alive = moves.filter(
    (m) => m.steps.length >= done.length && done.every((s, i) => sameStep(s, m.steps[i]))
  );
  const complete = alive.filter((m) => m.steps.length === done.length);
  const next = [];
  for (const m of alive) {
    const s = m.steps[done.length];
    if (s && !next.some((n) => sameStep(n, s))) next.push(s);
  }
  return { alive, complete, next };
}

// A short description of a move, from its text alone.
function describeMove(text, nameOf) {
  const parts = text.split(/(?=[+/])/);
  const main = parts[0];
  const bits = [];
  if (main === "0000") bits.push("pass");
  else if (DROP.test(main)) {
    const d = DROP.exec(main);
    bits.push(`place ${nameOf(d[1]) || d[1]} on ${d[2]}`);
  } else {
    const legs = main.split(",");
    const first = LEG.exec(legs[0]);
    const lastLeg = LEG.exec(legs[legs.length - 1]) || first;
    if (!first) return text;
    if (legs.length > 1 && lastLeg[2] === first[1]) bits.push(`${first[1]} shoots at ${first[2]}`);
    else if (legs.length > 1) bits.push(`${first[1]} to ${lastLeg[2]} by ${first[2]}`);
    else if (first[1] === first[2]) bits.push(`on ${first[1]}`);
    else bits.push(`${first[1]} to ${first[2]}`);
    if (lastLeg[3]) bits.push(`as ${nameOf(lastLeg[3]) || lastLeg[3]}`);
  }
  for (const part of parts.slice(1)) {
    const body = part.slice(1);
    const step = LEG.exec(body);
    if (part[0] === "+" && step) bits.push(`then ${step[1]} to ${step[2]}`);
    const promo = SUFFIX_PROMOTION.exec(body);
    const arrival = SUFFIX_ARRIVAL.exec(body);
    if (part[0] === "/" && promo) bits.push(`and ${promo[1]} becomes ${nameOf(promo[2]) || promo[2]}`);
    if (part[0] === "/" && arrival) {
      const who = nameOf(arrival[1]) || arrival[1];
      bits.push(arrival[2] === "-" ? `${who} ceases to exist` : `${who} goes to ${arrival[2]}`);
    }
  }
  return bits.join(", ");
}

if (typeof module !== "undefined") module.exports = { moveSteps, readMoves, follow, describeMove };
