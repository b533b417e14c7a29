#!/usr/bin/env python3
"""Browser tests of `menagerie gui` in real Chromium (selenium), for every game the page lists.

For each game: load `?variant=<name>`; count the `data-square` elements against the board the
rules describe; compare `#fen` with the start position the rules give; play a move by clicks
and see the engine reply; undo; then play the game's special moves by clicks from set-up
positions and check the board the rules say they lead to. Expected values come from the rules
(`../shared/rules/RULINGS.md`, `docs/rules/`), not from the engine.

Then, in FIDE chess, Afterlife and Chaos, the analysis board: stepping through the move list
by clicks and keys, variations, PGN in and out, analysis mode with its lines and arrow, the
evaluation graph, drag and drop, a 400 px wide window, and an error cleared by the next
success.

Usage: browser.py URL [--screenshots DIR] [--only NAME] [--filter TEXT] [--suite games|board]
Exits non-zero if any check fails; prints `N passed, N failed`.
"""

import argparse
import os
import sys
import tempfile
import time
import traceback

from selenium import webdriver
from selenium.common.exceptions import TimeoutException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

WAIT = 20  # seconds for any one thing to appear

AFTERLIFE_START = "wphw*1*****/ssss*******/4*1*****/1_M_M1*1*****/4*1*_E**_E/SSSS*1*4/WHPW*1*_E**_E w - - 0 1"
# Afterlife positions (RULINGS §10): a White Freed Slave waits in Limbo (f7); a White Warrior
# marked {x} waits there; a White Warrior stands on the Feather (f5).
AFTERLIFE_LIMBO_F = "wphw*F*****/ssss*******/4*1*****/1_M_M1*1*****/4*1*_E**_E/SSSS*1*4/WHPW*1*_E**_E w - - 0 1"
AFTERLIFE_LIMBO_WX = "wphw*W{x}*****/ssss*******/4*1*****/1_M_M1*1*****/4*1*_E**_E/SSSS*1*4/1HPW*1*_E**_E w - - 0 1"
AFTERLIFE_FEATHER = "wphw*1*****/ssss*******/4*W*****/1_M_M1*1*****/4*1*_E**_E/SSSS*1*4/1HPW*1*_E**_E w - - 0 1"
# Chaos (RULINGS §11): Nature to act, Black moving after it.
CHAOS_NATURE = "r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R[_Q_R_B_N] n KQkq - 3 3 5b"

# Per game, from the rules: playable squares, start FEN, a first move by clicks.
GAMES = {
    "chess": {
        "squares": 64,
        "start": "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "first": ["e2", "e4"],
    },
    "divergent": {
        "squares": 100,
        "start": "rngbqkbgnr/pppppppppp/10/10/10/10/10/10/PPPPPPPPPP/RNGBQKBGNR w - - 0 1",
        "first": ["e2", "e5"],  # the pawn's triple step
    },
    "magician": {
        "squares": 64,
        "start": "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "first": ["d2", "d4"],
    },
    "schizophrenic": {
        "squares": 84,
        "start": "tlscbokbcsjt/pppppppppppp/12/12/12/PPPPPPPPPPPP/TLSCBOKBCSJT w KQkq - 0 1",
        "first": ["f2", "f3"],
    },
    "existentialist": {
        "squares": 100,
        "start": "dscvokvcsd/ytlhxazjty/pppppppppp/10/10/10/10/PPPPPPPPPP/YTLHXAZJTY/DSCVOKVCSD w KQkq - 0 1",
        "first": ["e3", "e5"],
    },
    "afterlife": {
        "squares": 42,  # World 28, Limbo 1, Twelve Hours 8, Hall of Truth 5 (RULINGS §3.1)
        "start": AFTERLIFE_START,
        "first": ["b2", "b3"],
        "regions": 4,
        # For the screenshot, Black (the engine) to move: a Freed Slave waits in Limbo, a Warrior
        # on the Feather, pieces marked {x}, a Freed Slave in the Twelve Hours.
        "shot": "1phw*F*****/s1ss*******/4*W*****/1_Mw{x}1*1*****/S3*1*1**F/1W{x}SS*1*_E2_E/1H1P{x}*1*_E**_E b - - 0 4",
    },
    "afterlife-optional-limbo": {
        "squares": 42,
        "start": AFTERLIFE_START,
        "first": ["b2", "b3"],
        "regions": 4,
    },
    "chaos": {
        "squares": 64,
        "start": "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[_Q_R_B_N] w KQkq - 0 1 0",
        "first": ["e2", "e4"],
        # For the screenshot, Black (the engine) to move: Nature's Bishop and Rook on the board,
        # its Queen and Knight in its pool, a pawn of each side returned, counter 3.
        "shot": "r2qk2r/ppp2ppp/_B1np1n2/2b1p3/2B1P1b1/2NP1N1_R/PPP2PPP/R1BQ1RK1[Pp_Q_N] b kq - 0 7 3",
    },
}

