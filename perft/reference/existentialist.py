#!/usr/bin/env python3
"""Independent, slow reference move generator for Existentialist Chess (10x10).

Written only from RULINGS.md (sections 0, 1, 8, 9 and 12) and the
inventor's page; interpretations that RULINGS leaves open are numbered
in comments ("N<k>"; listed in perft/reference/README.md).  "R9.4" = RULINGS section 9 item 4, "R1.4.21" = section 1.4
item 21, and so on.  It is meant to be obviously correct, not fast: every legality test
makes the move on a copied position and asks whether the mover's king can be captured,
shot or blasted.

Usage:
  ref.py perft FEN DEPTH [--divide]
  ref.py moves FEN                       legal moves and the FEN after each
  ref.py check FILE [--depth-limit D]    run every 'epd'/'perft' pair of a .perft file
  ref.py --random-playouts N [--seed S] [--plies P] [--fen FEN]
"""
import sys
import random

N = 10
FILES = 'abcdefghij'
START_FEN = ('dscvokvcsd/ytlhxazjty/pppppppppp/10/10/10/10/PPPPPPPPPP/YTLHXAZJTY/'
             'DSCVOKVCSD w KQkq - 0 1')

KING_DIRS = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)]
ORTHO = [(1, 0), (-1, 0), (0, 1), (0, -1)]
DIAG = [(1, 1), (1, -1), (-1, 1), (-1, -1)]
KNIGHT = [(1, 2), (2, 1), (-1, 2), (-2, 1), (1, -2), (2, -1), (-1, -2), (-2, -1)]
CAMEL = [(1, 3), (3, 1), (-1, 3), (-3, 1), (1, -3), (3, -1), (-1, -3), (-3, -1)]
PIECE_LETTERS = 'KOSVCPTXDHAZYLJQRBNWU'


def sqi(f, r):
    return r * N + f


def fof(s):
    return s % N


def rof(s):
    return s // N


def onb(f, r):
    return 0 <= f < N and 0 <= r < N


