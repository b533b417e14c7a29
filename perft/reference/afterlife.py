#!/usr/bin/env python3
"""Afterlife Chess: independent, slow, reference move enumerator.

Written only from RULINGS.md (sections 0, 3, 8, 10).  It is meant to be
easy to check against the rulings, not fast.  Used only to cross-check hand-derived perft
counts (perft/afterlife.perft) and to produce random game positions for comparison with the engine.

Usage:
  ref.py [--fen FEN] --depth N [--divide]    perft (default: start position)
  ref.py --check FILE                        run every `epd`/`perft` entry of a .perft file
  ref.py --random-playouts N [--seed S] [--max-plies M] [--fen FEN]
                                             print the FEN of every position of N random games
  ref.py --fen FEN --moves                   list the legal moves with resulting FENs

Board (RULINGS 10.1): one 11x7 rectangle, files a-k, ranks 1-7; squares are (file, rank)
with file a=0, rank 1=0.
"""
import argparse
import random
import sys

FILES = "abcdefghijk"
WIDTH, HEIGHT = 11, 7

WORLD = frozenset((f, r) for f in range(4) for r in range(7))          # a1-d7
HALL = [(5, r) for r in range(5)]                                       # f1 (H1) .. f5 (H5)
HALLSET = frozenset(HALL)
LIMBO = (5, 6)                                                          # f7
TWELVE = [(7, 0), (7, 1), (7, 2), (8, 1), (9, 1), (10, 0), (10, 1), (10, 2)]
TWELVESET = frozenset(TWELVE)   # h1 h2 h3 i2 j2 k1 k2 k3
H1 = (5, 0)
H5 = (5, 4)
SETHLING_HOME = [(7, 0), (7, 2), (10, 0), (10, 2)]                      # h1 h3 k1 k3
VALID = WORLD | HALLSET | {LIMBO} | TWELVESET

START_FEN = "wphw*1*****/ssss*******/4*1*****/1_M_M1*1*****/4*1*_E**_E/SSSS*1*4/WHPW*1*_E**_E w - - 0 1"

KING = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)]
WAZIR = [(1, 0), (-1, 0), (0, 1), (0, -1)]
FERZ = [(1, 1), (1, -1), (-1, 1), (-1, -1)]
KNIGHT = [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)]
ALFIL = [(2, 2), (2, -2), (-2, 2), (-2, -2)]
DABBABA = [(2, 0), (-2, 0), (0, 2), (0, -2)]


def sqname(sq):
    return FILES[sq[0]] + str(sq[1] + 1)


def parse_sq(s):
    f = FILES.index(s[0])
    r = int(s[1:]) - 1
    return (f, r)


def opp(c):
    return 'b' if c == 'w' else 'w'


def fwd(c):
    """Forward rank direction for the side moving."""
    return 1 if c == 'w' else -1


def last_rank(c):
    return 6 if c == 'w' else 0


def slave_rank(c):
    return 1 if c == 'w' else 5


def region(sq):
    if sq in WORLD:
        return 'world'
    if sq in HALLSET:
        return 'hall'
    if sq == LIMBO:
        return 'limbo'
    if sq in TWELVESET:
        return 'twelve'
    return None


# A piece is a tuple (colour, kind, x): colour 'w', 'b' or 'g' (grey), kind one of
# P H W C S F (White/Black) or M E (grey), x = the {x} flag.


class Pos:
    __slots__ = ('board', 'side', 'ep', 'hm', 'fm')

    def __init__(self, board, side, ep, hm, fm):
        self.board = board
        self.side = side
        self.ep = ep
        self.hm = hm
        self.fm = fm


