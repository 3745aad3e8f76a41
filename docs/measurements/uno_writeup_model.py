"""A re-statement, in Python, of the Uno model of the write-up's public Java code
(johnhearn/uno): its Round, Game, Pack, Pile, card classes and its three players,
with the quirks kept (seat 0 leads every deal, drawing ends the turn, WD4 only when
nothing else fits, unshuffled pile when the pack runs out at a turn's end, wild
colours kept between deals, first card inert, game to a score > 500).
A measurement aid for docs/measurements/uno.md, not part of Parlour (nothing imports it):
    python3 docs/measurements/uno_writeup_model.py FIRST SECOND GAMES SEED [OPTIONS_JSON]
FIRST sits in seat 0, which leads every deal; OPTIONS_JSON: alternate (seats swap every game),
uniform (a player name: it picks uniformly instead of its rule), one_pack (one pack, and so the wild
colours, kept across games), shuffle_recycle, keep_scores (never reset), deals (count deals), target, parlour_players (ties between equal cards
and the wild's colour as Parlour's players decide them: agents/uno/heuristics.py, agents/uno/play.py),
official_play (a drawn card is played if it can be, a two-player Reverse skips, a Wild Draw Four
whenever no card of the colour in force is held; the rest stays the code's)."""
import random, sys, json

N, S, R, D, W, W4 = range(6)
GREEN, YELLOW, RED, BLUE = range(4)
POINTS = {S: 20, R: 20, D: 20, W: 50, W4: 50}

class Card:
    __slots__ = ("kind", "colour", "number")
    def __init__(self, kind, colour=None, number=0):
        self.kind, self.colour, self.number = kind, colour, number
    def points(self):
        return self.number if self.kind == N else POINTS[self.kind]
    def playable_on(self, top):
        k = self.kind
        if k >= W: return True
        if k == N: return top.colour == self.colour or (top.kind == N and top.number == self.number)
        return top.kind == k or top.colour == self.colour
    def next_step(self, step):
        if self.kind in (S, D, W4): return step * 2
        if self.kind == R: return -step
        return step

def new_pack():
    cards = []
    for c in range(4):
        cards += [Card(N, c, i) for i in range(10)]
    for c in range(4):
        cards += [Card(N, c, i) for i in range(1, 10)]
    cards += [Card(W) for _ in range(4)] + [Card(W4) for _ in range(4)]
    for k in (R, S, D):
        for c in range(4):
            cards += [Card(k, c), Card(k, c)]
    return cards

def first(cards): return cards[0]
def defensive(cards):
    best = None
    for c in cards:
        if best is None or best.points() < c.points(): best = c
    return best
def offensive(cards):
    best = None
    for c in cards:
        if best is None or best.points() > c.points(): best = c
    return best
STRATEGIES = {"random": first, "defensive": defensive, "offensive": offensive}

PARLOUR_COLOURS = (RED, YELLOW, GREEN, BLUE)  # Parlour's card order: red, yellow, green, blue

def code(c):
    """Parlour's card code order (its players' tie-break)."""
    if c.kind >= W: return (4, c.kind, 0)
    return (PARLOUR_COLOURS.index(c.colour), 0 if c.kind == N else 1, c.number if c.kind == N else (S, R, D).index(c.kind))

class Player:
    def __init__(self, name, rng, uniform=False, parlour=False):
        self.name, self.choose, self.hand, self.score = name, STRATEGIES[name], [], 0
        self.parlour = parlour  # Parlour's tie-break and colour choice instead of the Java code's
        if uniform: self.choose = lambda cards: cards[rng.randrange(len(cards))]
        elif parlour and name != "random":
            rule = STRATEGIES[name]
            self.choose = lambda cards: rule(sorted(cards, key=code))
    def colour(self, playing=None):
        if self.parlour:  # the colour held most once the wild has left, ties by points, then red, yellow, green, blue
            n, pts = [0, 0, 0, 0], [0, 0, 0, 0]
            for c in self.hand:
                if c is not playing and c.kind < W: n[c.colour] += 1; pts[c.colour] += c.points()
            return max(PARLOUR_COLOURS, key=lambda k: (n[k], pts[k], -PARLOUR_COLOURS.index(k)))
        n = [0, 0, 0, 0]
        for c in self.hand:
            if c.colour is not None: n[c.colour] += 1
        r, g, b, y = n[RED], n[GREEN], n[BLUE], n[YELLOW]
        if r >= g and r >= b and r >= y: return RED
        if g >= r and g >= b and g >= y: return GREEN
        if b >= r and b >= g and b >= y: return BLUE
        return YELLOW
    def play(self, top, official=False, only=None):
        if official:  # a Wild Draw Four whenever no card of the colour in force is held
            w4 = not any(c.kind < W and c.colour == top.colour for c in self.hand)
            cards = [c for c in self.hand if (c.playable_on(top) if c.kind != W4 else w4)]
        else:
            cards = [c for c in self.hand if c.playable_on(top) and c.kind != W4]
            if not cards: cards = [c for c in self.hand if c.kind == W4]
        if only is not None: cards = [c for c in cards if c is only]  # after drawing: that card or nothing
        if not cards: return None
        card = self.choose(cards)
        if card.kind >= W: card.colour = self.colour(card)
        self.hand.remove(card)  # identity here; the Java equals() removes the first equal card, the same one for these players
        return card