# Special moves: (what, FEN to set up, clicks, expected board field afterwards or a check).
# A click is a square name, `choice:<letter>` (a button of the choice box), `drop:<letter>`,
# `dest` (the first marked destination) or `pass`.
SPECIALS = {
    "chess": [
        ("promotion to a queen, chosen", "k7/4P3/8/8/8/8/8/4K2R w K - 0 1",
         ["e7", "e8", "choice:q"], "k3Q3/8/8/8/8/8/8/4K2R"),
        ("castling", "k7/4P3/8/8/8/8/8/4K2R w K - 0 1", ["e1", "g1"], "k7/4P3/8/8/8/8/8/5RK1"),
    ],
    "divergent": [
        ("mandatory promotion to U", "k9/4P5/10/10/10/10/10/10/10/4K5 w - - 0 1",
         ["e9", "e10"], "k3U5/10/10/10/10/10/10/10/10/4K5"),
    ],
    "magician": [
        ("switch in place: Bishop to Magician", "4k3/8/8/4P3/8/8/8/M3K1B1 w - - 0 1",
         ["g1", "g1"], "4k3/8/8/4P3/8/8/8/M3K1M1"),
        ("pawn to the 6th rank promotes the Magician, High-Priestess chosen",
         "4k3/8/8/4P3/8/8/8/M3K1B1 w - - 0 1", ["e5", "e6", "choice:h"], "4k3/8/4P3/8/8/8/8/H3K1B1"),
    ],
    "schizophrenic": [
        ("explosion chosen beside the step capture", "4k7/12/12/12/12/3T8/4c1K5 w - - 0 1",
         ["d2", "e1", "choice:x"], "4k7/12/12/12/12/12/6K5"),
        ("the King's teleport", "4k7/12/12/12/12/3T8/4c1K5 w - - 0 1",
         ["g1", "a1"], "4k7/12/12/12/12/3T8/K{t}3c7"),
    ],
    "existentialist": [
        ("the Archer merges with its King", None, ["f2", "f1"],
         "dscvokvcsd/ytlhxazjty/pppppppppp/10/10/10/10/PPPPPPPPPP/YTLHX1ZJTY/DSCVOK{aA}VCSD"),
        ("the double knight move", "4k5/10/10/10/10/10/10/4X{c4}5/10/4K5 w - - 0 1",
         ["e3", "e5"], "4k5/10/10/10/10/4X{c5}5/10/10/10/4K5"),
        ("a shot by the Archer's host", "4k5/10/10/10/10/10/4p5/10/4N{aA}5/4K5 w - - 0 1",
         ["e2", "e4"], "4k5/10/10/10/10/10/10/10/4N{aA,f1}5/4K5"),
    ],
    "afterlife": [
        # A White Freed Slave waits in Limbo (f7); Black has a Warrior in the Twelve Hours and
        # White none, so White may add a free Sethling step (RULINGS §10 items 3 and 7).
        ("free Sethling step and Destiny",
         "wphw*F*****/ssss*******/4*1*****/1_M_M1*1*****/4*1*_E**_E/1SSS*1*1w2/WHPW*1*_E**_E w - - 0 1",
         ["b2", "b3", "h1", "j2"],
         {"j2": "F", "h2": "_E", "b3": "S", "f7": None, "h1": None}),
        # The same move without the free step: the Destiny square is the second click pair.
        ("Destiny to a Twelve Hours square of the owner's choice", AFTERLIFE_LIMBO_F,
         ["b2", "b3", "i2"], {"i2": "F", "b3": "S", "f7": None}),
        # A Warrior marked {x} goes to the Hall's Entrance, the one Destiny: no click for it.
        ("Destiny of a Warrior marked {x}: the Hall", AFTERLIFE_LIMBO_WX,
         ["b2", "b3"], {"f1": "W", "b3": "S", "f7": None}),
        ("Reincarnation from the Feather", AFTERLIFE_FEATHER,
         ["drop:W", "c3"], {"c3": "W", "f5": None}),
        ("a grey Mercenary moved by White, forward for White", None, ["b4", "b5"],
         {"b5": "_M", "b4": None}),
    ],
    "afterlife-optional-limbo": [
        # The piece may stay in Limbo: the move without a Destiny is chosen in the box.
        ("the piece in Limbo stays, chosen", AFTERLIFE_LIMBO_F,
         ["b2", "b3", "move:b2b3"], {"f7": "F", "b3": "S"}),
        ("the piece in Limbo leaves, chosen", AFTERLIFE_LIMBO_F,
         ["b2", "b3", "k2"], {"f7": None, "k2": "F"}),
    ],
    "chaos": [
        ("Nature introduces a Queen", CHAOS_NATURE, ["drop:Q", "dest"], {"count:_Q": 1}),
        ("Nature introduces a Knight on a4, attacking only a pawn", CHAOS_NATURE,
         ["drop:N", "a4"], {"a4": "_N", "turn": "b"}),
        ("Nature passes", CHAOS_NATURE, ["pass"], {"turn": "b"}),
        ("Nature's Bishop captures a pawn, which returns to White's reserve",
         "rnbqkbnr/pppppppp/8/8/8/_B7/PPPPPPPP/RNBQKBNR[_Q_R_N] n KQkq - 0 3 5w",
         ["a3", "b2"], {"b2": "_B", "reserve:w": ["P"]}),
        ("a returned Queen is put back", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNB1KBNR[Q_R_B_N] w KQkq - 0 1 0",
         ["drop:Q", "d1"], "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR"),
    ],
}


class Failure(Exception):
    pass


def check(cond, what):
    if not cond:
        raise Failure(what)


def chromium():
    opts = webdriver.ChromeOptions()
    for arg in [
        "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic",
        "--disable-background-networking", "--disable-component-update", "--disable-sync",
        "--no-first-run", "--window-size=1280,1000",
        f"--user-data-dir={tempfile.mkdtemp(prefix='menagerie-chromium-')}",
    ]:
        opts.add_argument(arg)
    binary = os.environ.get("CHROMIUM", "/usr/bin/chromium")
    if os.path.exists(binary):
        opts.binary_location = binary
    driver = os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver")
    service = Service(driver) if os.path.exists(driver) else Service()
    return webdriver.Chrome(service=service, options=opts)