def parse_fen(fen):
    parts = fen.split()
    if len(parts) != 6:
        raise ValueError("FEN needs 6 fields: " + fen)
    rows = parts[0].split('/')
    if len(rows) != HEIGHT:
        raise ValueError("FEN needs 7 ranks")
    board = {}
    for i, row in enumerate(rows):
        r = HEIGHT - 1 - i
        f = 0
        j = 0
        while j < len(row):
            c = row[j]
            if c.isdigit():
                k = j
                while k < len(row) and row[k].isdigit():
                    k += 1
                n = int(row[j:k])
                for _ in range(n):
                    if (f, r) not in VALID:
                        raise ValueError("empty square given on a hole " + sqname((f, r)))
                    f += 1
                j = k
            elif c == '*':
                if (f, r) in VALID:
                    raise ValueError("hole given on a real square " + sqname((f, r)))
                f += 1
                j += 1
            else:
                grey = False
                if c == '_':
                    grey = True
                    j += 1
                    c = row[j]
                kind = c.upper()
                if grey:
                    colour = 'g'
                    if kind not in 'ME':
                        raise ValueError("bad grey piece " + c)
                else:
                    colour = 'w' if c.isupper() else 'b'
                    if kind not in 'PHWCSF':
                        raise ValueError("bad piece " + c)
                j += 1
                x = False
                if j < len(row) and row[j] == '{':
                    k = row.index('}', j)
                    st = row[j + 1:k]
                    j = k + 1
                    if st != 'x':
                        raise ValueError("unknown state " + st)
                    x = True
                sq = (f, r)
                if sq not in VALID:
                    raise ValueError("piece on a hole " + sqname(sq))
                board[sq] = (colour, kind, x)
                f += 1
        if f != WIDTH:
            raise ValueError("rank %d has %d files" % (r + 1, f))
    side = parts[1]
    if side not in ('w', 'b'):
        raise ValueError("bad side")
    if parts[2] != '-':
        raise ValueError("castling must be -")
    ep = None if parts[3] == '-' else parse_sq(parts[3])
    validate(board)
    return Pos(board, side, ep, int(parts[4]), int(parts[5]))


def validate(board):
    """Validity rules of RULINGS 10.5."""
    for sq, (c, k, x) in board.items():
        reg = region(sq)
        if k in 'SCM' and reg != 'world':
            raise ValueError("%s off the World at %s" % (k, sqname(sq)))
        if k == 'E' and reg != 'twelve':
            raise ValueError("E off the Twelve Hours at " + sqname(sq))
        if k == 'H' and reg == 'twelve':
            raise ValueError("H in the Twelve Hours")
        if x and not (k in 'PWC' and reg in ('world', 'limbo')):
            raise ValueError("{x} not allowed at " + sqname(sq))
    for c in 'wb':
        if sum(1 for p in board.values() if p[0] == c and p[1] == 'P') > 1:
            raise ValueError("two Pharaohs of one colour")
    occ = [sq for sq in TWELVE if sq in board]
    if len(occ) == 1 and board[occ[0]][0] != 'g':
        raise ValueError("one White or Black piece alone in the Twelve Hours")


def piece_str(p):
    c, k, x = p
    if c == 'g':
        s = '_' + k
    elif c == 'w':
        s = k
    else:
        s = k.lower()
    if x:
        s += '{x}'
    return s


def board_fen(board):
    rows = []
    for r in range(HEIGHT - 1, -1, -1):
        s = ''
        empty = 0
        for f in range(WIDTH):
            sq = (f, r)
            if sq not in VALID:
                if empty:
                    s += str(empty)
                    empty = 0
                s += '*'
            elif sq in board:
                if empty:
                    s += str(empty)
                    empty = 0
                s += piece_str(board[sq])
            else:
                empty += 1
        if empty:
            s += str(empty)
        rows.append(s)
    return '/'.join(rows)


def to_fen(pos):
    ep = sqname(pos.ep) if pos.ep is not None else '-'
    return "%s %s - %s %d %d" % (board_fen(pos.board), pos.side, ep, pos.hm, pos.fm)


def pharaoh_sq(board, c):
    for sq, p in board.items():
        if p[0] == c and p[1] == 'P':
            return sq
    return None


def game_over(board):
    return pharaoh_sq(board, 'w') is None or pharaoh_sq(board, 'b') is None