def sname(s):
    return FILES[s % N] + str(s // N + 1)


def parse_sq(t):
    return sqi(FILES.index(t[0]), int(t[1:]) - 1)


def other(c):
    return 'b' if c == 'w' else 'w'


def fwd(c):
    return 1 if c == 'w' else -1


def own_rank(c, r):
    """1-based rank counted from colour c's side."""
    return r + 1 if c == 'w' else N - r


def adjacent(a, b):
    return a != b and abs(fof(a) - fof(b)) <= 1 and abs(rof(a) - rof(b)) <= 1


class Piece:
    __slots__ = ('color', 't', 'cnt', 'spells', 'arch', 'f', 'g', 'k', 'm')

    def __init__(self, color, t):
        self.color = color      # 'w' / 'b'
        self.t = t              # upper-case letter
        self.cnt = 0            # Bobber / Existentialist counter (c<N>)
        self.spells = []        # list of (kind, ply): in force while game ply < ply
        self.arch = None        # attached letter ('A'/'a' archer, 'Z'/'z' zednick on an Archer)
        self.f = 0              # fire streak
        self.g = None           # shield link number
        self.k = False          # intruder sharing the square of the enemy King
        self.m = False          # Adventurist has been beyond its rank 3

    def copy(self):
        p = Piece(self.color, self.t)
        p.cnt = self.cnt
        p.spells = list(self.spells)
        p.arch = self.arch
        p.f = self.f
        p.g = self.g
        p.k = self.k
        p.m = self.m
        return p


class Pos:
    def __init__(self):
        self.board = [None] * (N * N)
        self.stm = 'w'
        self.castling = set()
        self.ep = []            # squares passed by the last 2/3-step (in passing order)
        self.ep_victim = None   # square of the Pawn/Adventurist that made it
        self.half = 0
        self.full = 1

    @property
    def ply(self):
        return 2 * (self.full - 1) + (1 if self.stm == 'b' else 0)

    def copy(self):
        q = Pos()
        q.board = [p.copy() if p is not None else None for p in self.board]
        q.stm = self.stm
        q.castling = set(self.castling)
        q.ep = list(self.ep)
        q.ep_victim = self.ep_victim
        q.half = self.half
        q.full = self.full
        return q


# ------------------------------------------------------------------ predicates
def spell(pos, p, kind):
    return any(k == kind and pos.ply < at for (k, at) in p.spells)


def sleeping(pos, p):
    return p.t == 'X' and spell(pos, p, 'z')


def is_shield(p):
    return p is not None and p.t == 'Z' and p.g is not None


def is_az(p):
    """The Archer/Zednick (A{aZ})."""
    return p.t == 'A' and p.arch is not None and p.arch.upper() == 'Z'


def carries_archer(p):
    return p.arch is not None and p.arch.upper() == 'A'


def shooter(p):
    return carries_archer(p) or is_az(p)


def protected_ka(p):
    """King carrying its Archer whose streak is below 3 (R12.8)."""
    return p.t == 'K' and carries_archer(p) and p.f < 3


def frozen(pos, s, p):
    """Next to an enemy Hyena (R1.2 Hyena, R1.4.6); Dazzlers (with or without the Archer,
    R12.17) and shields (R12.19) are never frozen."""
    if p.t == 'D' or is_shield(p):
        return False
    f, r = fof(s), rof(s)
    for df, dr in KING_DIRS:
        if onb(f + df, r + dr):
            q = pos.board[sqi(f + df, r + dr)]
            if q is not None and q.t == 'H' and q.color != p.color:
                return True
    return False


def king_square(pos, color):
    """(square, shared) of colour's King; shared=True when it shares its square with an
    enemy intruder (written as the intruder with flag k)."""
    for s, p in enumerate(pos.board):
        if p is None:
            continue
        if p.t == 'K' and p.color == color and not p.k:
            return s, False
        if p.k and p.color != color:
            return s, True
    return None, False


def xstep(p):
    """Step (1-10) of the Existentialist's next move."""
    return p.cnt % 10 + 1


def capture_kind(pos, mover, tgt):
    """None: cannot capture; 'n': normal capture; 'ka': capture onto a protected King+Archer
    (kills only the archer, R1.3 / R12.8)."""
    if tgt is None or tgt.color == mover.color:
        return None
    if is_shield(tgt) or tgt.t in 'HY' or sleeping(pos, tgt) or spell(pos, tgt, 'i') or tgt.k:
        return None
    if tgt.t == 'K':
        if protected_ka(tgt) and mover.t != 'K':   # R12.10
            return 'ka'
        return None          # a bare King is never captured
    return 'n'


# ------------------------------------------------------------------ geometry
def slide(pos, s, dirs, maxr=N):
    f, r = fof(s), rof(s)
    for df, dr in dirs:
        for i in range(1, maxr + 1):
            nf, nr = f + df * i, r + dr * i
            if not onb(nf, nr):
                break
            t = sqi(nf, nr)
            yield t
            if pos.board[t] is not None:
                break


def leap(s, vecs):
    f, r = fof(s), rof(s)
    for df, dr in vecs:
        if onb(f + df, r + dr):
            yield sqi(f + df, r + dr)


def x_geom(pos, s, p):
    """Squares of a one-leg Existentialist move (move or capture), steps 2-4, 6-10.
    Step 1 and step 5 are handled separately."""
    st = xstep(p)
    fw = fwd(p.color)
    r = rof(s)
    if st == 2:
        return list(leap(s, KING_DIRS))
    if st == 3:
        if own_rank(p.color, r) == 1:                       # R1.2 X step 3
            return list(leap(s, [(1, 0), (-1, 0)]))
        return (list(slide(pos, s, [(1, -fw), (-1, -fw)])) +
                list(leap(s, [(1, -2 * fw), (-1, -2 * fw), (2, -fw), (-2, -fw)])))   # R9.12
    if st == 4:
        return list(slide(pos, s, [(1, 0), (-1, 0)])) + list(leap(s, [(1, fw), (-1, fw)]))
    if st == 6:
        return list(leap(s, CAMEL + DIAG))
    if st == 7:
        return list(leap(s, KNIGHT + CAMEL + DIAG))
    if st == 8:
        return list(slide(pos, s, KING_DIRS))
    if st == 9:
        return list(slide(pos, s, KING_DIRS)) + list(leap(s, KNIGHT))
    if st == 10:
        return list(slide(pos, s, KING_DIRS)) + list(leap(s, KNIGHT + CAMEL))
    return []


def dazzler_geom(pos, s, p):
    """dict to -> (mode, jumped square or None); mode 'b' move or capture, 'c' capture only.
    R1.2 Dazzler, R1.4.3-4, R9.3, R12.19."""
    res = {}
    f, r = fof(s), rof(s)
    b = pos.board
    for df, dr in KING_DIRS:
        if not onb(f + df, r + dr):
            continue
        t1 = sqi(f + df, r + dr)
        res[t1] = ('b', None)
        if onb(f + 2 * df, r + 2 * dr):
            t2 = sqi(f + 2 * df, r + 2 * dr)
            mp = b[t1]
            if mp is None:
                res[t2] = ('b', None)
            elif (is_shield(mp) and mp.color != p.color) or sleeping(pos, mp):
                pass
            else:
                res[t2] = ('b', t1)
    for df, dr in ORTHO:
        i = 1
        screen = None
        while onb(f + df * i, r + dr * i):
            t = sqi(f + df * i, r + dr * i)
            if b[t] is not None:
                screen = t
                break
            i += 1
        if screen is None:
            continue
        sp = b[screen]
        if (is_shield(sp) and sp.color != p.color) or sleeping(pos, sp):
            continue
        i += 1
        if is_shield(sp):      # a whole own shield along the line is one screen (R12.19)
            while onb(f + df * i, r + dr * i):
                t = sqi(f + df * i, r + dr * i)
                q = b[t]
                if is_shield(q) and q.color == sp.color and q.g == sp.g:
                    i += 1
                else:
                    break
        while onb(f + df * i, r + dr * i):
            t = sqi(f + df * i, r + dr * i)
            if b[t] is not None:
                if t not in res:            # distance 2: same move as the leap (R9.3)
                    res[t] = ('c', screen)
                break
            i += 1
    return res


def piece_geom(pos, s, p):
    """List of (to, mode, jump) for ordinary one-leg moves (mode 'q' quiet only,
    'c' capture only, 'b' both).  Excludes: X step 1/5, teleports, e.p., castling,
    merges, shots, promotions (added by the generator)."""
    t = p.t
    out = []
    if t == 'K':
        out = [(x, 'b', None) for x in leap(s, KING_DIRS)]
    elif t == 'O':
        rng = min(p.cnt + 1, 9)                                   # R1.4.2, R1.4.8
        out = [(x, 'b', None) for x in slide(pos, s, KING_DIRS, rng)]
    elif t == 'S':
        out = [(x, 'b', None) for x in list(slide(pos, s, ORTHO)) + list(leap(s, DIAG))]
    elif t == 'V':
        out = [(x, 'b', None) for x in list(slide(pos, s, DIAG)) + list(leap(s, ORTHO))]
    elif t == 'C':
        out = [(x, 'b', None) for x in leap(s, KING_DIRS + KNIGHT)]
    elif t == 'P':
        fw = fwd(p.color)
        f, r = fof(s), rof(s)
        if onb(f, r + fw):
            one = sqi(f, r + fw)
            if pos.board[one] is None:
                out.append((one, 'q', None))
                if own_rank(p.color, r) == 3 and onb(f, r + 2 * fw):     # R9.11
                    two = sqi(f, r + 2 * fw)
                    if pos.board[two] is None:
                        out.append((two, 'q', None))
        for x in leap(s, [(1, fw), (-1, fw)]):
            out.append((x, 'c', None))
    elif t == 'T':
        out = [(x, 'c', None) for x in leap(s, KING_DIRS)]
    elif t == 'X':
        out = [(x, 'b', None) for x in x_geom(pos, s, p)]
    elif t == 'D':
        out = [(x, mode, j) for x, (mode, j) in dazzler_geom(pos, s, p).items()]
    elif t == 'H':
        out = [(x, 'q', None) for x in slide(pos, s, KING_DIRS, 3)]
    elif t == 'A':
        if is_az(p):
            out = [(x, 'b', None) for x in leap(s, KING_DIRS)]
        else:
            out = [(x, 'q', None) for x in leap(s, KING_DIRS)]
    elif t == 'Z':
        if not is_shield(p):
            out = [(x, 'q', None) for x in leap(s, KING_DIRS)]
    elif t == 'Y':
        out = [(x, 'q', None) for x in leap(s, KING_DIRS)]
    elif t in 'LJ':
        if knight_half(p, s):
            out = [(x, 'b', None) for x in leap(s, KNIGHT + CAMEL + DIAG)]
        else:
            out = [(x, 'b', None) for x in slide(pos, s, KING_DIRS)]
    elif t == 'W':
        out = [(x, 'b', None) for x in slide(pos, s, KING_DIRS, 3)]
    elif t == 'Q':
        out = [(x, 'b', None) for x in slide(pos, s, KING_DIRS)]
    elif t == 'R':
        out = [(x, 'b', None) for x in slide(pos, s, ORTHO)]
    elif t == 'B':
        out = [(x, 'b', None) for x in slide(pos, s, DIAG)]
    elif t == 'N':
        out = [(x, 'b', None) for x in leap(s, KNIGHT)]
    elif t == 'U':
        out = [(x, 'b', None) for x in leap(s, KING_DIRS)]           # R1.4.25: pawn captures included
        fw = fwd(p.color)
        f, r = fof(s), rof(s)
        if not p.m and own_rank(p.color, r) in (2, 3):             # R12.21
            for k in (2, 3):
                if not onb(f, r + k * fw):
                    break
                if all(pos.board[sqi(f, r + i * fw)] is None for i in range(1, k + 1)):
                    out.append((sqi(f, r + k * fw), 'q', None))
                else:
                    break
    return out


def knight_half(p, s):
    """Left Schizzy: knight/wizard on files a-e; Right Schizzy: on files f-j."""
    return (fof(s) < 5) if p.t == 'L' else (fof(s) >= 5)


def dknight_targets(pos, s):
    """Final squares of the step-5 double knight move (R9.4): first leap to an empty square,
    second may capture; never back to the start square."""
    res = set()
    for m1 in leap(s, KNIGHT):
        if pos.board[m1] is not None:
            continue
        for m2 in leap(m1, KNIGHT):
            if m2 != s:
                res.add(m2)
    return res


def blast_rays(board, center):
    """First occupied square on each of the 8 rays from center (R1.4.15)."""
    out = []
    f, r = fof(center), rof(center)
    for df, dr in KING_DIRS:
        i = 1
        while onb(f + df * i, r + dr * i):
            t = sqi(f + df * i, r + dr * i)
            if board[t] is not None:
                out.append(t)
                break
            i += 1
    return out


# ------------------------------------------------------------------ attacks
def shot_range(pos, s, p):
    """(range, only_hyena) of the arrows p could shoot now, or None (R1.2 Archer, R1.4.11,
    R12.7, R12.15, R12.17)."""
    if not shooter(p) or p.f >= 3:
        return None
    if p.t in 'LJ' and not knight_half(p, s):
        return None
    rng = 3 if is_az(p) else 2
    if frozen(pos, s, p):
        if is_az(p):
            return 2, False
        return 1, True
    return rng, False


def shot_targets(pos, s, p):
    sr = shot_range(pos, s, p)
    if sr is None:
        return []
    rng, only_h = sr
    out = []
    f, r = fof(s), rof(s)
    for df, dr in KING_DIRS:
        for i in range(1, rng + 1):
            if not onb(f + df * i, r + dr * i):
                break
            t = sqi(f + df * i, r + dr * i)
            q = pos.board[t]
            if q is None:
                continue
            if (q.color != p.color and not is_shield(q) and not sleeping(pos, q) and not q.k
                    and (not only_h or q.t == 'H')):
                out.append(t)
            break
    return out


def square_attacked(pos, ts, tcolor, protected=False, invulnerable=False):
    """Could the side other than tcolor capture, shoot or blast a King of colour tcolor
    standing on ts on its next move?  Pins ignored (R8.3, R9.1, R9.7, R9.9, R12.7)."""
    b = pos.board
    enemy = other(tcolor)
    for s, p in enumerate(b):
        if p is None:
            continue
        if p.k and other(p.color) == enemy:          # the King implied on a shared square
            if adjacent(s, ts) and not protected:
                return True
        if p.color != enemy or is_shield(p) or sleeping(pos, p):
            continue
        if p.t == 'K':                                # kings always attack (R9.1, R12.10)
            if adjacent(s, ts) and not protected:
                return True
        if shooter(p) and ts in shot_targets(pos, s, p):
            return True
        if p.t == 'K':
            continue
        if frozen(pos, s, p) or spell(pos, p, 'd'):
            continue
        if p.t == 'X':
            st = xstep(p)
            if st in (1, 5):              # step 1 captures nothing; step 5 never attacks a King (R1.4.18)
                continue
            geo = x_geom(pos, s, p)
            if not invulnerable and ts in geo:
                return True
            if p.cnt == 19:               # pending blast (R9.9)
                for d in geo:
                    q = b[d]
                    if q is not None:
                        if q.color == p.color:
                            continue
                        if d == ts:
                            continue      # the capture itself was tested above
                        ck = capture_kind(pos, p, q)
                        if ck is None:
                            continue
                    bb = list(b)
                    bb[s] = None
                    if q is not None and not (q.t == 'K' and protected_ka(q)):
                        bb[d] = None
                    if ts in blast_rays(bb, d):
                        return True
            continue
        if invulnerable:
            continue
        for (x, mode, j) in piece_geom(pos, s, p):
            if x == ts and mode in 'cb':
                return True
    return False


def king_attacked(pos, color):
    ks, shared = king_square(pos, color)
    if ks is None:
        return False
    if shared:
        return square_attacked(pos, ks, color)
    kp = pos.board[ks]
    return square_attacked(pos, ks, color, protected_ka(kp), spell(pos, kp, 'i'))


# ------------------------------------------------------------------ move generation
def mv(kind, fr, to, **kw):
    d = {'kind': kind, 'fr': fr, 'to': to}
    d.update(kw)
    return d


def move_text(m):
    k = m['kind']
    if k == 'shot':
        return '%s%s,%s%s' % (sname(m['fr']), sname(m['to']), sname(m['to']), sname(m['fr']))
    if k == 'ep':
        # XBoard multi-leg form: victim square first, then destination (R8.1)
        return '%s%s,%s%s' % (sname(m['fr']), sname(m['victim']), sname(m['victim']), sname(m['to']))
    if k == 'shield':
        sq = m['squares']
        if len(sq) == 2:
            return sname(m['fr']) + sname(m['to'])
        return '%s%s,%s%s' % (sname(m['fr']), sname(m['t1']), sname(m['t1']), sname(m['t2']))
    if k == 'inplace':
        return sname(m['fr']) + sname(m['fr'])
    s = sname(m['fr']) + sname(m['to'])
    if m.get('promo'):
        s += m['promo'].lower()
    return s


def between(a, b):
    fa, ra, fb, rb = fof(a), rof(a), fof(b), rof(b)
    out = []
    for f in range(min(fa, fb), max(fa, fb) + 1):
        for r in range(min(ra, rb), max(ra, rb) + 1):
            x = sqi(f, r)
            if x != a and x != b:
                out.append(x)
    return out


def ep_moves(pos, s, p):
    """Pawn-style e.p. captures for a Pawn or Adventurist (R9.11, R12.20, R12.21)."""
    out = []
    if not pos.ep or pos.ep_victim is None:
        return out
    v = pos.ep_victim
    vp = pos.board[v]
    if vp is None or vp.color == p.color or vp.t not in 'PU':
        return out
    fw = fwd(p.color)
    for e in pos.ep:
        if pos.board[e] is not None:
            continue
        if rof(e) - rof(s) == fw and abs(fof(e) - fof(s)) == 1:
            if any(is_shield(pos.board[x]) for x in between(s, v) + between(s, e)):
                continue
            out.append(mv('ep', s, e, victim=v))
    return out


def archer_host_ok(q, color):
    """R12.16."""
    return (q is not None and q.color == color and q.t not in 'HYX' and not is_shield(q)
            and not is_az(q) and q.arch is None and not q.k)


def add_with_promo(out, kind, s, x, p, **kw):
    last = own_rank(p.color, rof(x)) == N
    if p.t in 'PUY' and last:
        for pr in 'QRBN':
            out.append(mv(kind, s, x, promo=pr, **kw))
    else:
        out.append(mv(kind, s, x, **kw))


def shield_moves(pos, color, g):
    sqs = [s for s, p in enumerate(pos.board) if is_shield(p) and p.color == color and p.g == g]
    L = len(sqs)
    out = []
    anchor = min(sqs, key=lambda s: (fof(s), rof(s)))

    def ok_rank(r):
        return 0 <= r < N and 1 <= own_rank(color, r) <= 5

    deltas = [(0, 1), (0, -1)] + [(k, 0) for k in range(1, L + 1)] + [(-k, 0) for k in range(1, L + 1)]
    for df, dr in deltas:
        good = True
        steps = max(abs(df), abs(dr))
        sf = (df > 0) - (df < 0)
        srk = (dr > 0) - (dr < 0)
        for i in range(1, steps + 1):
            for s in sqs:
                nf, nr = fof(s) + sf * i, rof(s) + srk * i
                if not onb(nf, nr) or not ok_rank(nr):
                    good = False
                    break
                t = sqi(nf, nr)
                if t not in sqs and pos.board[t] is not None:
                    good = False
                    break
            if not good:
                break
        if good:
            to = sqi(fof(anchor) + df, rof(anchor) + dr)
            out.append(mv('shieldmove', anchor, to, squares=sqs, delta=(df, dr)))
    return out


def zednick_merges(pos, s, p):
    out = []
    b = pos.board
    for x in leap(s, KING_DIRS):
        q = b[x]
        if q is None or q.color != p.color or q.k:
            continue
        if q.t == 'P':
            out.append(mv('merge', s, x, sub='zpawn'))
        elif q.t == 'O':
            out.append(mv('merge', s, x, sub='zbobber'))
        elif q.t == 'A' and q.arch is None:
            out.append(mv('merge', s, x, sub='zarcher'))
    # shields (R12.18)
    f, r = fof(s), rof(s)

    def isT(ff, rr):
        if not onb(ff, rr):
            return False
        q = b[sqi(ff, rr)]
        return q is not None and q.color == p.color and q.t == 'T' and q.arch is None and not q.k

    def ranks_ok(squares):
        return all(1 <= own_rank(p.color, rof(x)) <= 5 for x in squares)

    for df, dr in ORTHO:
        if isT(f + df, r + dr):
            t1 = sqi(f + df, r + dr)
            sq2 = [s, t1]
            if ranks_ok(sq2):
                out.append(mv('shield', s, t1, squares=sq2))
            if isT(f + 2 * df, r + 2 * dr):          # Z-T-T
                t2 = sqi(f + 2 * df, r + 2 * dr)
                sq3 = [s, t1, t2]
                if ranks_ok(sq3):
                    out.append(mv('shield', s, t1, squares=sq3, t1=t1, t2=t2))
    for df, dr in [(1, 0), (0, 1)]:                   # T-Z-T
        if isT(f + df, r + dr) and isT(f - df, r - dr):
            lo, hi = sqi(f - df, r - dr), sqi(f + df, r + dr)
            sq3 = [lo, s, hi]
            if ranks_ok(sq3):
                out.append(mv('shield', s, lo, squares=sq3, t1=lo, t2=hi))
    return out


def gen_pseudo(pos):
    us = pos.stm
    b = pos.board
    out = []
    chk = [None]

    def in_check():
        if chk[0] is None:
            chk[0] = king_attacked(pos, us)
        return chk[0]

    shields_done = set()
    for s, p in enumerate(b):
        if p is None or p.color != us:
            continue
        if is_shield(p):
            if p.g not in shields_done:
                shields_done.add(p.g)
                out += shield_moves(pos, us, p.g)
            continue
        if p.k or sleeping(pos, p):
            continue
        fz = frozen(pos, s, p)
        dz = spell(pos, p, 'd')
        can_move = not fz and not dz
        if p.t == 'K' and (fz or dz):
            can_move = in_check()                     # R1.3, R9.1, R9.7
        if p.t == 'H' and spell(pos, p, 'h'):
            can_move = True                           # R9.8
        # shots (a dazzled host may still fire; a frozen one only as shot_range says)
        for x in shot_targets(pos, s, p):
            tq = b[x]
            if tq.t == 'K' and not protected_ka(tq):
                continue
            out.append(mv('shot', s, x))
        # teleports: allowed while dazzled, not while frozen (R1.2 Teleporter, R9.1)
        if p.t == 'T' and not fz:
            want = not ((fof(s) + rof(s)) % 2 == 0)
            for x in range(N * N):
                if b[x] is None and ((fof(x) + rof(x)) % 2 == 0) == want:
                    out.append(mv('move', s, x, teleport=True))
        if not can_move:
            continue
        # ordinary moves
        if p.t == 'X':
            st = xstep(p)
            if st == 1:
                for x in range(N * N):
                    if b[x] is None:
                        out.append(mv('move', s, x))
                continue
            if st == 5:
                for x in sorted(dknight_targets(pos, s)):
                    q = b[x]
                    if q is None:
                        out.append(mv('dknight', s, x))
                    else:
                        ck = capture_kind(pos, p, q)
                        if ck:
                            out.append(mv('dknight', s, x, ka=(ck == 'ka')))
                continue
        for (x, mode, j) in piece_geom(pos, s, p):
            q = b[x]
            if q is None:
                if mode in 'qb':
                    add_with_promo(out, 'move', s, x, p, jump=j)
            elif q.color != p.color:
                if mode in 'cb' and capture_kind(pos, p, q):
                    add_with_promo(out, 'move', s, x, p, jump=j)
        if p.t in 'PU':
            out += ep_moves(pos, s, p)
        if p.t == 'A' and p.arch is None:
            for x in leap(s, KING_DIRS):
                if archer_host_ok(b[x], us):
                    out.append(mv('merge', s, x, sub='archer'))
        if p.t == 'Z' and not is_shield(p):
            out += zednick_merges(pos, s, p)
        if p.t == 'K' and not fz and not dz:
            out += castling_moves(pos, s, p, in_check)
    return out


def castling_moves(pos, s, p, in_check):
    """R9.6, R12.9."""
    out = []
    us = p.color
    home_r = 0 if us == 'w' else 9
    if s != sqi(5, home_r):
        return out
    b = pos.board
    for right, sq_sq, empties, cross, kto, sto in (
            ('K', sqi(8, home_r), [6, 7], 6, 7, 6),
            ('Q', sqi(1, home_r), [2, 3, 4], 4, 3, 4)):
        rc = right if us == 'w' else right.lower()
        if rc not in pos.castling:
            continue
        sp = b[sq_sq]
        if sp is None or sp.t != 'S' or sp.color != us:
            continue
        if frozen(pos, sq_sq, sp) or spell(pos, sp, 'd'):
            continue
        if any(b[sqi(f, home_r)] is not None for f in empties):
            continue
        if in_check():
            continue
        tmp = pos.copy()
        tmp.board[sqi(cross, home_r)] = tmp.board[s]
        tmp.board[s] = None
        if king_attacked(tmp, us):
            continue
        out.append(mv('castle', s, sqi(kto, home_r), rook_fr=sq_sq, rook_to=sqi(sto, home_r)))
    return out


def shared_moves(pos, ks):
    """R12.13: only the King moves: capture the intruder in place or step away."""
    us = pos.stm
    b = pos.board
    intr = b[ks]
    out = []
    if not sleeping(pos, intr):
        out.append(mv('inplace', ks, ks))
    king = Piece(us, 'K')
    for x in leap(ks, KING_DIRS):
        q = b[x]
        if q is None or (q.color != us and capture_kind(pos, king, q) == 'n'):
            out.append(mv('away', ks, x))
    return out


# ------------------------------------------------------------------ make move
def kill(new, s, old_ply_pos):
    """Effect of an arrow or a blast on the piece at s (R1.4.9, R1.4.15, R12.8)."""
    b = new.board
    q = b[s]
    if q is None:
        return
    if sleeping(old_ply_pos, q):
        return
    if is_shield(q):
        for x in range(N * N):
            y = b[x]
            if is_shield(y) and y.color == q.color and y.g == q.g:
                b[x] = None
        return
    if q.t == 'H' and spell(old_ply_pos, q, 'i'):
        b[s] = Piece(q.color, 'W')           # Wildcat (R1.2 Hyena)
        return
    if protected_ka(q):
        q.arch = None
        q.f = 0
        return
    b[s] = None


def renumber_shields(pos):
    mapping = {}
    for r in range(N - 1, -1, -1):
        for f in range(N):
            p = pos.board[sqi(f, r)]
            if is_shield(p):
                key = (p.color, p.g)
                if key not in mapping:
                    mapping[key] = len(mapping) + 1
    for p in pos.board:
        if is_shield(p):
            p.g = mapping[(p.color, p.g)]


def make(pos, m):
    new = pos.copy()
    b = new.board
    us = pos.stm
    them = other(us)
    ply = pos.ply
    kind = m['kind']
    reset = False
    new_spells = []          # (piece object, kind, at)
    shot_piece = None
    teleported_piece = None
    touched = set()
    blast_center = None
    new.ep = []
    new.ep_victim = None

    if kind in ('move', 'dknight', 'ep'):
        fr, to = m['fr'], m['to']
        p = b[fr]
        b[fr] = None
        touched.add(fr)
        tgt = b[to]
        if kind == 'ep':
            b[m['victim']] = None
            reset = True
        shared = False
        if tgt is not None:
            reset = True
            if protected_ka(tgt):
                tgt.arch = None            # the archer dies (R1.3 King+Archer)
                tgt.f = 0
                if p.t == 'X' and p.cnt == 19:
                    pass                   # R12.12: the King stays on the blast's centre
                else:
                    shared = True
                    b[to] = None
            else:
                b[to] = None
                touched.add(to)
        else:
            touched.add(to)
        if p.t == 'O':
            p.cnt += 1
        if p.t in 'PU':
            reset = True
        explode = False
        if p.t == 'X':
            p.cnt += 1
            if p.cnt == 20:
                explode = True
                blast_center = to
            elif p.cnt == 10:
                new_spells.append((p, 'z', ply + 21))           # R1.4.21, R9.14
        if m.get('promo'):
            p.t = m['promo']
            p.m = False
        if p.t == 'U' and own_rank(p.color, rof(to)) > 3:
            p.m = True
        if m.get('teleport') and carries_archer(p):
            teleported_piece = p
        if not explode:
            if shared:
                p.k = True
            b[to] = p
        j = m.get('jump')
        if j is not None:
            q = b[j]
            if q is not None and not is_shield(q):
                if q.color == us:
                    if q.t != 'Y':
                        new_spells.append((q, 'i', ply + 2))   # also the Hyena's Wildcat protection
                else:
                    new_spells.append((q, 'h' if q.t == 'H' else 'd', ply + 2))
        # e.p. squares (R9.11, R12.4, R12.21)
        if kind == 'move' and p.t in 'PU' and fof(fr) == fof(to):
            d = (rof(to) - rof(fr)) * fwd(p.color)
            if d >= 2:
                new.ep = [sqi(fof(fr), rof(fr) + i * fwd(p.color)) for i in range(1, d)]
                new.ep_victim = to
    elif kind == 'castle':
        k = b[m['fr']]
        sq = b[m['rook_fr']]
        b[m['fr']] = None
        b[m['rook_fr']] = None
        b[m['to']] = k
        b[m['rook_to']] = sq
        touched |= {m['fr'], m['rook_fr']}
    elif kind == 'shot':
        shot_piece = b[m['fr']]
        kill(new, m['to'], pos)
        reset = True
    elif kind == 'merge':
        fr, to = m['fr'], m['to']
        mover = b[fr]
        host = b[to]
        b[fr] = None
        sub = m['sub']
        reset = True
        if sub == 'archer':
            if host.t == 'Z':
                a = Piece(us, 'A')
                a.arch = 'Z' if us == 'w' else 'z'
                b[to] = a
            else:
                host.arch = 'A' if us == 'w' else 'a'
                host.f = 0
        elif sub == 'zpawn':
            host.t = 'U'
            host.m = own_rank(us, rof(to)) > 3
        elif sub == 'zbobber':
            host.cnt += 3
        elif sub == 'zarcher':
            host.arch = 'Z' if us == 'w' else 'z'
        touched.add(fr)
    elif kind == 'shield':
        for x in m['squares']:
            z = Piece(us, 'Z')
            z.g = 99
            b[x] = z
        reset = True
    elif kind == 'shieldmove':
        df, dr = m['delta']
        pieces = [(x, b[x]) for x in m['squares']]
        for x, _ in pieces:
            b[x] = None
        for x, pz in pieces:
            b[sqi(fof(x) + df, rof(x) + dr)] = pz
    elif kind == 'inplace':
        b[m['fr']] = Piece(us, 'K')
        reset = True
    elif kind == 'away':
        fr, to = m['fr'], m['to']
        b[fr].k = False
        if b[to] is not None:
            reset = True
        b[to] = Piece(us, 'K')
        touched |= {fr, to}
    else:
        raise ValueError(kind)

    if blast_center is not None:
        for x in blast_rays(b, blast_center):
            kill(new, x, pos)
        reset = True

    # fire streaks of the mover's archer (R12.15)
    for p in b:
        if p is not None and p.color == us and shooter(p):
            if p is shot_piece:
                p.f += 1
            elif p is teleported_piece:
                p.f = 3
            else:
                p.f = 0
    # spells: everything cast earlier has now expired; add the new ones
    for p in b:
        if p is not None and p.spells:
            p.spells = [(k, a) for (k, a) in p.spells if a > ply + 1]
    for (p, k, a) in new_spells:
        if any(x is p for x in b):
            p.spells.append((k, a))
    # castling rights (R9.6)
    for x in touched:
        for rc, sqs in (('K', (sqi(5, 0), sqi(8, 0))), ('Q', (sqi(5, 0), sqi(1, 0))),
                        ('k', (sqi(5, 9), sqi(8, 9))), ('q', (sqi(5, 9), sqi(1, 9)))):
            if x in sqs:
                new.castling.discard(rc)
    validate_castling(new)
    renumber_shields(new)
    new.half = 0 if reset else pos.half + 1
    if us == 'b':
        new.full += 1
    new.stm = them
    return new


def validate_castling(pos):
    for rc in list(pos.castling):
        c = 'w' if rc.isupper() else 'b'
        r = 0 if c == 'w' else 9
        ks = sqi(5, r)
        ss = sqi(8, r) if rc.upper() == 'K' else sqi(1, r)
        kp = pos.board[ks]
        king_ok = kp is not None and ((kp.t == 'K' and kp.color == c and not kp.k) or
                                      (kp.k and kp.color != c))
        sp = pos.board[ss]
        sq_ok = sp is not None and sp.t == 'S' and sp.color == c and not sp.k
        if not (king_ok and sq_ok):
            pos.castling.discard(rc)


# ------------------------------------------------------------------ legality
def game_over(pos):
    return king_square(pos, 'w')[0] is None or king_square(pos, 'b')[0] is None


def is_legal(pos, m, new=None):
    if new is None:
        new = make(pos, m)
    us = pos.stm
    them = other(us)
    if m['kind'] == 'move' and pos.board[m['fr']].t == 'X' and pos.board[m['fr']].cnt == 19:
        if king_square(new, them)[0] is None:
            return True                   # the blast killed the enemy King (R1.4.16, R9.10)
        if king_square(new, us)[0] is None:
            return False                  # kills only the mover's King
    ks, shared = king_square(new, us)
    if ks is None:
        return False
    okp_sq, oshared = king_square(pos, us)
    if m['kind'] != 'castle' and not oshared and not shared:
        kold = pos.board[okp_sq]
        knew = new.board[ks]
        if protected_ka(kold) and protected_ka(knew):
            safe = True                   # R12.8
        else:
            safe = not king_attacked(new, us)
    else:
        safe = not king_attacked(new, us)
    if not safe:
        return False
    if m['kind'] == 'dknight' and m.get('ka'):
        if not legal_moves(new):          # R12.11
            return False
    return True


def legal_moves(pos):
    if game_over(pos):
        return []
    ks, shared = king_square(pos, pos.stm)
    if shared:
        cands = shared_moves(pos, ks)
    else:
        cands = gen_pseudo(pos)
    res = []
    for m in cands:
        new = make(pos, m)
        if is_legal(pos, m, new):
            res.append((m, new))
    if not shared:
        hy = [s for s, p in enumerate(pos.board)
              if p is not None and p.color == pos.stm and p.t == 'H' and spell(pos, p, 'h')]
        if hy:
            forced = [(m, n) for (m, n) in res if m['fr'] in hy and m['kind'] == 'move']
            if forced:
                res = forced                 # R9.8; otherwise the obligation lapses (R1.4.7)
    return res


# ------------------------------------------------------------------ FEN
def parse_fen(fen):
    parts = fen.split()
    pos = Pos()
    rows = parts[0].split('/')
    assert len(rows) == N, 'need 10 ranks'
    for i, row in enumerate(rows):
        r = N - 1 - i
        f = 0
        j = 0
        while j < len(row):
            ch = row[j]
            if ch.isdigit():
                k = j
                while k < len(row) and row[k].isdigit():
                    k += 1
                f += int(row[j:k])
                j = k
                continue
            assert ch.upper() in PIECE_LETTERS, ch
            p = Piece('w' if ch.isupper() else 'b', ch.upper())
            j += 1
            if j < len(row) and row[j] == '{':
                k = row.index('}', j)
                for item in row[j + 1:k].split(','):
                    item = item.strip()
                    if not item:
                        continue
                    if item == 'm':
                        p.m = True
                    elif item == 'k':
                        p.k = True
                    elif item[0] == 'c':
                        p.cnt = int(item[1:])
                    elif item[0] == 's':
                        kind, at = item[1:].split('@')
                        p.spells.append((kind, int(at)))
                    elif item[0] == 'a':
                        p.arch = item[1]
                    elif item[0] == 'f':
                        p.f = int(item[1:])
                    elif item[0] == 'g':
                        p.g = int(item[1:])
                    else:
                        raise ValueError('state item ' + item)
                j = k + 1
            assert f < N, 'rank too long: ' + row
            pos.board[sqi(f, r)] = p
            f += 1
        assert f == N, 'rank length %d: %s' % (f, row)
    pos.stm = parts[1] if len(parts) > 1 else 'w'
    cf = parts[2] if len(parts) > 2 else '-'
    pos.castling = set(c for c in cf if c in 'KQkq')
    epf = parts[3] if len(parts) > 3 else '-'
    if epf != '-':
        sqs = []
        k = 0
        while k < len(epf):
            j = k + 1
            while j < len(epf) and epf[j].isdigit():
                j += 1
            sqs.append(parse_sq(epf[k:j]))
            k = j
        pos.ep = sqs
        mover = other(pos.stm)
        last = sqs[-1]
        pos.ep_victim = sqi(fof(last), rof(last) + fwd(mover))
    pos.half = int(parts[4]) if len(parts) > 4 else 0
    pos.full = int(parts[5]) if len(parts) > 5 else 1
    # U on ranks 4+ has been beyond rank 3 anyway (R12.2)
    for s, p in enumerate(pos.board):
        if p is not None and p.t == 'U' and own_rank(p.color, rof(s)) > 3:
            p.m = True
    validate_castling(pos)
    return pos


def piece_str(pos, s, p):
    items = []
    if p.t == 'U' and p.m and own_rank(p.color, rof(s)) <= 3:
        items.append('m')
    if p.cnt and p.t in 'OX':
        items.append('c%d' % p.cnt)
    for (k, a) in sorted(p.spells):
        if pos.ply < a:
            items.append('s%s@%d' % (k, a))
    if p.arch:
        items.append('a' + p.arch)
    if p.f:
        items.append('f%d' % p.f)
    if p.g is not None:
        items.append('g%d' % p.g)
    if p.k:
        items.append('k')
    letter = p.t if p.color == 'w' else p.t.lower()
    return letter + ('{' + ','.join(items) + '}' if items else '')


def to_fen(pos):
    rows = []
    for r in range(N - 1, -1, -1):
        row = ''
        e = 0
        for f in range(N):
            p = pos.board[sqi(f, r)]
            if p is None:
                e += 1
            else:
                if e:
                    row += str(e)
                    e = 0
                row += piece_str(pos, sqi(f, r), p)
        if e:
            row += str(e)
        rows.append(row)
    cf = ''.join(c for c in 'KQkq' if c in pos.castling) or '-'
    epf = '-'
    if pos.ep:
        if any(m['kind'] == 'ep' for (m, _) in legal_moves(pos)):
            epf = ''.join(sname(x) for x in pos.ep)
    return '%s %s %s %s %d %d' % ('/'.join(rows), pos.stm, cf, epf, pos.half, pos.full)


def position_problems(pos):
    """Legality of a position as the brief defines it."""
    probs = []
    for c in 'wb':
        n = sum(1 for p in pos.board if p is not None and p.t == 'K' and p.color == c and not p.k)
        n += sum(1 for p in pos.board if p is not None and p.k and p.color != c)
        if n != 1:
            probs.append('%s has %d kings' % (c, n))
    if not probs:
        nm = other(pos.stm)
        ks, shared = king_square(pos, nm)
        kp = pos.board[ks]
        if not shared and not protected_ka(kp) and king_attacked(pos, nm):
            probs.append('side not to move is attacked')
    return probs


# ------------------------------------------------------------------ perft and tools
def perft(pos, depth):
    if depth == 0:
        return 1
    lm = legal_moves(pos)
    if depth == 1:
        return len(lm)
    return sum(perft(n, depth - 1) for (_, n) in lm)


def divide(pos, depth):
    total = 0
    for m, n in sorted(legal_moves(pos), key=lambda x: move_text(x[0])):
        c = perft(n, depth - 1)
        total += c
        print('%s: %d' % (move_text(m), c))
    print('Nodes searched: %d' % total)
    return total


def check_file(path, depth_limit=9):
    bad = 0
    cur = None
    for line in open(path):
        line = line.strip()
        if line.startswith('id '):
            cur = line[3:]
        elif line.startswith('epd '):
            fen = line[4:]
            pos = parse_fen(fen)
            pr = position_problems(pos)
            if pr:
                print('%s: ILLEGAL POSITION %s' % (cur, pr))
                bad += 1
            if to_fen(pos) != fen:
                print('%s: FEN round trip differs:\n   %s\n   %s' % (cur, fen, to_fen(pos)))
        elif line.startswith('perft '):
            _, d, n = line.split()
            d, n = int(d), int(n)
            if d > depth_limit:
                continue
            got = perft(pos, d)
            st = 'ok' if got == n else 'MISMATCH'
            if got != n:
                bad += 1
            print('%-28s perft %d: file %d ref %d %s' % (cur, d, n, got, st))
    print('mismatches/problems: %d' % bad)
    return bad


def random_playouts(n, seed, plies, fen):
    rng = random.Random(seed)
    for i in range(n):
        pos = parse_fen(fen)
        seq = []
        for _ in range(plies):
            lm = legal_moves(pos)
            if not lm:
                break
            m, nxt = rng.choice(sorted(lm, key=lambda x: move_text(x[0])))
            seq.append(move_text(m))
            pos = nxt
        print('playout %d: moves %s' % (i + 1, ' '.join(seq)))
        print('fen %s' % to_fen(pos))
        print('legal %d' % len(legal_moves(pos)))


def main(argv):
    if '--random-playouts' in argv:
        n = int(argv[argv.index('--random-playouts') + 1])
        seed = int(argv[argv.index('--seed') + 1]) if '--seed' in argv else 1
        plies = int(argv[argv.index('--plies') + 1]) if '--plies' in argv else 40
        fen = argv[argv.index('--fen') + 1] if '--fen' in argv else START_FEN
        random_playouts(n, seed, plies, fen)
        return 0
    if not argv:
        print(__doc__)
        return 1
    cmd = argv[0]
    if cmd == 'perft':
        pos = parse_fen(argv[1])
        d = int(argv[2])
        if '--divide' in argv:
            divide(pos, d)
        else:
            print('Nodes searched: %d' % perft(pos, d))
    elif cmd == 'moves':
        pos = parse_fen(argv[1])
        for m, n in sorted(legal_moves(pos), key=lambda x: move_text(x[0])):
            print('%-14s %s' % (move_text(m), to_fen(n)))
    elif cmd == 'check':
        dl = int(argv[argv.index('--depth-limit') + 1]) if '--depth-limit' in argv else 9
        return 1 if check_file(argv[1], dl) else 0
    else:
        print(__doc__)
        return 1
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