class Page:
    def __init__(self, driver, url):
        self.d = driver
        self.url = url

    def wait(self, cond, what, timeout=WAIT):
        try:
            return WebDriverWait(self.d, timeout, poll_frequency=0.05).until(lambda d: cond())
        except TimeoutException:
            raise Failure(f"timed out waiting for {what}")

    def css(self, sel):
        return self.d.find_elements(By.CSS_SELECTOR, sel)

    def fen(self):
        return self.d.find_element(By.ID, "fen").text.strip()

    def moves(self):
        """The plies played to the position shown."""
        return self.d.execute_script("return page.pos ? page.pos.moves.length : 0")

    def ply_text(self, n):
        """The text of ply `n` of the main line."""
        found = self.css(f'#moves > [data-ply="{n}"]')
        return found[0].text if found else None

    def load(self, name):
        self.d.get(f"{self.url}?variant={name}")
        self.wait(lambda: self.fen() and self.d.execute_script(
            "return page.variant && page.variant.name") == name, f"the {name} board")

    def set_players(self, white, black, third=None):
        for side, who in (("w", white), ("b", black), ("n", third)):
            if who is None:
                continue
            self.d.execute_script(
                f"const s = document.getElementById('player-{side}');"
                f"s.value = '{who}'; s.dispatchEvent(new Event('change'));")
        # Every answer must be in: one that comes later would rewrite fields being typed in.
        self.wait(lambda: self.d.execute_script(
            "return page.pos && page.pos.players.w === arguments[0] && page.pos.players.b === arguments[1]"
            " && (arguments[2] === null || page.pos.players.n === arguments[2])",
            white, black, third), "the players to be set")

    def set_engine_time(self, seconds):
        field = self.d.find_element(By.ID, "movetime")
        for _ in range(5):
            field.clear()
            field.send_keys(str(seconds))
            if field.get_attribute("value") == str(seconds):
                break
        self.d.find_element(By.ID, "apply").click()
        self.wait(lambda: self.d.execute_script("return page.pos.engine.movetime_ms") == int(seconds * 1000),
                  "the engine's time to be set")

    def set_fen(self, fen):
        field = self.d.find_element(By.ID, "fen-input")
        field.clear()
        field.send_keys(fen)
        self.d.find_element(By.ID, "set-fen").click()
        board = fen.split()[0].split("[")[0]
        self.wait(lambda: self.fen().split()[0].split("[")[0] == board, f"the position {fen}")

    def click(self, what):
        if what.startswith("choice:"):
            value = what.split(":", 1)[1]
            self.wait(lambda: self.css(f'#choice [data-choice="{value}"]'), f"the choice {value}")
            self.css(f'#choice [data-choice="{value}"]')[0].click()
        elif what.startswith("drop:"):
            letter = what.split(":", 1)[1]
            self.wait(lambda: self.css(f'#hand [data-drop="{letter}"]'), f"the piece {letter} to place")
            self.css(f'#hand [data-drop="{letter}"]')[0].click()
        elif what == "pass":
            self.wait(lambda: self.css("#pass"), "the pass button")
            self.css("#pass")[0].click()
        elif what.startswith("move:"):
            text = what.split(":", 1)[1]
            self.wait(lambda: self.css(f'#choice [data-move="{text}"]'), f"the move {text} offered")
            self.css(f'#choice [data-move="{text}"]')[0].click()
        elif what == "dest":
            self.wait(lambda: self.css("#board .dest"), "a marked destination")
            self.css("#board .dest")[0].click()
        else:
            self.wait(lambda: self.css(f'[data-square="{what}"]'), f"square {what}")
            self.css(f'[data-square="{what}"]')[0].click()

    def piece_on(self, square):
        found = self.css(f'[data-square="{square}"] [data-piece]')
        return found[0].get_attribute("data-piece") if found else None

    def board_piece_count(self):
        return len(self.css("#board [data-square] > [data-piece]"))


def fen_piece_count(fen):
    board = fen.split()[0].split("[")[0]
    count, depth = 0, 0
    for ch in board:
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
        elif depth == 0 and ch.isalpha():
            count += 1
    return count


def test_board(p, name, game):
    p.load(name)
    squares = len(p.css("[data-square]"))
    check(squares == game["squares"], f"{squares} data-square elements, the board has {game['squares']}")
    names = [e.get_attribute("data-square") for e in p.css("[data-square]")]
    check(len(set(names)) == len(names), "two squares share a name")
    check(p.fen() == game["start"], f"#fen is '{p.fen()}', the start position is '{game['start']}'")
    pieces = p.board_piece_count()
    check(pieces == fen_piece_count(game["start"]), f"{pieces} pieces drawn, the FEN has {fen_piece_count(game['start'])}")
    if "regions" in game:
        labels = len(p.css("[data-region]"))
        check(labels == game["regions"], f"{labels} board names shown, {game['regions']} boards")
    # The legend lists every piece of the game.
    check(len(p.css("#legend [data-legend]")) > 0, "the legend is empty")
    # Every piece that is not royal carries the engine's value on its card.
    cards = p.d.execute_script(
        "return [...document.querySelectorAll('#legend [data-legend]')]"
        ".map(e => e.textContent.includes(\"Engine's value\"))")
    valued = p.d.execute_script("return page.variant.pieces.map(q => q.value !== null)")
    check(cards == valued, f"value lines on the cards {cards}, pieces with a value {valued}")


def test_engine_reply_and_undo(p, name, game):
    p.load(name)
    p.set_players("human", "engine", "random")
    p.set_engine_time(0.2)
    start = p.fen()
    for sq in game["first"]:
        p.click(sq)
    p.wait(lambda: p.moves() >= 2, "the engine's reply")
    moved = p.fen()
    check(moved != start, "the position did not change")
    check(p.board_piece_count() == fen_piece_count(moved), "pieces drawn differ from the FEN")
    check(p.css("#eval")[0].text not in ("", "-"), "no evaluation shown while the engine thought")
    p.d.find_element(By.ID, "undo").click()
    p.wait(lambda: p.moves() == 0, "the undo")
    check(p.fen() == start, f"after undo #fen is '{p.fen()}', not the start")