def result(board):
    w = pharaoh_sq(board, 'w') is not None
    b = pharaoh_sq(board, 'b') is not None
    if w and b:
        return None
    if not w and not b:
        return '1/2-1/2'
    return '1-0' if w else '0-1'


# ---------------------------------------------------------------------------------------
# Capture / transfer helpers.  Each works on a board dict in place and returns whether a
# capture (a piece destroyed or sent to Limbo) happened.

def capture_at(board, sq):
    """Remove the piece on sq because it is captured.  In the World a White/Black victim goes
    to Limbo (Chariot -> Warrior, Slave -> Freed Slave, {x} kept on P/W), destroying what
    stands there; a grey Mercenary is just removed.  Elsewhere the victim Ceases to Exist.
    Returns True when the victim arrived in Limbo."""
    v = board.pop(sq)
    if sq in WORLD and v[0] != 'g':
        kind = v[1]
        if kind == 'C':
            kind = 'W'
        elif kind == 'S':
            kind = 'F'
        x = v[2] if kind in ('P', 'W') else False
        board[LIMBO] = (v[0], kind, x)     # destroys any occupant of Limbo
        return True
    return False


def drop_h1(board, p):
    """Drop p on H1, destroying the occupant.  Returns True if something was destroyed."""
    destroyed = H1 in board
    board[H1] = (p[0], p[1], False)
    return destroyed


def redemption(board):
    """RULINGS 10.3: while the Twelve Hours holds exactly one piece and it is White or Black,
    it goes to H1 and the Sethlings are reset to h1 h3 k1 k3.  Returns True if the H1 drop
    destroyed a piece."""
    destroyed = False
    while True:
        occ = [sq for sq in TWELVE if sq in board]
        if len(occ) == 1 and board[occ[0]][0] != 'g':
            p = board.pop(occ[0])
            destroyed |= drop_h1(board, p)
            for sq in SETHLING_HOME:
                board[sq] = ('g', 'E', False)
        else:
            return destroyed


def has_colour_in_twelve(board, c):
    return any(sq in board and board[sq][0] == c for sq in TWELVE)


def seth_condition(board, s):
    """Free Sethling step condition: the mover has no White/Black piece in the Twelve Hours
    and the opponent has one."""
    return (not has_colour_in_twelve(board, s)) and has_colour_in_twelve(board, opp(s))


# ---------------------------------------------------------------------------------------
# Normal moves.  Each is returned as a dict with: text, board (after the move, its immediate
# effects and Redemption), arrived (something arrived in Limbo), capture, slave (a Slave move),
# ep (square passed by a Slave two-step, or None).

def controllable_slave(board, sq, s):
    """Can side s move the Slave on sq?  Own Slaves always; any Slave next to s's Pharaoh
    standing in the World (RULINGS 3.2, 3.4.6, 10.6)."""
    p = board[sq]
    if p[0] == s:
        return True
    ph = pharaoh_sq(board, s)
    if ph is None or ph not in WORLD:
        return False
    return max(abs(ph[0] - sq[0]), abs(ph[1] - sq[1])) == 1


