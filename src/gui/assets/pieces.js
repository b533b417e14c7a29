// Piece images for every game: one SVG set in one style. A piece is found by its name in the
// game's catalogue (the same letter names different pieces in different games: H is a Hyena,
// a High-Priestess or a High Priest). Each image is a silhouette on a common pedestal, in the
// colours of its side: White (ivory), Black (ebony) or the neutral side (bronze). Pieces
// without a silhouette of their own show their letter on a disc.
"use strict";

const PIECE_COLOURS = {
  w: { fill: "#fbf8ee", line: "#1d1d1d", detail: "#1d1d1d" },
  b: { fill: "#2f2f33", line: "#0b0b0b", detail: "#f2f2f2" },
  n: { fill: "#c08a3e", line: "#3b2608", detail: "#3b2608" },
};

const PEDESTAL = '<path d="M22 90 H78 L74 80 H26 Z"/>';

// Silhouettes: each draws on a 100x100 box with `c` = { fill, line, detail }.
const SHAPES = {
  king: (c) => PEDESTAL +
    '<path d="M31 80 L27 52 C25 40 38 34 50 44 C62 34 75 40 73 52 L69 80 Z"/>' +
    '<path d="M46 10 H54 V19 H63 V27 H54 V40 H46 V27 H37 V19 H46 Z"/>' +
    `<path d="M33 62 H67" stroke="${c.detail}" fill="none"/>`,
  queen: (c) => PEDESTAL +
    '<path d="M30 80 L24 34 L38 56 L43 26 L50 52 L57 26 L62 56 L76 34 L70 80 Z"/>' +
    [24, 43, 57, 76].map((x, i) => `<circle cx="${x}" cy="${i % 3 ? 22 : 30}" r="5"/>`).join("") +
    '<circle cx="50" cy="18" r="5"/>' +
    `<path d="M32 68 H68" stroke="${c.detail}" fill="none"/>`,
  rook: (c) => PEDESTAL +
    '<path d="M32 80 V44 H68 V80 Z"/>' +
    '<path d="M27 44 V22 H36 V30 H45 V22 H55 V30 H64 V22 H73 V44 Z"/>' +
    `<path d="M33 56 H67" stroke="${c.detail}" fill="none"/>`,
  bishop: (c) => PEDESTAL +
    '<path d="M40 60 L35 80 H65 L60 60 Z"/>' +
    '<path d="M50 16 C35 28 32 44 38 60 H62 C68 44 65 28 50 16 Z"/>' +
    '<circle cx="50" cy="13" r="5"/>' +
    `<path d="M55 30 L47 44" stroke="${c.detail}" fill="none"/>`,
  knight: (c) => PEDESTAL +
    '<path d="M33 80 C33 66 40 58 47 51 C40 52 31 56 27 51 C23 46 29 38 37 31 C41 22 50 16 58 17 C71 19 75 36 73 50 C71 62 69 70 69 80 Z"/>' +
    `<circle cx="48" cy="30" r="3" fill="${c.detail}" stroke="none"/>`,
  pawn: () => PEDESTAL +
    '<path d="M35 80 C35 64 41 56 44 52 H56 C59 56 65 64 65 80 Z"/>' +
    '<ellipse cx="50" cy="51" rx="12" ry="4"/>' +
    '<circle cx="50" cy="36" r="12"/>',
  squire: (c) => PEDESTAL +
    '<path d="M34 80 V40 H66 V80 Z"/>' +
    '<path d="M30 40 V26 H38 V32 H46 V26 H54 V32 H62 V26 H70 V40 Z"/>' +
    '<path d="M50 26 V8"/><path d="M50 8 L66 13 L50 18 Z"/>' +
    `<path d="M40 50 L60 70 M60 50 L40 70" stroke="${c.detail}" fill="none"/>`,
  crownedKnight: (c) => SHAPES.knight(c) +
    '<path d="M49 18 L51 6 L57 13 L63 5 L66 17 Z"/>',
  viceroy: (c) => SHAPES.bishop(c) +
    `<path d="M50 38 V54 M42 46 H58" stroke="${c.detail}" fill="none"/>`,
  bobber: (c) => PEDESTAL +
    '<path d="M44 80 V22 H56 V80 Z"/>' +
    [30, 45, 60, 74].map((y) => `<ellipse cx="50" cy="${y}" rx="20" ry="6"/>`).join("") +
    `<circle cx="50" cy="14" r="7"/>`,
  teleporter: (c) => PEDESTAL +
    '<ellipse cx="50" cy="48" rx="24" ry="32"/>' +
    `<ellipse cx="50" cy="48" rx="14" ry="22" fill="none" stroke="${c.detail}"/>` +
    `<path d="M54 30 L44 50 H54 L46 68" stroke="${c.detail}" fill="none"/>`,
  existentialist: (c) => PEDESTAL +
    '<path d="M30 14 H70 V20 C70 34 56 40 54 47 C56 54 70 60 70 74 V80 H30 V74 C30 60 44 54 46 47 C44 40 30 34 30 20 Z"/>' +
    `<path d="M40 72 H60 L50 60 Z" fill="${c.detail}" stroke="none"/>`,
  dazzler: (c) => PEDESTAL +
    '<path d="M42 80 L45 56 H55 L58 80 Z"/>' +
    '<path d="M50 8 L56 28 L74 18 L64 36 L84 42 L64 48 L74 66 L56 56 L50 74 L44 56 L26 66 L36 48 L16 42 L36 36 L26 18 L44 28 Z"/>' +
    `<circle cx="50" cy="42" r="7" fill="${c.detail}" stroke="none"/>`,
  hyena: (c) => PEDESTAL +
    '<path d="M30 80 C28 62 32 50 36 44 L30 18 L44 34 H56 L70 18 L64 44 C68 50 72 62 70 80 Z"/>' +
    `<circle cx="42" cy="50" r="3" fill="${c.detail}" stroke="none"/><circle cx="58" cy="50" r="3" fill="${c.detail}" stroke="none"/>` +
    `<path d="M42 66 L46 62 L50 66 L54 62 L58 66" stroke="${c.detail}" fill="none"/>`,
  archer: (c) => PEDESTAL +
    '<path d="M36 80 C36 66 42 60 46 56 H54 C58 60 64 66 64 80 Z"/>' +
    '<path d="M30 10 C62 22 62 62 30 74" fill="none" stroke-width="6"/>' +
    `<path d="M30 10 C62 22 62 62 30 74" fill="none" stroke="${c.fill}" stroke-width="2"/>` +
    '<path d="M31 11 V73" fill="none"/><path d="M22 42 H74"/><path d="M74 42 L64 36 V48 Z"/>',
  zednick: (c) => PEDESTAL +
    '<path d="M26 14 H74 V44 C74 62 62 72 50 80 C38 72 26 62 26 44 Z"/>' +
    `<path d="M40 30 H60 L40 58 H60" stroke="${c.detail}" fill="none"/>`,
  guard: (c) => PEDESTAL +
    '<path d="M26 14 H74 V44 C74 62 62 72 50 80 C38 72 26 62 26 44 Z"/>' +
    `<path d="M50 22 V68 M34 38 H66" stroke="${c.detail}" fill="none"/>`,
  yanzee: (c) => PEDESTAL +
    '<path d="M30 80 V40 C30 22 40 14 50 14 C60 14 70 22 70 40 V80 L63 72 L57 80 L50 72 L43 80 L37 72 Z"/>' +
    `<circle cx="42" cy="38" r="4" fill="${c.detail}" stroke="none"/><circle cx="58" cy="38" r="4" fill="${c.detail}" stroke="none"/>`,
  leftSchizzy: (c) => schizzy(c, false),
  rightSchizzy: (c) => schizzy(c, true),
  wildcat: (c) => PEDESTAL +
    '<path d="M30 80 C27 64 28 52 32 42 L30 14 L46 30 H54 L70 14 L68 42 C72 52 73 64 70 80 Z"/>' +
    `<path d="M40 48 L44 52 M60 48 L56 52 M50 58 V62 M24 58 H40 M24 66 H40 M60 58 H76 M60 66 H76" stroke="${c.detail}" fill="none"/>`,
  adventurist: (c) => SHAPES.pawn(c) +
    `<path d="M50 27 L53 34 L60 36 L53 38 L50 45 L47 38 L40 36 L47 34 Z" fill="${c.detail}" stroke="none"/>`,
  magician: (c) => PEDESTAL +
    '<path d="M28 80 C34 70 38 56 42 40 L52 8 L60 40 C62 56 66 70 72 80 Z"/>' +
    `<path d="M50 48 L53 55 L60 56 L54 60 L56 67 L50 63 L44 67 L46 60 L40 56 L47 55 Z" fill="${c.detail}" stroke="none"/>`,
  highPriestess: (c) => PEDESTAL +
    '<path d="M32 80 C30 64 30 52 34 44 H66 C70 52 70 64 68 80 Z"/>' +
    '<path d="M34 44 L30 24 L42 34 L50 20 L58 34 L70 24 L66 44 Z"/>' +
    `<path d="M56 52 A10 10 0 1 0 56 72 A8 8 0 1 1 56 52 Z" fill="${c.detail}" stroke="none"/>`,
  telepath: (c) => PEDESTAL +
    '<path d="M36 80 L40 60 H60 L64 80 Z"/>' +
    '<path d="M12 40 C28 16 72 16 88 40 C72 64 28 64 12 40 Z"/>' +
    `<circle cx="50" cy="40" r="11" fill="${c.detail}" stroke="none"/><circle cx="50" cy="40" r="4" fill="${c.fill}" stroke="none"/>`,
  crab: (c) => PEDESTAL +
    '<ellipse cx="50" cy="58" rx="24" ry="16"/>' +
    '<path d="M30 48 C20 40 18 28 24 20 L30 30 L34 18 C40 26 38 38 34 46"/>' +
    '<path d="M70 48 C80 40 82 28 76 20 L70 30 L66 18 C60 26 62 38 66 46"/>' +
    `<circle cx="44" cy="52" r="3" fill="${c.detail}" stroke="none"/><circle cx="56" cy="52" r="3" fill="${c.detail}" stroke="none"/>` +
    '<path d="M30 66 L22 76 M38 72 L34 80 M70 66 L78 76 M62 72 L66 80" fill="none"/>',
  pharaoh: (c) => PEDESTAL +
    '<path d="M24 80 L30 44 C30 22 40 14 50 14 C60 14 70 22 70 44 L76 80 Z"/>' +
    `<path d="M36 44 H64 M33 56 H67 M31 68 H69" stroke="${c.detail}" fill="none"/>` +
    '<path d="M44 14 L50 4 L56 14"/>',
  warrior: (c) => PEDESTAL +
    '<path d="M46 70 V14 L50 6 L54 14 V70 Z"/>' +
    '<path d="M32 62 H68 V70 H32 Z"/><path d="M47 70 H53 V80 H47 Z"/>',
  chariot: (c) => PEDESTAL +
    '<circle cx="50" cy="46" r="28"/>' +
    `<circle cx="50" cy="46" r="6" fill="${c.detail}" stroke="none"/>` +
    `<path d="M50 20 V72 M24 46 H76 M32 28 L68 64 M68 28 L32 64" stroke="${c.detail}" fill="none"/>`,
  slave: (c) => SHAPES.pawn(c) +
    `<path d="M40 66 H60" stroke="${c.detail}" fill="none"/><ellipse cx="50" cy="72" rx="6" ry="4" fill="none" stroke="${c.detail}"/>`,
  freedSlave: (c) => PEDESTAL +
    '<path d="M35 80 C35 64 41 56 44 52 H56 C59 56 65 64 65 80 Z"/>' +
    '<circle cx="50" cy="36" r="12"/>' +
    '<path d="M30 30 L22 18 M70 30 L78 18" fill="none"/>' +
    `<path d="M42 68 L47 64 M53 72 L58 68" stroke="${c.detail}" fill="none"/>`,
  highPriest: (c) => PEDESTAL +
    '<path d="M50 38 C38 34 34 24 38 16 C42 8 58 8 62 16 C66 24 62 34 50 38 Z M50 30 C56 26 57 20 54 16 C52 13 48 13 46 16 C43 20 44 26 50 30 Z" fill-rule="evenodd"/>' +
    '<path d="M45 38 H55 V80 H45 Z"/><path d="M28 44 H72 V52 H28 Z"/>',
  mercenary: (c) => PEDESTAL +
    '<path d="M47 80 V26 H53 V80 Z"/><path d="M50 6 L60 28 H40 Z"/>' +
    '<path d="M34 52 C34 42 66 42 66 52 C66 66 34 66 34 52 Z"/>',
  sethling: (c) => PEDESTAL +
    '<path d="M30 80 C30 66 70 70 70 56 C70 42 32 48 32 34 C32 22 46 14 58 18 C66 20 68 28 62 30 C54 26 44 28 46 34 C48 40 82 38 82 58 C82 78 44 72 44 80 Z"/>' +
    `<circle cx="58" cy="23" r="2.5" fill="${c.detail}" stroke="none"/>`,
};