def test_engine_against_itself(p, name):
    p.load(name)
    p.set_engine_time(0.1)
    p.set_players("engine", "engine", "random")
    p.wait(lambda: p.moves() >= 4, "four moves of the engine against itself")
    p.d.find_element(By.ID, "pause").click()
    p.wait(lambda: p.d.execute_script("return page.pos.paused && !page.pos.thinking"), "the pause")
    n = p.moves()
    time.sleep(0.5)
    check(p.moves() == n, "the engine moved while paused")
    check(p.board_piece_count() == fen_piece_count(p.fen()), "pieces drawn differ from the FEN")


def test_special(p, name, what, fen, clicks, expected):
    p.load(name)
    p.set_players("human", "human", "human")
    if fen:
        p.set_fen(fen)
    before = p.moves()
    for c in clicks:
        p.click(c)
    p.wait(lambda: p.moves() == before + 1, f"the move ({what}) to be played")
    if isinstance(expected, str):
        board = p.fen().split()[0].split("[")[0]
        check(board == expected, f"{what}: board '{board}', expected '{expected}'")
    else:
        for key, want in expected.items():
            if key == "turn":
                got = p.fen().split()[1]
            elif key.startswith("count:"):
                code = key.split(":", 1)[1]
                got = len(p.css(f'#board [data-piece="{code}"]'))
            elif key.startswith("reserve:"):
                side = key.split(":", 1)[1]
                got = [e.get_attribute("data-piece") for e in p.css(f'[data-reserve="{side}"]')]
            else:
                got = p.piece_on(key)
            check(got == want, f"{what}: {key} is {got}, expected {want}")
    check(p.board_piece_count() == fen_piece_count(p.fen()), "pieces drawn differ from the FEN")
    p.d.find_element(By.ID, "undo").click()
    p.wait(lambda: p.moves() == before, "the undo")


MASK = (1 << 64) - 1


def seeded_choice(legal, fen, seed):
    """The random policy's ply as docs define it (src/third_party.rs): the legal texts sorted,
    the one at splitmix64(seed ^ fnv1a(FEN)) mod their count."""
    h = 0xCBF29CE484222325
    for b in fen.encode():
        h = ((h ^ b) * 0x100000001B3) & MASK
    z = ((seed ^ h) + 0x9E3779B97F4A7C15) & MASK
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    z ^= z >> 31
    texts = sorted(legal)
    return texts[z % len(texts)]


def nature_to_act(p):
    """Chaos at CHAOS_NATURE with every side played by a person; returns the legal texts."""
    p.load("chaos")
    p.set_players("human", "human", "human")
    p.set_fen(CHAOS_NATURE)
    p.wait(lambda: p.d.execute_script("return page.pos.turn") == "n", "Nature's turn")
    return p.d.execute_script("return page.pos.legal")


def choose_nature(p, value, seed=None):
    if seed is not None:
        p.d.execute_script("document.getElementById('third-seed').value = arguments[0]", str(seed))
    p.d.execute_script(
        "const s = document.getElementById('player-n'); s.value = arguments[0];"
        "s.dispatchEvent(new Event('change'));", value)


def test_nature_on_the_page(p):
    """Who plays Nature is chosen on the page: a person (its turn is shown and waits), the
    seeded random choice (the ply the documented function gives), the engine helping Black."""
    legal = nature_to_act(p)
    turn = p.d.find_element(By.ID, "turn").text
    check(turn.startswith("Nature to move"), f"the turn reads '{turn}'")
    held = p.d.find_element(By.ID, "reserve-neutral").text
    check("Nature holds" in held, f"Nature's pool reads '{held}'")
    check(len(p.css('#reserve-neutral [data-piece="_Q"]')) == 1, "Nature's Queen is not in its pool")
    check("0000" in legal, "Nature's pass is not among its plies")
    fen = p.fen()
    choose_nature(p, "random", 7)
    p.wait(lambda: p.moves() == 1, "Nature's seeded ply")
    played = p.d.execute_script("return page.pos.moves[0]")
    check(played["side"] == "n", f"the ply is {played}")
    want = seeded_choice(legal, fen, 7)
    check(p.d.execute_script("return page.pos.third_party.seed") == 7, "the seed was not set")
    check(played["uci"] == want, f"Nature played {played['uci']}, the seeded choice is {want}")
    check(p.ply_text(1) == played["text"], "the move list")
    # The engine helping Black.
    legal = nature_to_act(p)
    choose_nature(p, "engine-b")
    p.wait(lambda: p.moves() == 1, "the engine's ply for Nature")
    played = p.d.execute_script("return page.pos.moves[0]")
    check(played["side"] == "n" and played["uci"] in legal, f"Nature's ply {played}")
    tp = p.d.execute_script("return page.pos.third_party")
    check(tp["policy"] == "engine" and tp["favors"] == "b", f"the third party is {tp}")
    check(p.d.find_element(By.ID, "player-n").get_attribute("value") == "engine-b", "the select")


def test_nature_counter(p):
    """Nature's counter and whether its check binds are shown where the turn is (§11 items 1
    and 3: Nature acts after the fifth real ply; its check binds from counter 3)."""
    p.load("chaos")
    p.set_players("human", "human", "human")
    board = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[_Q_R_B_N]"
    for fen, wants in [
        (f"{board} w KQkq - 0 1 1", ["counter 1 of 5", "after 4 real plies", "does not bind yet"]),
        (f"{board} w KQkq - 0 2 3", ["counter 3 of 5", "Nature's check binds: White"]),
    ]:
        p.set_fen(fen)
        p.wait(lambda: p.fen() == fen, f"the position {fen}")
        notes = p.d.find_element(By.ID, "turn-notes").text
        for w in wants:
            check(w in notes, f"{fen}: the turn notes '{notes}' lack '{w}'")
    p.click("e2")
    p.click("e4")
    p.wait(lambda: p.moves() == 1, "e2e4")
    notes = p.d.find_element(By.ID, "turn-notes").text
    check("counter 4 of 5" in notes and "after this ply" in notes, f"after e2e4: '{notes}'")