def normal_moves(pos):
    board = pos.board
    s = pos.side
    out = []

    def finish(text, nb, arrived, capture, slave=False, ep=None):
        capture |= redemption(nb)
        out.append(dict(text=text, board=nb, arrived=arrived, capture=capture,
                        slave=slave, ep=ep))

    def simple(frm, to, region_set, mover):
        """Move the piece from frm to to (both on one board), capturing any occupant.
        Returns (new board, arrived, capture)."""
        nb = dict(board)
        arrived = False
        capture = False
        if to in nb:
            capture = True
            arrived = capture_at(nb, to)
        del nb[frm]
        nb[to] = mover
        return nb, arrived, capture

    def can_land(mover, to, region_set, capture_ok=True, move_ok=True):
        if to not in region_set:
            return False
        if to not in board:
            return move_ok
        if not capture_ok:
            return False
        target = board[to]
        if mover[0] == 'g' and target[0] == 'g':
            return False        # grey never captures grey
        return True

    for frm, p in sorted(board.items()):
        c, k, x = p
        reg = region(frm)
        f, r = frm
        if reg == 'world':
            if c == s and k in 'PWHCF':
                targets = []
                if k == 'P':
                    targets = [(f + a, r + b) for a, b in KING]
                elif k == 'W':
                    targets = [(f + a, r + b) for a, b in KNIGHT + FERZ]
                elif k == 'H':
                    targets = [(f + a, r + b) for a, b in FERZ + ALFIL + DABBABA]
                elif k == 'F':
                    targets = [(f + a, r + b) for a, b in WAZIR]
                elif k == 'C':
                    for a, b in WAZIR:
                        t = (f + a, r + b)
                        while t in WORLD:
                            targets.append(t)
                            if t in board:
                                break
                            t = (t[0] + a, t[1] + b)
                for t in targets:
                    if not can_land(p, t, WORLD):
                        continue
                    nb, arrived, capture = simple(frm, t, WORLD, p)
                    newp = p
                    if capture and k in 'PWC':
                        newp = (newp[0], newp[1], True)                 # {x}
                    if k == 'W' and t[1] == last_rank(c):
                        newp = (newp[0], 'C', newp[2])                  # Chariot promotion
                    nb[t] = newp
                    finish(sqname(frm) + sqname(t), nb, arrived, capture)
            elif k == 'S' and controllable_slave(board, frm, s):
                d = fwd(s)

                def slave_result(nb, t):
                    sp = nb[t]
                    if t[1] == last_rank(s):
                        nb[t] = (sp[0], 'F', False)                     # freed on mover's last rank

                one = (f, r + d)
                if one in WORLD and one not in board:
                    nb = dict(board)
                    del nb[frm]
                    nb[one] = p
                    slave_result(nb, one)
                    finish(sqname(frm) + sqname(one), nb, False, False, slave=True)
                    two = (f, r + 2 * d)
                    if r == slave_rank(s) and two in WORLD and two not in board:
                        nb = dict(board)
                        del nb[frm]
                        nb[two] = p
                        slave_result(nb, two)
                        finish(sqname(frm) + sqname(two), nb, False, False, slave=True, ep=one)
                for a in (-1, 1):
                    t = (f + a, r + d)
                    if t not in WORLD:
                        continue
                    if t in board:
                        nb, arrived, capture = simple(frm, t, WORLD, p)
                        slave_result(nb, t)
                        finish(sqname(frm) + sqname(t), nb, arrived, capture, slave=True)
                    elif pos.ep is not None and t == pos.ep:
                        victim = (t[0], 3)          # the Slave just beyond: always rank 4
                        if victim in board and board[victim][1] == 'S':
                            nb = dict(board)
                            arrived = capture_at(nb, victim)
                            del nb[frm]
                            nb[t] = p
                            slave_result(nb, t)
                            finish(sqname(frm) + sqname(t), nb, arrived, True, slave=True)
            elif c == 'g' and k == 'M':
                t = (f, r + fwd(s))
                if can_land(p, t, WORLD):
                    nb, arrived, capture = simple(frm, t, WORLD, p)
                    if t[1] == 0:
                        nb[t] = ('w', 'S', False)       # enslaved by White
                    elif t[1] == 6:
                        nb[t] = ('b', 'S', False)       # enslaved by Black
                    finish(sqname(frm) + sqname(t), nb, arrived, capture)
        elif reg == 'hall':
            if c != s:
                continue
            for a in (1, -1):
                t = (f, r + a)
                if t in HALLSET:
                    nb, arrived, capture = simple(frm, t, HALLSET, p)
                    finish(sqname(frm) + sqname(t), nb, arrived, capture)
                t = (f, r + 2 * a)
                if t in HALLSET and (t in board or k == 'H'):
                    nb, arrived, capture = simple(frm, t, HALLSET, p)
                    finish(sqname(frm) + sqname(t), nb, arrived, capture)
        elif reg == 'twelve':
            if c == s:
                if k == 'P':
                    deltas = KING
                elif k == 'W':
                    deltas = KNIGHT + FERZ
                elif k == 'F':
                    deltas = WAZIR
                else:
                    raise AssertionError(p)
            elif c == 'g' and k == 'E':
                deltas = WAZIR
            else:
                continue
            for a, b in deltas:
                t = (f + a, r + b)
                if not can_land(p, t, TWELVESET):
                    continue
                nb, arrived, capture = simple(frm, t, TWELVESET, p)
                finish(sqname(frm) + sqname(t), nb, arrived, capture)

    # Reincarnation from H5.
    p = board.get(H5)
    if p is not None and p[0] == s and p[1] != 'H':
        kind = 'S' if p[1] == 'F' else p[1]
        for t in sorted(WORLD):
            if t in board:
                continue
            if kind == 'S' and t[1] == last_rank(s):
                continue
            nb = dict(board)
            del nb[H5]
            nb[t] = (s, kind, False)
            finish(kind + '@' + sqname(t), nb, False, False)
    return out