class NoMoreCards(Exception): pass

def play_round(pack, pile, players, rng, opts):
    n = len(players)
    rng.shuffle(pack)
    for _ in range(7):
        for p in players: p.hand.append(pack.pop(0))
    pile.append(pack.pop(0))
    pos = opts.get("lead", 0); step = 1
    def draw():
        if not pack:
            pack.extend(pile); pile.clear(); rng.shuffle(pack); pile.append(pack.pop(0))
            if not pack: raise NoMoreCards
        return pack.pop(0)
    turns = 0
    try:
        while True:
            p = players[pos]
            official = opts.get("official_play")
            card = p.play(pile[-1], official)
            if card is None:
                drawn = draw()
                p.hand.append(drawn)
                if official:  # the drawn card is played if it can be
                    card = p.play(pile[-1], official, only=drawn)
            if card is not None:
                pile.append(card)
                if card.kind in (D, W4):
                    victim = players[(pos + step) % n]
                    for _ in range(2 if card.kind == D else 4): victim.hand.append(draw())
                step = card.next_step(step) if not (official and n == 2 and card.kind == R) else step * 2
            pos = (pos + step) % n
            step = 1 if step > 0 else -1
            turns += 1
            if not p.hand:
                winner = p; break
            if not pack:
                if opts.get("shuffle_recycle"):
                    pack.extend(pile); pile.clear(); rng.shuffle(pack); pile.append(pack.pop(0))
                else:
                    pack.extend(pile); pile.clear(); pile.append(pack.pop(0))
        for q in players: winner.score += sum(c.points() for c in q.hand)
    except NoMoreCards:
        winner = None
    for q in players: pack.extend(q.hand); q.hand.clear()
    pack.extend(pile); pile.clear()
    return winner, turns

def play_game(players, rng, opts, pack=None):
    pack = new_pack() if pack is None else pack
    pile = []
    deals = 0
    while True:
        winner, _ = play_round(pack, pile, players, rng, opts)
        deals += 1
        if opts.get("deals"): return winner, deals
        if winner is not None and winner.score > opts.get("target", 500):
            return winner, deals

def main():
    a, b, games, seed = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    opts = json.loads(sys.argv[5]) if len(sys.argv) > 5 else {}
    rng = random.Random(seed)
    parlour = bool(opts.get("parlour_players"))
    players = [Player(a, rng, opts.get("uniform") == a, parlour), Player(b, rng, opts.get("uniform") == b, parlour)]
    wins = [0, 0]; seatwins = [[0, 0], [0, 0]]; deals = 0
    pack = new_pack() if opts.get("one_pack") else None
    for g in range(games):
        order = players if not opts.get("alternate") or g % 2 == 0 else players[::-1]
        if not opts.get("keep_scores"):
            for p in players: p.score = 0
        winner, d = play_game(order, rng, opts, pack)
        deals += d
        if winner is None: continue
        i = players.index(winner); wins[i] += 1
        seatwins[i][order.index(winner)] += 1
    n = sum(wins)
    share = wins[0] / n
    se = (share * (1 - share) / n) ** 0.5
    print(json.dumps({"first": a, "second": b, "games": games, "seed": seed, "opts": opts,
                      "share_first": round(100 * share, 1), "se": round(100 * se, 1),
                      "deals_per_game": round(deals / games, 2), "first_wins_by_seat": seatwins[0]}))

if __name__ == "__main__":
    main()