def badges(p, square):
    return [(e.text, e.get_attribute("title")) for e in p.css(f'[data-square="{square}"] .badge')]


def test_afterlife_labels(p):
    """`{x}` and Limbo in the game's words (RULINGS §10 items 4 and 5), and the whole label for
    the piece under the pointer."""
    p.load("afterlife")
    p.set_players("human", "human")
    p.set_fen(AFTERLIFE_LIMBO_WX)
    got = badges(p, "f7")
    check([b for b, _ in got] == ["{x} to H1", "leaves now"], f"Limbo's badges {got}")
    check("Destiny is the Hall" in got[0][1], f"the {{x}} label {got[0]}")
    world = "wphw*1*****/ssss*******/4*1*****/1_M_M1*1*****/4*1*_E**_E/SSSS*1*4/W{x}HPW*1*_E**_E w - - 0 1"
    p.set_fen(world)
    got = badges(p, "a1")
    check(got == [("{x}", "{x}: captured this stay: its Destiny is the Hall")], f"a1's badges {got}")
    ActionChains(p.d).move_to_element(p.css('[data-square="a1"]')[0]).perform()
    p.wait(lambda: "captured this stay" in p.d.find_element(By.ID, "piece-info").text, "the piece's labels")
    check(p.d.find_element(By.ID, "piece-info").text.startswith("White warrior on a1"), "the piece info")
    legend = p.d.execute_script("return page.variant.notes.join(' ')")
    check("Destiny" in legend and "Sethling" in legend, "the legend's notes on the game")


EXTRA = {
    "afterlife": [("labels of {x} and Limbo", test_afterlife_labels)],
    "chaos": [
        ("who plays Nature, chosen on the page", test_nature_on_the_page),
        ("Nature's counter and binding check beside the turn", test_nature_counter),
    ],
}


# ---- The analysis board: FIDE chess, Afterlife and Chaos ----

# Moves are written in SAN on the page (the check of the chess PGN's move list).
SAN_MOVES = True

BOARD_GAMES = ["chess", "afterlife", "chaos"]

# PGNs to paste, and what the rules say the board is afterwards: square -> piece (None: empty).
PGNS = {
    # The Ruy Lopez, by hand: 1. e4 e5 2. Nf3 Nc6 3. Bb5 a6.
    "chess": ("[Event \"t\"]\n[Variant \"chess\"]\n\n1. e4 e5 2. Nf3 {a comment} Nc6 $1 3. Bb5 (3. Bc4 Bc5) a6 *\n",
              {"fen": "r1bqkbnr/1ppp1ppp/p1n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 0 4", "plies": 6}),
    # Coordinate moves: a White Sethling steps b2-b3.
    "afterlife": ("[Variant \"afterlife\"]\n\n1. b2b3 *\n", {"b3": "S", "b2": None, "plies": 1}),
    # From a set-up position: Nature places a Knight on a4, then Black's g8 Knight goes to f6
    # (SAN: the c6 Knight cannot reach f6).
    "chaos": (f"[Variant \"chaos\"]\n[FEN \"{CHAOS_NATURE}\"]\n[SetUp \"1\"]\n\nN@a4 {{third party}} 3... Nf6 *\n",
              {"a4": "_N", "f6": "n", "g8": None, "plies": 2}),
}

# A move to drag in each game, and the piece that must then stand on its target.
DRAGS = {"chess": ("e2", "e4", "P"), "afterlife": ("b2", "b3", "S"), "chaos": ("e2", "e4", "P")}


def send_js(p, cmd):
    p.d.execute_script("send(arguments[0])", cmd)


def play_plies(p, n):
    """Plays `n` plies, each the first of the legal moves in sorted order; returns the FEN
    before the first and after each."""
    fens = [p.fen()]
    for i in range(n):
        legal = sorted(p.d.execute_script("return page.pos.legal"))
        check(legal, f"no legal move at ply {i + 1}")
        before = p.moves()
        send_js(p, {"cmd": "move", "text": legal[0]})
        try:
            p.wait(lambda: p.moves() == before + 1, f"ply {i + 1}")
        except Failure as e:
            seen = p.d.execute_script(
                "return JSON.stringify({message: document.getElementById('message').textContent,"
                " moves: page.pos.moves, players: page.pos.players, turn: page.pos.turn,"
                " socket: page.socket.readyState})")
            raise Failure(f"{e} ({legal[0]} sent; the page has {seen})")
        fens.append(p.fen())
    return fens


def fresh(p, name):
    p.load(name)
    p.set_players("human", "human", "human")


def press(p, key):
    ActionChains(p.d).send_keys(key).perform()


def set_pgn_input(p, text):
    p.d.execute_script("document.getElementById('pgn-input').value = arguments[0]", text)
    p.d.find_element(By.ID, "load-pgn").click()