function schizzy(c, right) {
  const half = right
    ? '<path d="M50 14 C66 14 76 28 76 46 C76 62 70 72 68 80 H50 Z"/>'
    : '<path d="M50 14 C34 14 24 28 24 46 C24 62 30 72 32 80 H50 Z"/>';
  const other = right
    ? `<path d="M50 14 C34 14 24 28 24 46 C24 62 30 72 32 80 H50 Z" fill="${c.detail}"/>`
    : `<path d="M50 14 C66 14 76 28 76 46 C76 62 70 72 68 80 H50 Z" fill="${c.detail}"/>`;
  const arrow = right ? "M58 30 L70 46 L58 62" : "M42 30 L30 46 L42 62";
  return PEDESTAL + half + other + `<path d="${arrow}" fill="none" stroke="${right ? c.detail : c.fill}" stroke-width="5"/>`;
}

// Names (as the catalogues write them) to silhouettes; a promoted form adds a star.
const NAME_SHAPES = [
  [/^promoted king$/, "king", true],
  [/^promoted queen$/, "queen", true],
  [/^promoted (knight|guard)$/, "knight", true],
  [/^promoted pawn$/, "pawn", true],
  [/crowned knight/, "crownedKnight"],
  [/left schizzy/, "leftSchizzy"],
  [/right schizzy/, "rightSchizzy"],
  [/high.priestess/, "highPriestess"],
  [/high.priest/, "highPriest"],
  [/freed slave/, "freedSlave"],
  [/pharaoh/, "pharaoh"],
  [/warrior/, "warrior"],
  [/chariot/, "chariot"],
  [/slave/, "slave"],
  [/mercenary/, "mercenary"],
  [/sethling/, "sethling"],
  [/existentialist/, "existentialist"],
  [/adventurist/, "adventurist"],
  [/squire/, "squire"],
  [/viceroy/, "viceroy"],
  [/bobber/, "bobber"],
  [/teleporter/, "teleporter"],
  [/dazzler/, "dazzler"],
  [/hyena/, "hyena"],
  [/archer/, "archer"],
  [/zednick/, "zednick"],
  [/yanzee/, "yanzee"],
  [/wildcat/, "wildcat"],
  [/magician/, "magician"],
  [/telepath/, "telepath"],
  [/guard/, "guard"],
  [/crab/, "crab"],
  [/king/, "king"],
  [/queen/, "queen"],
  [/rook/, "rook"],
  [/bishop/, "bishop"],
  [/knight/, "knight"],
  [/pawn/, "pawn"],
];