def sethling_steps(board):
    """All Sethling W steps on the given board: list of (text, new board, capture)."""
    out = []
    for frm in TWELVE:
        p = board.get(frm)
        if p is None or p[1] != 'E':
            continue
        for a, b in WAZIR:
            t = (frm[0] + a, frm[1] + b)
            if t not in TWELVESET:
                continue
            if t in board and board[t][0] == 'g':
                continue
            nb = dict(board)
            capture = t in nb
            if capture:
                del nb[t]                       # captured in the Twelve Hours: ceases to exist
            del nb[frm]
            nb[t] = p
            out.append((sqname(frm) + sqname(t), nb, capture))
    return out


def can_capture_ep(board, s, ep):
    """Could side s capture en passant onto ep on this board?"""
    if ep is None or ep in board:
        return False
    victim = (ep[0], 3)
    if victim not in board or board[victim][1] != 'S':
        return False
    d = fwd(s)
    for a in (-1, 1):
        frm = (ep[0] + a, ep[1] - d)
        if frm in WORLD and frm in board and board[frm][1] == 'S' and controllable_slave(board, frm, s):
            return True
    return False


def legal_moves(pos):
    """List of (text, new Pos) for every whole-turn move (RULINGS 10.3)."""
    board = pos.board
    if game_over(board):
        return []
    s = pos.side
    pre_cond = seth_condition(board, s)
    limbo = board.get(LIMBO)
    destiny_pending = limbo is not None and limbo[0] == s
    res = []
    for nm in normal_moves(pos):
        b1 = nm['board']
        stage2 = [('', b1, False)]
        if pre_cond or seth_condition(b1, s):
            for text, b2, cap in sethling_steps(b1):
                cap |= redemption(b2)
                stage2.append(('+' + text, b2, cap))
        for stext, b2, cap2 in stage2:
            stage3 = []
            if destiny_pending and not nm['arrived']:
                lp = b2[LIMBO]
                assert lp == limbo
                if lp[1] == 'H' or (lp[1] in 'WP' and lp[2]):
                    b3 = dict(b2)
                    del b3[LIMBO]
                    cap3 = drop_h1(b3, lp)
                    cap3 |= redemption(b3)
                    stage3.append(('/%s@f1' % lp[1], b3, cap3))
                else:
                    empties = [sq for sq in TWELVE if sq not in b2]
                    if not empties:
                        b3 = dict(b2)
                        del b3[LIMBO]
                        stage3.append(('/%s@-' % lp[1], b3, False))
                    for sq in empties:
                        b3 = dict(b2)
                        del b3[LIMBO]
                        b3[sq] = (lp[0], lp[1], False)
                        cap3 = redemption(b3)
                        stage3.append(('/%s@%s' % (lp[1], sqname(sq)), b3, cap3))
            else:
                stage3.append(('', b2, False))
            for dtext, b3, cap3 in stage3:
                text = nm['text'] + stext + dtext
                reset = nm['slave'] or nm['capture'] or cap2 or cap3
                hm = 0 if reset else pos.hm + 1
                fm = pos.fm + (1 if s == 'b' else 0)
                ns = opp(s)
                ep = nm['ep'] if can_capture_ep(b3, ns, nm['ep']) else None
                res.append((text, Pos(b3, ns, ep, hm, fm)))
    # Moves are told apart by their text (RULINGS 10.8); a text must never name two results.
    seen = {}
    for text, np in res:
        key = to_fen(np)
        if text in seen and seen[text] != key:
            raise AssertionError("text %s names two different results" % text)
        seen[text] = key
    uniq = []
    done = set()
    for text, np in res:
        if text not in done:
            done.add(text)
            uniq.append((text, np))
    return uniq