def test_step_through(p, name):
    """Clicking a ply shows its position; the arrow keys, Home and End step; a move from an
    earlier position starts a variation and keeps the main line."""
    fresh(p, name)
    fens = play_plies(p, 4)
    for n in range(1, 5):
        check(p.ply_text(n), f"no element for ply {n}")
    p.css('#moves [data-ply="2"]')[0].click()
    p.wait(lambda: p.fen() == fens[2], "the position after ply 2")
    check(p.board_piece_count() == fen_piece_count(fens[2]), "pieces drawn differ from the FEN")
    check("current" in p.css('#moves [data-ply="2"]')[0].get_attribute("class"), "ply 2 not marked")
    for key, want in ((Keys.ARROW_LEFT, 1), (Keys.ARROW_RIGHT, 2), (Keys.HOME, 0), (Keys.END, 4),
                      (Keys.ARROW_LEFT, 3)):
        press(p, key)
        p.wait(lambda: p.fen() == fens[want], f"the position after ply {want} by the keys")
    # Keys pressed faster than the server answers step on from the last one's node.
    for key in (Keys.HOME, Keys.ARROW_RIGHT, Keys.ARROW_RIGHT, Keys.ARROW_RIGHT, Keys.ARROW_LEFT):
        press(p, key)
    p.wait(lambda: p.fen() == fens[2], "ply 2 after five quick keys")
    # From ply 1, another move than the one played: a variation.
    press(p, Keys.HOME)
    press(p, Keys.ARROW_RIGHT)
    p.wait(lambda: p.fen() == fens[1], "ply 1")
    legal = sorted(p.d.execute_script("return page.pos.legal"))
    played = p.d.execute_script("return page.pos.tree[page.pos.tree[page.pos.cursor].children[0]].uci")
    other = next(t for t in legal if t != played)
    send_js(p, {"cmd": "move", "text": other})
    p.wait(lambda: p.css('#moves .variation [data-ply="2"]'), "the variation in the move list")
    check(p.fen() != fens[2], "the variation shows the main line's position")
    check(len(p.css('#moves > [data-ply]')) == 4, "the main line was not kept")
    p.css('#moves > [data-ply="4"]')[0].click()
    p.wait(lambda: p.fen() == fens[4], "the main line's end")