// Silhouettes that are the FIDE pieces, drawn without a letter.
const PLAIN = new Set(["king", "queen", "rook", "bishop", "knight", "pawn"]);

const STAR = (c) =>
  `<path d="M80 6 L84 16 L95 17 L87 24 L89 35 L80 29 L71 35 L73 24 L65 17 L76 16 Z" fill="#e2b714" stroke="${c.line}" stroke-width="2"/>`;

// An SVG image of a piece: `name` from the catalogue, `letter` its FEN letter, `side` w, b or n.
function pieceSvg(name, letter, side) {
  const c = PIECE_COLOURS[side] || PIECE_COLOURS.w;
  const lower = (name || "").toLowerCase();
  const entry = NAME_SHAPES.find(([re]) => re.test(lower));
  let body;
  let tag = "";
  if (entry) {
    body = SHAPES[entry[1]](c);
    if (entry[2]) body += STAR(c);
    if (!PLAIN.has(entry[1]) || entry[2]) tag = letterTag(letter, c);
  } else {
    body = `<circle cx="50" cy="48" r="36"/>` +
      `<text x="50" y="62" text-anchor="middle" font-size="44" font-family="sans-serif" font-weight="bold" fill="${c.detail}" stroke="none">${letter.toUpperCase()}</text>`;
  }
  const dash = side === "n" ? ' stroke-dasharray="none"' : "";
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100" class="piece-svg side-${side}">` +
    `<g fill="${c.fill}" stroke="${c.line}" stroke-width="3" stroke-linejoin="round" stroke-linecap="round"${dash}>${body}</g>${tag}</svg>`;
}

function letterTag(letter, c) {
  return `<text x="8" y="97" font-size="20" font-family="sans-serif" font-weight="bold" fill="${c.detail === c.line ? c.line : c.fill}" stroke="${c.detail === c.line ? "#fff" : c.line}" stroke-width="4" paint-order="stroke">${letter.toUpperCase()}</text>`;
}

if (typeof module !== "undefined") module.exports = { pieceSvg, NAME_SHAPES, SHAPES };