def perft(pos, depth):
    if depth == 0:
        return 1
    moves = legal_moves(pos)
    if depth == 1:
        return len(moves)
    return sum(perft(np, depth - 1) for _, np in moves)


def divide(pos, depth):
    total = 0
    for text, np in sorted(legal_moves(pos)):
        n = perft(np, depth - 1)
        total += n
        print("%s: %d" % (text, n))
    print("total: %d" % total)
    return total


def check_file(path, maxdepth):
    ok = True
    cur = None
    with open(path) as fh:
        for line in fh:
            line = line.strip()
            if not line or line.startswith('#'):
                continue
            if line.startswith('id '):
                cur = {'id': line[3:].strip()}
            elif line.startswith('epd '):
                cur['pos'] = parse_fen(line[4:].strip())
                # the FEN must print back identically
                if to_fen(cur['pos']) != line[4:].strip():
                    print("%s: FEN does not round-trip: %s" % (cur['id'], to_fen(cur['pos'])))
                    ok = False
            elif line.startswith('perft '):
                _, d, n = line.split()
                d, n = int(d), int(n)
                if d > maxdepth:
                    continue
                got = perft(cur['pos'], d)
                flag = 'ok' if got == n else 'MISMATCH'
                if got != n:
                    ok = False
                print("%-28s perft %d  hand %8d  ref %8d  %s" % (cur['id'], d, n, got, flag))
    return ok


def random_playouts(n, seed, max_plies, fen):
    rng = random.Random(seed)
    for g in range(n):
        pos = parse_fen(fen)
        print("# game %d" % (g + 1))
        print(to_fen(pos))
        for _ in range(max_plies):
            moves = legal_moves(pos)
            if not moves:
                break
            text, pos = rng.choice(sorted(moves))
            print(to_fen(pos))
            if pos.hm >= 100:
                break
        r = result(pos.board)
        print("# end: %s" % (r if r else ('no moves' if not legal_moves(pos) else 'stopped')))


def main():
    ap = argparse.ArgumentParser(description="Afterlife Chess reference enumerator")
    ap.add_argument('--fen', default=START_FEN)
    ap.add_argument('--depth', type=int)
    ap.add_argument('--divide', action='store_true')
    ap.add_argument('--moves', action='store_true')
    ap.add_argument('--check')
    ap.add_argument('--maxdepth', type=int, default=9)
    ap.add_argument('--random-playouts', type=int)
    ap.add_argument('--seed', type=int, default=1)
    ap.add_argument('--max-plies', type=int, default=200)
    a = ap.parse_args()
    if a.check:
        sys.exit(0 if check_file(a.check, a.maxdepth) else 1)
    if a.random_playouts:
        random_playouts(a.random_playouts, a.seed, a.max_plies, a.fen)
        return
    pos = parse_fen(a.fen)
    if a.moves:
        for text, np in sorted(legal_moves(pos)):
            print("%-22s %s" % (text, to_fen(np)))
        return
    if a.depth is None:
        ap.error("give --depth, --check, --moves or --random-playouts")
    if a.divide:
        divide(pos, a.depth)
    else:
        print(perft(pos, a.depth))


if __name__ == '__main__':
    main()