def test_pgn(p, name):
    """A pasted PGN loads (SAN or coordinates, tags, comments, a variation); a bad one names
    its move and changes nothing; Copy PGN's text loads back to the same position."""
    other = "chess" if name != "chess" else "afterlife"
    fresh(p, other)  # the PGN's tag chooses the game
    text, want = PGNS[name]
    set_pgn_input(p, text)
    p.wait(lambda: p.d.execute_script("return page.variant.name") == name and p.moves() == want["plies"],
           f"the {name} PGN to load")
    for sq, piece in want.items():
        if sq == "fen":
            check(p.fen() == piece, f"after the PGN #fen is '{p.fen()}', expected '{piece}'")
        elif sq != "plies":
            check(p.piece_on(sq) == piece, f"after the PGN {sq} holds {p.piece_on(sq)}, expected {piece}")
    check(len(p.css("#moves [data-ply]")) >= want["plies"], "the moves are not listed")
    if name == "chess":
        check(p.css("#moves .variation"), "the PGN's variation is not shown")
        if SAN_MOVES:
            got = [p.ply_text(n) for n in range(1, 7)]
            check(got == ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6"], f"the move list reads {got}")
    loaded = p.fen()
    exported = p.d.find_element(By.ID, "pgn").get_attribute("value")
    check(f'[Variant "{name}"]' in exported, f"Copy PGN's text lacks the Variant tag: {exported}")
    # A bad PGN: its last move is illegal.
    bad = text.replace("b2b3", "b2b3 b3b9") if name == "afterlife" else text.replace("*", "Kz9 *")
    set_pgn_input(p, bad)
    p.wait(lambda: "PGN refused" in p.d.find_element(By.ID, "message").text, "the PGN's refusal")
    message = p.d.find_element(By.ID, "message").text
    check("Kz9" in message or "b3b9" in message, f"the refusal does not name the move: {message}")
    check(p.fen() == loaded, "a refused PGN changed the position")
    # What Copy PGN writes loads back in a new game, and the error goes.
    send_js(p, {"cmd": "new", "variant": other})
    p.wait(lambda: p.d.execute_script("return page.variant.name") == other, "a new game")
    set_pgn_input(p, exported)
    p.wait(lambda: p.fen() == loaded, "Copy PGN's text to load back")
    check(p.d.find_element(By.ID, "message").text == "", "the error stayed after a success")


def best_move_drawn(p):
    """Whether the first line's first move is drawn: a ring where a piece is placed, else an
    arrow from its first square (a pass draws nothing)."""
    best = p.d.execute_script("return page.lines[0] && page.lines[0].pv_uci[0]")
    if not best:
        return False
    main = best.split("+")[0].split("/")[0]
    if "@" in main:
        return bool(p.css(f'#arrows .mark[data-square-mark="{main.split("@")[1]}"]'))
    if best == "0000":
        return True
    return bool(p.css(f'#arrows .arrow[data-from="{main[:2]}"], #arrows .arrow[data-from="{main[:3]}"], #arrows .mark'))


def analysis_shown(p, lines):
    ok = p.d.execute_script(
        "return page.pos.analysis === arguments[0] && !!page.lines[0] && page.lines[0].node === page.pos.cursor",
        lines)
    # Read in one script: the lines are drawn again as each iteration comes.
    shown = p.d.execute_script(
        "return [...document.querySelectorAll('#analysis-lines .line-moves')].some(e => e.textContent.trim())")
    return ok and shown and best_move_drawn(p)


def test_analysis(p, name):
    """Analysis mode: lines with score, depth and moves, the bar, the best move drawn; stepping
    back analyses the position shown; then the game's graph."""
    fresh(p, name)
    fens = play_plies(p, 3)
    p.d.execute_script("document.getElementById('lines').value = '3'")
    p.d.find_element(By.ID, "analyse").click()
    p.wait(lambda: analysis_shown(p, 3), "analysis lines and the best move drawn", timeout=40)
    check(len(p.css("#analysis-lines .line")) == 3, "three lines asked for")
    depth = p.d.execute_script("return document.querySelector('#analysis-lines .line .depth').textContent")
    check(depth.startswith("d"), f"no depth shown: '{depth}'")
    check(p.css("#eval-bar")[0].is_displayed(), "no evaluation bar")
    press(p, Keys.ARROW_LEFT)
    p.wait(lambda: p.fen() == fens[2], "the step back")
    p.wait(lambda: analysis_shown(p, 3), "the analysis of the position stepped to", timeout=40)
    p.d.find_element(By.ID, "analyse").click()
    p.wait(lambda: p.d.execute_script("return page.pos.analysis === null && !page.pos.thinking"), "analysis off")
    check(not p.css("#arrows .arrow") and not p.css("#arrows .mark"), "the arrow stayed")
    press(p, Keys.END)
    p.wait(lambda: p.fen() == fens[3], "the end")
    p.d.find_element(By.ID, "analyse-game").click()
    p.wait(lambda: len(p.css("#graph .point")) >= 3 and not p.d.execute_script("return page.pos.scan"),
           "the graph of the analysed game", timeout=60)
    check(p.fen() == fens[3], "the position shown did not come back after the game's analysis")
    first_node = p.css("#graph .point")[0].get_attribute("data-node")
    p.d.execute_script("document.querySelector('#graph .point').dispatchEvent(new MouseEvent('click', {bubbles: true, clientX: document.getElementById('graph-svg').getBoundingClientRect().left + 1}))")
    want = fens[int(p.d.execute_script("return page.pos.tree[arguments[0]].ply", int(first_node)))]
    p.wait(lambda: p.fen() == want, "a click on the graph's first point")


def test_chaos_drop_marked(p):
    """A White Queen in hand, the best move a drop: a ring marks where it goes. Then Nature's
    turn in analysis mode."""
    fresh(p, "chaos")
    p.set_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNB1KBNR[Q_R_B_N] w KQkq - 0 1 0")
    p.d.find_element(By.ID, "analyse").click()
    p.wait(lambda: analysis_shown(p, int(p.d.find_element(By.ID, "lines").get_attribute("value"))),
           "the analysis", timeout=40)
    best = p.d.execute_script("return page.lines[0].pv_uci[0]")
    check("@" in best, f"the best move {best} is not the Queen's drop")
    square = best.split("@")[1]
    check(p.css(f'#arrows .mark[data-square-mark="{square}"]'), f"no ring on {square} for {best}")
    # Nature to act, played by a person: the line is the ply of the seeded choice, which the
    # search follows (computed here from its documented definition).
    p.set_fen(CHAOS_NATURE)
    p.wait(lambda: p.d.execute_script("return page.pos.turn") == "n", "Nature's turn")
    legal = p.d.execute_script("return page.pos.legal")
    seed = p.d.execute_script("return page.pos.third_party.seed")
    want = seeded_choice(legal, p.fen(), seed)
    p.wait(lambda: analysis_shown(p, int(p.d.find_element(By.ID, "lines").get_attribute("value"))),
           "the analysis of Nature's turn", timeout=40)
    got = p.d.execute_script("return page.lines[0].pv_uci[0]")
    check(got == want, f"Nature's line is {got}, the seeded choice {want}")
    check(p.moves() == 0, "Nature played in analysis mode")
    p.d.find_element(By.ID, "analyse").click()


def test_drag(p, name):
    fresh(p, name)
    src, dst, piece = DRAGS[name]
    a = p.css(f'#board [data-square="{src}"]')[0]
    b = p.css(f'#board [data-square="{dst}"]')[0]
    ActionChains(p.d).click_and_hold(a).move_by_offset(5, -5).move_to_element(b).release().perform()
    p.wait(lambda: p.moves() == 1, f"the dragged move {src}-{dst}")
    check(p.piece_on(dst) == piece and p.piece_on(src) is None, f"after the drag {dst} holds {p.piece_on(dst)}")


def test_narrow(p, name):
    """At 400 px wide nothing scrolls sideways, with analysis lines shown."""
    p.d.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                        {"width": 400, "height": 850, "deviceScaleFactor": 1, "mobile": False})
    try:
        fresh(p, name)
        check(p.d.execute_script("return window.innerWidth") == 400, "the window is not 400 px wide")
        play_plies(p, 2)
        p.d.find_element(By.ID, "analyse").click()
        p.wait(lambda: analysis_shown(p, int(p.d.find_element(By.ID, "lines").get_attribute("value"))),
               "the analysis", timeout=40)
        width = p.d.execute_script("return document.documentElement.scrollWidth")
        wide = p.d.execute_script(
            "return [...document.querySelectorAll('body *')].filter(e => e.getBoundingClientRect().right > 400.5)"
            ".slice(0, 5).map(e => e.id || e.className || e.tagName)")
        check(width <= 400, f"the page is {width} px wide at 400: {wide}")
        p.d.find_element(By.ID, "analyse").click()
    finally:
        p.d.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def test_error_cleared(p, name):
    fresh(p, name)
    start = p.fen()
    field = p.d.find_element(By.ID, "fen-input")
    field.clear()
    field.send_keys("not a fen")
    p.d.find_element(By.ID, "set-fen").click()
    p.wait(lambda: "FEN refused" in p.d.find_element(By.ID, "message").text, "the refusal")
    p.set_fen(start)
    p.wait(lambda: p.d.find_element(By.ID, "message").text == "", "the error cleared by a valid FEN")


BOARD_TESTS = [
    ("the move list: clicks, keys, a variation", test_step_through),
    ("PGN in and out", test_pgn),
    ("analysis mode and the game's graph", test_analysis),
    ("drag and drop", test_drag),
    ("400 px wide", test_narrow),
    ("an error cleared by the next success", test_error_cleared),
]


def analysis_screenshot(p, directory):
    """Analysis mode in FIDE chess (a pasted game, analysed, three lines at its last move) and
    in Afterlife (a set-up position with Black to move)."""
    fresh(p, "chess")
    set_pgn_input(p, PGNS["chess"][0])
    p.wait(lambda: p.moves() == 6, "the game")
    p.d.find_element(By.ID, "analyse-game").click()
    p.wait(lambda: len(p.css("#graph .point")) >= 7 and not p.d.execute_script("return page.pos.scan"),
           "the game's graph", timeout=60)
    p.d.execute_script("document.getElementById('lines').value = '3'")
    p.d.find_element(By.ID, "analyse").click()
    p.wait(lambda: analysis_shown(p, 3) and p.d.execute_script("return page.lines[0].depth >= 10"),
           "the analysis to depth 10", timeout=60)
    path = os.path.join(directory, "gui-analysis.png")
    p.d.save_screenshot(path)
    print(f"screenshot {path}")
    p.d.find_element(By.ID, "analyse").click()
    # Afterlife with Black to move: its best turn has several parts, an arrow each.
    fresh(p, "afterlife")
    p.set_fen(GAMES["afterlife"]["shot"])
    p.d.execute_script("document.getElementById('lines').value = '3'")
    p.d.find_element(By.ID, "analyse").click()
    p.wait(lambda: analysis_shown(p, 3) and p.d.execute_script("return page.lines[0].depth >= 6"),
           "the analysis to depth 6", timeout=60)
    path = os.path.join(directory, "gui-analysis-afterlife.png")
    p.d.save_screenshot(path)
    print(f"screenshot {path}")
    p.d.find_element(By.ID, "analyse").click()


def test_generic_moves(p, name):
    """For a game without a script: two moves by clicks, whatever the first legal moves are."""
    p.load(name)
    p.set_players("human", "human", "human")
    for n in range(2):
        before = p.moves()
        p.wait(lambda: p.css("#board .start") or p.css("#hand button"), "a movable piece")
        if p.css("#board .start"):
            p.css("#board .start")[0].click()
        else:
            p.css("#hand button")[0].click()
        for _ in range(6):
            if p.moves() > before:
                break
            if p.css("#choice .option"):
                p.css("#choice .option")[0].click()
            elif p.css("#board .dest"):
                p.css("#board .dest")[0].click()
            time.sleep(0.1)
        p.wait(lambda: p.moves() == before + 1, f"generic move {n + 1}")


def screenshot(p, name, directory):
    p.load(name)
    p.set_players("human", "engine", "random")
    p.set_engine_time(0.2)
    game = GAMES.get(name)
    if game and "shot" in game:
        # A position with the game's state on show; the engine (Black) replies.
        p.set_players("human", "human", "random")
        p.set_fen(game["shot"])
        p.set_players("human", "engine", "random")
        p.wait(lambda: p.moves() >= 1 and not p.d.execute_script("return page.pos.thinking"), "the engine's reply")
    elif game:
        for sq in game["first"]:
            p.click(sq)
        p.wait(lambda: p.moves() >= 2 and not p.d.execute_script("return page.pos.thinking"), "the engine's reply")
    path = os.path.join(directory, f"gui-{name}.png")
    p.d.save_screenshot(path)
    print(f"screenshot {path}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("url")
    ap.add_argument("--screenshots")
    ap.add_argument("--only")
    ap.add_argument("--filter", help="run only the checks whose label contains this")
    ap.add_argument("--suite", choices=["games", "board", "all"], default="all",
                    help="games: every game's board and moves; board: the analysis board")
    args = ap.parse_args()
    url = args.url if args.url.endswith("/") else args.url + "/"
    driver = chromium()
    p = Page(driver, url)
    passed, failed = 0, 0

    def run(label, fn, *a):
        nonlocal passed, failed
        if args.filter and args.filter not in label:
            return
        t = time.time()
        try:
            fn(*a)
            passed += 1
            print(f"ok   {label} ({time.time() - t:.1f}s)", flush=True)
        except Exception as e:  # a failed check, or the browser's own error
            failed += 1
            print(f"FAIL {label}: {e}", flush=True)
            if not isinstance(e, Failure):
                traceback.print_exc()

    try:
        driver.get(url)
        p.wait(lambda: driver.execute_script("return page.variant && page.variant.variants"), "the page")
        names = driver.execute_script("return page.variant.variants")
        if args.only:
            names = [n for n in names if n == args.only]
        print(f"games: {', '.join(names)}", flush=True)
        games = args.suite in ("games", "all")
        board = args.suite in ("board", "all")
        if "chess" in names and games:
            run("chess: the engine against itself, paused", test_engine_against_itself, p, "chess")
        for name in names:
            if board and name in BOARD_GAMES:
                for what, fn in BOARD_TESTS:
                    run(f"{name}: {what}", fn, p, name)
            if board and name == "chaos":
                run("chaos: a drop marked as the best move, Nature's turn analysed", test_chaos_drop_marked, p)
            if not games:
                continue
            game = GAMES.get(name)
            if game:
                run(f"{name}: board, start FEN, pieces", test_board, p, name, game)
                run(f"{name}: a move by clicks, the engine's reply, undo", test_engine_reply_and_undo, p, name, game)
            else:
                run(f"{name}: moves by clicks", test_generic_moves, p, name)
            for what, fen, clicks, expected in SPECIALS.get(name, []):
                run(f"{name}: {what}", test_special, p, name, what, fen, clicks, expected)
            for what, fn in EXTRA.get(name, []):
                run(f"{name}: {what}", fn, p)
            if args.screenshots:
                run(f"{name}: screenshot", screenshot, p, name, args.screenshots)
        if args.screenshots and "chess" in names and board:
            run("chess: screenshot of analysis mode", analysis_screenshot, p, args.screenshots)
        logs = [e for e in driver.get_log("browser") if e.get("level") == "SEVERE"]
        for e in logs:
            print(f"browser console: {e.get('message')}")
        if logs:
            failed += 1
            print("FAIL the page logged errors")
    finally:
        driver.quit()
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
