# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The native Dominion core: a whole game between strategy bots in C structures.

What it runs is data, never a card name: a :class:`Cards` table (per card: cost,
types, Treasure coins, victory points, and the card's declared steps as native step
codes: ``+Cards/+Actions/+Buys/+$``, each other player gains a card, each other
player draws), a :class:`Setup` (the supply piles of one kingdom) and one
:class:`Plan` per seat (a strategy's buy rules, play priorities and yes/no answer,
their conditions as small expression trees).  :mod:`kingdoms.bots.dominion.native`
builds them from the card declarations and the strategy files and checks that a game
needs nothing else; the engine (:mod:`kingdoms.dominion.turn`, ``effects``) stays
the reference, and the games are the same: the generator is Python's MT19937 (seeded
as ``random.Random(seed)`` seeds, or read from a state's ``getstate()`` and written
back), shuffles draw as :func:`kingdoms.dominion.shuffle.shuffle`, and every zone
keeps the engine's order.
"""

from libc.string cimport memcpy, memmove, memset
from libc.math cimport floor, INFINITY

cdef enum:
    MAXP = 6
cdef enum:
    MAXC = 96
cdef enum:
    MAXZ = 640
cdef enum:
    MAXSTEPS = 8
cdef enum:
    MAXN = 2048
cdef enum:
    MT_N = 624
cdef enum:
    MT_M = 397

# step codes (cards' declared steps)
cdef enum:
    S_PLUS = 1
cdef enum:
    S_OTHERS_GAIN = 2
cdef enum:
    S_OTHERS_DRAW = 3
cdef enum:
    S_OTHERS_DISCARD_DOWN = 4
cdef enum:
    S_GAIN = 5
cdef enum:
    S_DISCARD_DECK = 6
cdef enum:
    S_DISCARD_DRAW = 7
cdef enum:
    S_GAIN_CARD = 8
cdef enum:
    S_OTHERS_TOPDECK = 9
cdef enum:
    S_DRAW_TO = 10
cdef enum:
    S_TRASH_ONE = 11
cdef enum:
    S_TRASH_THIS = 12
cdef enum:
    S_TRASH_FOR = 13
cdef enum:
    S_TRASH_UP_TO = 14
cdef enum:
    S_TOPDECK_HAND = 15
cdef enum:
    S_TOPDECK_DISCARD = 16
cdef enum:
    S_OTHERS_TRASH_REVEALED = 17
cdef enum:
    S_REVEAL_TOP_EACH = 18
cdef enum:
    S_TRASH_OF_TYPE = 19
cdef enum:
    S_LOOK_SORT = 20
cdef enum:
    S_DISCARD_PER_EMPTY = 21
cdef enum:
    S_PLAY_TWICE = 22
cdef enum:
    S_CLEANUP_TOPDECK = 23
cdef enum:
    THEN_GAIN = 1
cdef enum:
    THEN_DRAW = 2
cdef enum:
    MAXR = 256

# expression node codes
cdef enum:
    E_CONST = 1
cdef enum:
    E_VAR = 2
cdef enum:
    E_COUNT = 3
cdef enum:
    E_COUNT_T = 4
cdef enum:
    E_COUNT_THIS = 5
cdef enum:
    E_LEFT = 6
cdef enum:
    E_LEFT_THIS = 7
cdef enum:
    E_COST_THIS = 8
cdef enum:
    E_IS = 9
cdef enum:
    E_IS_T = 10
cdef enum:
    E_NOT = 11
cdef enum:
    E_NEG = 12
cdef enum:
    E_AND = 13
cdef enum:
    E_OR = 14
cdef enum:
    E_BIN = 15
cdef enum:
    E_CMP = 16
cdef enum:
    E_MIN = 17
cdef enum:
    E_MAX = 18

# variables (E_VAR)
cdef enum:
    V_MONEY = 1
cdef enum:
    V_EMPTY = 2
cdef enum:
    V_TURN = 3
cdef enum:
    V_MY_TURNS = 4
cdef enum:
    V_COINS = 5
cdef enum:
    V_POTIONS = 6
cdef enum:
    V_BUYS = 7
cdef enum:
    V_ACTIONS = 8
cdef enum:
    V_VP = 9
cdef enum:
    V_OPP_VP = 10
cdef enum:
    V_VP_LEAD = 11
cdef enum:
    V_VP_DEFICIT = 12
cdef enum:
    V_DECK = 13
cdef enum:
    V_PLAYERS = 14
cdef enum:
    V_ABOUT_ME = 15

# binary operators and comparisons
cdef enum:
    B_ADD = 1
cdef enum:
    B_SUB = 2
cdef enum:
    B_MUL = 3
cdef enum:
    B_DIV = 4
cdef enum:
    B_FLOORDIV = 5
cdef enum:
    B_MOD = 6
cdef enum:
    C_LT = 1
cdef enum:
    C_LE = 2
cdef enum:
    C_GT = 3
cdef enum:
    C_GE = 4
cdef enum:
    C_EQ = 5
cdef enum:
    C_NE = 6

# rule targets and picks (as kingdoms.bots.dominion.strategy)
cdef enum:
    T_CARD = 0
cdef enum:
    T_TYPE = 1
cdef enum:
    T_ANY = 2
cdef enum:
    T_YES = 3
cdef enum:
    T_NO = 4
cdef enum:
    T_DONE = 5
cdef enum:
    TO_DISCARD = 0
cdef enum:
    TO_HAND = 1
cdef enum:
    TO_DECK = 2
# a seat's rule chains for a card's questions (Plan.chains)
cdef enum:
    CH_DISCARD = 0
cdef enum:
    CH_GAIN = 1
cdef enum:
    CH_ASK = 2
cdef enum:
    CH_TOPDECK = 3
cdef enum:
    CH_TRASH = 4
cdef enum:
    CH_ORDER = 5
cdef enum:
    CH_PLAY = 6
cdef enum:
    NCHAINS = 7
cdef enum:
    P_FIRST = 0
cdef enum:
    P_CHEAPEST = 1
cdef enum:
    P_COSTLIEST = 2

cdef enum:
    ACTION_PHASE = 0
cdef enum:
    BUY_PHASE = 1
cdef enum:
    OVER = 2


# -- the random generator: CPython's MT19937 ------------------------------------------
cdef struct MT:
    unsigned int mt[MT_N]
    int index


cdef inline void mt_init_genrand(MT* r, unsigned int s) noexcept:
    cdef int i
    r.mt[0] = s
    for i in range(1, MT_N):
        r.mt[i] = <unsigned int>(1812433253U * (r.mt[i - 1] ^ (r.mt[i - 1] >> 30)) + <unsigned int>i)
    r.index = MT_N


cdef void mt_init_by_array(MT* r, unsigned int* key, int length) noexcept:
    cdef int i = 1, j = 0, k
    mt_init_genrand(r, 19650218U)
    k = MT_N if MT_N > length else length
    while k > 0:
        r.mt[i] = <unsigned int>((r.mt[i] ^ ((r.mt[i - 1] ^ (r.mt[i - 1] >> 30)) * 1664525U)) + key[j] + <unsigned int>j)
        i += 1
        j += 1
        if i >= MT_N:
            r.mt[0] = r.mt[MT_N - 1]
            i = 1
        if j >= length:
            j = 0
        k -= 1
    k = MT_N - 1
    while k > 0:
        r.mt[i] = <unsigned int>((r.mt[i] ^ ((r.mt[i - 1] ^ (r.mt[i - 1] >> 30)) * 1566083941U)) - <unsigned int>i)
        i += 1
        if i >= MT_N:
            r.mt[0] = r.mt[MT_N - 1]
            i = 1
        k -= 1
    r.mt[0] = 0x80000000U
    r.index = MT_N


cdef inline unsigned int mt_next(MT* r) noexcept:
    cdef unsigned int y
    cdef int kk
    if r.index >= MT_N:
        for kk in range(MT_N - MT_M):
            y = (r.mt[kk] & 0x80000000U) | (r.mt[kk + 1] & 0x7fffffffU)
            r.mt[kk] = r.mt[kk + MT_M] ^ (y >> 1) ^ (0x9908b0dfU if (y & 1U) else 0U)
        for kk in range(MT_N - MT_M, MT_N - 1):
            y = (r.mt[kk] & 0x80000000U) | (r.mt[kk + 1] & 0x7fffffffU)
            r.mt[kk] = r.mt[kk + (MT_M - MT_N)] ^ (y >> 1) ^ (0x9908b0dfU if (y & 1U) else 0U)
        y = (r.mt[MT_N - 1] & 0x80000000U) | (r.mt[0] & 0x7fffffffU)
        r.mt[MT_N - 1] = r.mt[MT_M - 1] ^ (y >> 1) ^ (0x9908b0dfU if (y & 1U) else 0U)
        r.index = 0
    y = r.mt[r.index]
    r.index += 1
    y ^= (y >> 11)
    y ^= (y << 7) & 0x9d2c5680U
    y ^= (y << 15) & 0xefc60000U
    y ^= (y >> 18)
    return y


cdef inline int bit_length(int n) noexcept:
    cdef int k = 0
    while n:
        k += 1
        n >>= 1
    return k


cdef inline int randbelow(MT* r, int n) noexcept:
    """``random.Random._randbelow(n)`` (n >= 1): getrandbits(k) with rejection."""
    cdef int k = bit_length(n)
    cdef unsigned int v = mt_next(r) >> (32 - k)
    while v >= <unsigned int>n:
        v = mt_next(r) >> (32 - k)
    return <int>v


cdef void shuffle_cards(MT* r, short* cards, int length) noexcept:
    """:func:`kingdoms.dominion.shuffle.shuffle`: the same Fisher-Yates walk."""
    cdef int i = length - 1, n, k, low, v
    cdef short t
    if i <= 0:
        return
    k = bit_length(length)
    low = 1 << (k - 1)
    while i > 0:
        n = i + 1
        if n < low:
            k -= 1
            low >>= 1
        v = <int>(mt_next(r) >> (32 - k))
        while v >= n:
            v = <int>(mt_next(r) >> (32 - k))
        t = cards[i]
        cards[i] = cards[v]
        cards[v] = t
        i -= 1


def seeded_state(seed):
    """``random.Random(seed).getstate()`` for an int ``seed``, computed natively (a
    check of the native generator)."""
    cdef MT r
    _seed(&r, seed)
    return (3, tuple([r.mt[i] for i in range(MT_N)]) + (r.index,), None)


def shuffled(cards, state):
    """``(cards shuffled, generator state after)`` as :func:`random.shuffle` from the
    generator state ``state`` (``getstate()``) gives: a check of the native shuffle."""
    cdef MT r
    cdef short buf[MAXZ]
    cdef int n = len(cards), i
    if n > MAXZ:
        raise ValueError("too many cards")
    _load_mt(&r, state)
    for i in range(n):
        buf[i] = cards[i]
    shuffle_cards(&r, buf, n)
    return [buf[i] for i in range(n)], _dump_mt(&r, state)


cdef void _seed(MT* r, object seed) except *:
    cdef unsigned int key[64]
    cdef int length = 0
    n = abs(int(seed))
    if n == 0:
        key[0] = 0
        length = 1
    while n:
        if length >= 64:
            raise ValueError("seed too large for the native generator")
        key[length] = <unsigned int>(n & 0xffffffff)
        n >>= 32
        length += 1
    mt_init_by_array(r, key, length)


cdef void _load_mt(MT* r, object state) except *:
    words = state[1]
    cdef int i
    for i in range(MT_N):
        r.mt[i] = <unsigned int>words[i]
    r.index = <int>words[MT_N]


cdef object _dump_mt(MT* r, object state):
    return (state[0], tuple([r.mt[i] for i in range(MT_N)]) + (r.index,), state[2])


# -- the tables ------------------------------------------------------------------------
cdef class Cards:
    """Per card: the facts and declared steps the native loop reads."""

    cdef int ncards
    cdef int cost[MAXC]
    cdef int potion_cost[MAXC]
    cdef int dear[MAXC]
    cdef int coins[MAXC]
    cdef int vp[MAXC]
    cdef int money[MAXC]
    cdef int types[MAXC]
    cdef char is_action[MAXC]
    cdef char is_treasure[MAXC]
    cdef char is_attack[MAXC]
    cdef char cleans_up[MAXC]  # a Clean-up ability: a Treasure from play onto the deck
    cdef int cleanup_card      # the first such card (its order chain: ``cleanup.order``)
    cdef int nsteps[MAXC]
    cdef int step_kind[MAXC][MAXSTEPS]
    cdef int step_arg[MAXC][MAXSTEPS][4]
    cdef int reaction
    cdef int province
    cdef int silver
    cdef int nkinds
    cdef int k_play, k_buy, k_choose, a_yes, a_no, a_all, a_end, k_gain, a_done
    cdef int potion

    def __init__(self, int ncards, cards, steps, int reaction, int province, int silver,
                 int n_kinds, actions, int potion=-1):
        """``cards``: per card ``(cost, potion_cost, coins, vp, money, type_mask,
        is_action, is_treasure, is_attack)``; ``steps``: per card a list of
        ``(step code, a, b, c, d)``; ``actions``: the action codes
        ``(PLAY kind, BUY kind, CHOOSE kind, YES, NO, ALL_TREASURES, END_PHASE, GAIN
        kind, DONE)``; ``potion``: the Treasure whose play makes a potion (the engine's
        ``treasure_value``), -1: none."""
        cdef int c, i, j
        if ncards > MAXC:
            raise ValueError("too many cards for the native core")
        self.ncards = ncards
        self.cleanup_card = -1
        for c in range(ncards):
            row = cards[c]
            self.cost[c], self.potion_cost[c] = row[0], row[1]
            self.dear[c] = row[0] * 16 + row[1]
            self.coins[c], self.vp[c], self.money[c], self.types[c] = row[2], row[3], row[4], row[5]
            self.is_action[c], self.is_treasure[c], self.is_attack[c] = row[6], row[7], row[8]
            todo = steps[c]
            if len(todo) > MAXSTEPS:
                raise ValueError("too many steps")
            self.nsteps[c] = len(todo)
            self.cleans_up[c] = 0
            for i in range(len(todo)):
                self.step_kind[c][i] = todo[i][0]
                if todo[i][0] == S_CLEANUP_TOPDECK:
                    self.cleans_up[c] = 1
                    if self.cleanup_card < 0:
                        self.cleanup_card = c
                for j in range(4):
                    self.step_arg[c][i][j] = todo[i][1 + j]
        self.reaction = reaction
        self.potion = potion
        self.province = province
        self.silver = silver
        self.nkinds = n_kinds
        (self.k_play, self.k_buy, self.k_choose, self.a_yes, self.a_no, self.a_all,
         self.a_end, self.k_gain, self.a_done) = actions


cdef class Setup:
    """The supply of one kingdom and player count, and the base set's edition."""

    cdef int nsupply
    cdef int supply[MAXC]
    cdef int npiles
    cdef int piles[MAXC]
    cdef char is_pile[MAXC]
    cdef int total
    cdef int edition

    def __init__(self, piles, supply, int edition=1):
        cdef int i
        if len(supply) > MAXC:
            raise ValueError("too many cards for the native core")
        self.nsupply = len(supply)
        memset(self.is_pile, 0, MAXC)
        memset(self.supply, 0, sizeof(self.supply))
        self.total = 0
        for i in range(len(supply)):
            self.supply[i] = supply[i]
            self.total += supply[i]
        self.edition = edition
        self.npiles = len(piles)
        for i in range(len(piles)):
            self.piles[i] = piles[i]
            self.is_pile[piles[i]] = 1


cdef struct Node:
    int op
    int a
    int b
    int nxt
    int ival
    int cmp
    double dval


cdef class Plan:
    """One seat's strategy as data: buy rules (card, condition), the play
    priorities (leading plain cards, then rules), the yes/no answer to a reaction."""

    cdef int nnodes
    cdef Node nodes[MAXN]
    cdef int nbuy
    cdef int buy_card[64]
    cdef int buy_cond[64]
    cdef int guard
    cdef int nprefix
    cdef int prefix[MAXC]
    cdef int nrules
    cdef int rule_target[MAXR]
    cdef int rule_key[MAXR]
    cdef int rule_pick[MAXR]
    cdef int rule_cond[MAXR]
    cdef int rest_start, rest_end
    cdef int chains[NCHAINS][MAXC][2]  # per chain (CH_*) and card: its rules' start, end
    cdef int react_yes

    def __init__(self, nodes, buys, int guard, prefix, rest, int react_yes, discards=(),
                 gains=(), asks=(), topdecks=(), trashes=(), orders=(), plays=()):
        """``nodes``: ``(op, a, b, next, ival, dval, comparison)`` rows (index 0 unused: "no
        condition"); ``buys``: ``(card, cond node)``; ``rest`` (the play rules):
        ``(target, key, pick, cond node)``; ``discards``: ``(card, rules)``, the rules
        of the discards the card's Attack asks, as ``rest``; ``gains``: ``(card, rules)``,
        the rules of the gain the card's step asks (a ``done`` rule: target 5); ``asks``:
        ``(card, rules)``, the ``yes``/``no`` rules (targets 3, 4) of the card's question;
        ``topdecks``: ``(card, rules)``, the rules of the card the card's Attack makes the
        seat put onto its deck; ``trashes``: ``(card, rules)``, the rules of the card
        the card's step makes the seat trash from its hand; ``orders``: ``(card, rules)``,
        the rules of the card the card's step makes the seat put on top of its deck;
        ``plays``: ``(card, rules)``, the rules of the Action card the card's step makes
        the seat play twice."""
        cdef int i, c, chain
        if len(nodes) > MAXN or len(buys) > 64 or len(prefix) > MAXC:
            raise ValueError("strategy too large for the native core")
        self.nnodes = len(nodes)
        for i in range(len(nodes)):
            row = nodes[i]
            self.nodes[i].op, self.nodes[i].a, self.nodes[i].b = row[0], row[1], row[2]
            self.nodes[i].nxt, self.nodes[i].ival, self.nodes[i].dval = row[3], row[4], row[5]
            self.nodes[i].cmp = row[6]
        self.nbuy = len(buys)
        for i in range(len(buys)):
            self.buy_card[i], self.buy_cond[i] = buys[i]
        self.guard = guard
        self.nprefix = len(prefix)
        for i in range(len(prefix)):
            self.prefix[i] = prefix[i]
        self.nrules = 0
        self.rest_start, self.rest_end = self._rules(rest)
        memset(self.chains, 0, sizeof(self.chains))
        # in the order of the CH_* codes
        for chain, given in enumerate((discards, gains, asks, topdecks, trashes, orders, plays)):
            for c, rules in given:
                self.chains[chain][c][0], self.chains[chain][c][1] = self._rules(rules)
        self.react_yes = react_yes

    cdef tuple _rules(self, rules):
        cdef int start = self.nrules, i
        if start + len(rules) > MAXR:
            raise ValueError("strategy too large for the native core")
        for i in range(len(rules)):
            (self.rule_target[start + i], self.rule_key[start + i], self.rule_pick[start + i],
             self.rule_cond[start + i]) = rules[i]
        self.nrules = start + len(rules)
        return start, self.nrules


# -- the game --------------------------------------------------------------------------
cdef struct Seat:
    short* hand
    short* deck
    short* disc
    short* play
    int nhand, ndeck, ndisc, nplay
    short buf[4][MAXZ]
    int owned[MAXC]


cdef struct Game:
    MT rng
    int n
    Seat seats[MAXP]
    int supply[MAXC]
    int turn, phase, actions, buys, coins, potions
    int bought, silver_played, normal_player, next_play_id
    int herbalists     # plays this turn of cards with a Clean-up ability (the engine's count)
    int turns[MAXP]
    int immune[MAXP]
    int ended          # 0 running, 1 provinces, 2 piles
    int about          # the seat a yes/no question is about (-1: none, the decider)
    int steps
    short trash[MAXZ]  # the trash: the state's (its first ``ntrash0``), then this run's
    int ntrash, ntrash0
    int trash_cut      # a card left the trash (the state's trash is written back whole)


cdef Game G  # one game at a time (the GIL is held throughout)


cdef class Run:
    """What one native game reads: the card table, the kingdom, the seats' plans."""

    cdef Cards cards
    cdef Setup setup
    cdef list plans
    cdef object history

    def __init__(self, Cards cards, Setup setup, plans):
        self.cards = cards
        self.setup = setup
        self.plans = list(plans)
        self.history = None


cdef inline void seat_reset(Seat* s) noexcept:
    s.hand = s.buf[0]
    s.deck = s.buf[1]
    s.disc = s.buf[2]
    s.play = s.buf[3]
    s.nhand = s.ndeck = s.ndisc = s.nplay = 0


cdef inline int do_shuffle(Game* g, Seat* s) noexcept:
    """Effects.shuffle: the discard pile, shuffled, becomes the (empty) deck."""
    cdef short* t
    if s.ndisc == 0:
        return 0
    shuffle_cards(&g.rng, s.disc, s.ndisc)
    t = s.deck
    s.deck = s.disc
    s.disc = t
    s.ndeck = s.ndisc
    s.ndisc = 0
    return 1


cdef inline void draw(Game* g, Seat* s, int n) noexcept:
    """Effects.draw: take_top_n (top card first) onto the end of the hand."""
    cdef int k = s.ndeck, i, j, rest
    if k >= n:
        for i in range(n):
            s.hand[s.nhand + i] = s.deck[k - 1 - i]
        s.nhand += n
        s.ndeck = k - n
        return
    for i in range(k):
        s.hand[s.nhand + i] = s.deck[k - 1 - i]
    s.nhand += k
    s.ndeck = 0
    if do_shuffle(g, s):
        rest = n - k
        j = s.ndeck - rest
        if j < 0:
            j = 0
        for i in range(s.ndeck - 1, j - 1, -1):
            s.hand[s.nhand] = s.deck[i]
            s.nhand += 1
        s.ndeck = j


cdef inline int take_top(Game* g, Seat* s) noexcept:
    """Effects.take_top: the top card of the deck (shuffling if needed), -1: none."""
    if s.ndeck == 0 and not do_shuffle(g, s):
        return -1
    s.ndeck -= 1
    return s.deck[s.ndeck]


cdef inline int take_top_n(Game* g, Seat* s, int n, short* out) noexcept:
    """Effects.take_top_n: up to ``n`` cards from the top of the deck into ``out``,
    top card first (shuffling as taking them one by one would); how many."""
    cdef int k = s.ndeck, i, j, got = 0
    if k >= n:
        for i in range(n):
            out[i] = s.deck[k - 1 - i]
        s.ndeck = k - n
        return n
    for i in range(k):
        out[i] = s.deck[k - 1 - i]
    got = k
    s.ndeck = 0
    if do_shuffle(g, s):
        j = s.ndeck - (n - k)
        if j < 0:
            j = 0
        for i in range(s.ndeck - 1, j - 1, -1):
            out[got] = s.deck[i]
            got += 1
        s.ndeck = j
    return got


cdef inline int gain(Game* g, Setup st, int p, int c) noexcept:
    return gain_to(g, st, p, c, TO_DISCARD)


cdef inline int gain_to(Game* g, Setup st, int p, int c, int dest) noexcept:
    """Effects.gain: into the discard pile, the hand or onto the deck."""
    cdef Seat* s = &g.seats[p]
    if g.supply[c] <= 0 or not st.is_pile[c]:
        return 0
    g.supply[c] -= 1
    s.owned[c] += 1
    if dest == TO_HAND:
        s.hand[s.nhand] = c
        s.nhand += 1
    elif dest == TO_DECK:
        s.deck[s.ndeck] = c
        s.ndeck += 1
    else:
        s.disc[s.ndisc] = c
        s.ndisc += 1
    return 1


cdef inline void remove_first(short* zone, int* n, int c) noexcept:
    cdef int i
    for i in range(n[0]):
        if zone[i] == c:
            memmove(&zone[i], &zone[i + 1], (n[0] - i - 1) * sizeof(short))
            n[0] -= 1
            return


cdef inline int in_zone(short* zone, int n, int c) noexcept:
    cdef int i
    for i in range(n):
        if zone[i] == c:
            return 1
    return 0


# -- the bots' conditions ----------------------------------------------------------------
cdef int seat_vp(Game* g, Cards cards, Setup st, int q, int extra) noexcept:
    """Victory points of seat ``q`` (plus one more ``extra`` card, -1: none)."""
    cdef int total = 0, c
    cdef int* owned = g.seats[q].owned
    for c in range(st.nsupply):
        if owned[c]:
            total += cards.vp[c] * owned[c]
    if extra >= 0:
        total += cards.vp[extra]
    return total


cdef double opp_vp(Game* g, Cards cards, Setup st, int me) noexcept:
    cdef int q, v, best = 0, found = 0
    for q in range(g.n):
        if q != me:
            v = seat_vp(g, cards, st, q, -1)
            if not found or v > best:
                best = v
            found = 1
    return best if found else 0


cdef int empty_piles(Game* g, Setup st) noexcept:
    cdef int i, out = 0
    for i in range(st.npiles):
        if g.supply[st.piles[i]] == 0:
            out += 1
    return out


cdef double var(Game* g, Cards cards, Setup st, int me, int v) noexcept:
    cdef int c, total
    cdef int* owned = g.seats[me].owned
    if v == V_MONEY:
        total = 0
        for c in range(st.nsupply):
            if owned[c]:
                total += cards.money[c] * owned[c]
        return total
    if v == V_EMPTY:
        return empty_piles(g, st)
    if v == V_TURN:
        return g.turns[me] + 1
    if v == V_MY_TURNS:
        return g.turns[me]
    if v == V_COINS:
        return g.coins
    if v == V_POTIONS:
        return g.potions
    if v == V_BUYS:
        return g.buys
    if v == V_ACTIONS:
        return g.actions
    if v == V_VP:
        return seat_vp(g, cards, st, me, -1)
    if v == V_OPP_VP:
        return opp_vp(g, cards, st, me)
    if v == V_VP_LEAD:
        return seat_vp(g, cards, st, me, -1) - opp_vp(g, cards, st, me)
    if v == V_VP_DEFICIT:
        return opp_vp(g, cards, st, me) - seat_vp(g, cards, st, me, -1)
    if v == V_DECK:
        total = 0
        for c in range(st.nsupply):
            total += owned[c]
        return total
    if v == V_PLAYERS:
        return g.n
    if v == V_ABOUT_ME:
        return 1.0 if g.about < 0 or g.about == me else 0.0
    return 0


cdef double ev(Game* g, Cards cards, Setup st, Plan plan, int i, int me, int card) noexcept:
    """The value of node ``i`` (a truth is 1 or 0) for seat ``me``, ``card`` the card
    the rule is tried on."""
    cdef Node* nd = &plan.nodes[i]
    cdef int op = nd.op, j, c, total
    cdef double a, b, r
    if op == E_CONST:
        return nd.dval
    if op == E_VAR:
        return var(g, cards, st, me, nd.ival)
    if op == E_COUNT:
        return g.seats[me].owned[nd.ival]
    if op == E_COUNT_THIS:
        return g.seats[me].owned[card] if card >= 0 else 0
    if op == E_COUNT_T:
        total = 0
        for c in range(st.nsupply):
            if g.seats[me].owned[c] and (cards.types[c] & nd.ival):
                total += g.seats[me].owned[c]
        return total
    if op == E_LEFT:
        return g.supply[nd.ival]
    if op == E_LEFT_THIS:
        return g.supply[card] if card >= 0 else 0
    if op == E_COST_THIS:
        return cards.cost[card] + cards.potion_cost[card] if card >= 0 else 0
    if op == E_IS:
        return 1.0 if card == nd.ival else 0.0
    if op == E_IS_T:
        return 1.0 if card >= 0 and (cards.types[card] & nd.ival) else 0.0
    if op == E_NOT:
        return 0.0 if ev(g, cards, st, plan, nd.a, me, card) != 0 else 1.0
    if op == E_NEG:
        return -ev(g, cards, st, plan, nd.a, me, card)
    if op == E_AND:
        j = nd.a
        while j:
            if ev(g, cards, st, plan, j, me, card) == 0:
                return 0.0
            j = plan.nodes[j].nxt
        return 1.0
    if op == E_OR:
        j = nd.a
        while j:
            if ev(g, cards, st, plan, j, me, card) != 0:
                return 1.0
            j = plan.nodes[j].nxt
        return 0.0
    if op == E_MIN or op == E_MAX:
        j = nd.a
        r = ev(g, cards, st, plan, j, me, card)
        j = plan.nodes[j].nxt
        while j:
            a = ev(g, cards, st, plan, j, me, card)
            if (a < r) if op == E_MIN else (a > r):
                r = a
            j = plan.nodes[j].nxt
        return r
    if op == E_BIN:
        a = ev(g, cards, st, plan, nd.a, me, card)
        b = ev(g, cards, st, plan, nd.b, me, card)
        if nd.ival == B_ADD:
            return a + b
        if nd.ival == B_SUB:
            return a - b
        if nd.ival == B_MUL:
            return a * b
        if nd.ival == B_DIV:
            if b != 0:
                return a / b
            return INFINITY if a > 0 else 0.0
        if b == 0:
            return 0.0
        r = floor(a / b)
        if nd.ival == B_FLOORDIV:
            return r
        return a - b * r
    if op == E_CMP:
        # a: the first operand; each next operand's ival is its comparison
        j = nd.a
        a = ev(g, cards, st, plan, j, me, card)
        j = plan.nodes[j].nxt
        while j:
            b = ev(g, cards, st, plan, j, me, card)
            c = plan.nodes[j].cmp
            if c == C_LT:
                if not a < b:
                    return 0.0
            elif c == C_LE:
                if not a <= b:
                    return 0.0
            elif c == C_GT:
                if not a > b:
                    return 0.0
            elif c == C_GE:
                if not a >= b:
                    return 0.0
            elif c == C_EQ:
                if not a == b:
                    return 0.0
            elif not a != b:
                return 0.0
            a = b
            j = plan.nodes[j].nxt
        return 1.0
    return 0.0


cdef inline int holds(Game* g, Cards cards, Setup st, Plan plan, int cond, int me, int card) noexcept:
    if cond == 0:
        return 1
    return ev(g, cards, st, plan, cond, me, card) != 0


cdef int loses_by_ending(Game* g, Cards cards, Setup st, int me, int c) noexcept:
    """Situation.loses_by_ending for a pile with one card left."""
    cdef int q, mine, v
    if c != cards.province and empty_piles(g, st) + 1 < (3 if g.n <= 4 else 4):
        return 0
    if g.n < 2:
        return 0
    mine = seat_vp(g, cards, st, me, c)
    for q in range(g.n):
        if q == me:
            continue
        v = seat_vp(g, cards, st, q, -1)
        if v > mine or (v == mine and g.turns[me] + 1 > g.turns[q]):
            return 1
    return 0


cdef int choose_buy(Game* g, Cards cards, Setup st, Plan plan, int me) noexcept:
    """StrategyBot._buy: the card of the first applicable buy rule, -1: none."""
    cdef int i, c
    for i in range(plan.nbuy):
        c = plan.buy_card[i]
        if cards.cost[c] > g.coins or g.supply[c] <= 0 or not st.is_pile[c]:
            continue
        if cards.potion_cost[c] > g.potions:
            continue
        if not holds(g, cards, st, plan, plan.buy_cond[i], me, c):
            continue
        if plan.guard and g.supply[c] == 1 and loses_by_ending(g, cards, st, me, c):
            continue
        return c
    return -1


cdef int pick(Game* g, Cards cards, Setup st, Plan plan, int start, int end, int* offered,
             int n, int me, int optional=0) noexcept:
    """``pick_card``: the card the first applicable rule of ``start:end`` picks among
    ``offered`` (in the order offered), -1: none applies, -2: a ``done`` rule applies
    (``optional`` choices only; its rows carry no condition)."""
    cdef int i, j, c, t, best
    for i in range(start, end):
        t = plan.rule_target[i]
        if t > T_ANY:
            if t == T_DONE and optional:
                return -2
            continue
        best = -1
        for j in range(n):
            c = offered[j]
            if t == T_CARD and c != plan.rule_key[i]:
                continue
            if t == T_TYPE and not (cards.types[c] & plan.rule_key[i]):
                continue
            if not holds(g, cards, st, plan, plan.rule_cond[i], me, c):
                continue
            if plan.rule_pick[i] == P_FIRST:
                return c
            if best < 0:
                best = c
            elif plan.rule_pick[i] == P_CHEAPEST:
                if cards.dear[c] < cards.dear[best]:
                    best = c
            elif cards.dear[c] > cards.dear[best]:
                best = c
        if best >= 0:
            return best
    return -1


cdef int says_yes(Game* g, Cards cards, Setup st, Plan plan, int start, int end,
                  int me, int card=-1) noexcept:
    """``yes_no``: 1 (yes) or 0 (no) as the first applicable ``yes``/``no`` rule of
    ``start:end`` says (``card``: the card asked about, -1: none); none applies: yes."""
    cdef int i, t
    for i in range(start, end):
        t = plan.rule_target[i]
        if (t == T_YES or t == T_NO) and holds(g, cards, st, plan, plan.rule_cond[i], me, card):
            return 1 if t == T_YES else 0
    return 1


cdef int distinct(Cards cards, short* zone, int nzone, int actions_only, int* out,
                  int only=0) noexcept:
    """The distinct cards of ``zone`` (only Actions: ``actions_only``; only of the type
    bits ``only``, 0: any), in card order."""
    cdef char seen[MAXC]
    cdef int i, c, n = 0
    memset(seen, 0, MAXC)
    for i in range(nzone):
        c = zone[i]
        if (not actions_only or cards.is_action[c]) and (not only or cards.types[c] & only):
            seen[c] = 1
    for c in range(cards.ncards):
        if seen[c]:
            out[n] = c
            n += 1
    return n


cdef int distinct_treasures(Cards cards, short* zone, int nzone, int* out) noexcept:
    """The distinct Treasures of ``zone``, in card order."""
    cdef char seen[MAXC]
    cdef int i, c, n = 0
    memset(seen, 0, MAXC)
    for i in range(nzone):
        if cards.is_treasure[zone[i]]:
            seen[zone[i]] = 1
    for c in range(cards.ncards):
        if seen[c]:
            out[n] = c
            n += 1
    return n


cdef int choose_play(Game* g, Cards cards, Setup st, Plan plan, int me) noexcept:
    """StrategyBot's Action-phase choice: the first play priority in hand, else the
    play rules over the Actions in hand (card order), -1: end the phase."""
    cdef Seat* s = &g.seats[me]
    cdef int i, c, n
    cdef int offered[MAXC]
    for i in range(plan.nprefix):
        c = plan.prefix[i]
        if cards.is_action[c] and in_zone(s.hand, s.nhand, c):
            return c
    if plan.rest_start == plan.rest_end:
        return -1
    n = distinct(cards, s.hand, s.nhand, 1, offered)
    return pick(g, cards, st, plan, plan.rest_start, plan.rest_end, offered, n, me)


# -- the turn --------------------------------------------------------------------------
cdef inline void settle(Game* g, Cards cards) noexcept:
    cdef Seat* s
    cdef int i
    if g.phase == ACTION_PHASE:
        if g.actions > 0:
            s = &g.seats[g.turn]
            for i in range(s.nhand):
                if cards.is_action[s.hand[i]]:
                    return
        g.phase = BUY_PHASE


cdef inline void start_turn(Game* g, Cards cards, int p) noexcept:
    g.turn = p
    g.normal_player = p
    g.phase = ACTION_PHASE
    g.actions = 1
    g.buys = 1
    g.coins = 0
    g.potions = 0
    g.bought = 0
    g.silver_played = 0
    g.herbalists = 0
    settle(g, cards)


cdef void end_turn(Game* g, Cards cards, Setup st) noexcept:
    """Clean-up (finish_turn), the end of the game, the next turn."""
    cdef int p = g.turn, i
    cdef Seat* s = &g.seats[p]
    for i in range(s.nplay):
        s.disc[s.ndisc + i] = s.play[i]
    s.ndisc += s.nplay
    for i in range(s.nhand):
        s.disc[s.ndisc + i] = s.hand[i]
    s.ndisc += s.nhand
    s.nplay = 0
    s.nhand = 0
    draw(g, s, 5)
    g.turns[p] += 1
    g.actions = g.buys = g.coins = g.potions = 0
    if g.supply[cards.province] == 0:
        g.ended = 1
    elif empty_piles(g, st) >= (3 if g.n <= 4 else 4):
        g.ended = 2
    if g.ended:
        g.phase = OVER
        return
    start_turn(g, cards, (g.normal_player + 1) % g.n)


cdef inline int record(Run run, Game* g, int action) except -1:
    g.steps += 1
    if run.history is not None:
        run.history.append(action)
    return 0


cdef int choose_one(Run run, Game* g, int q, int chain, int card, int* offered, int n,
                    int optional=0, int kind=-1) except -2:
    """Seat ``q``'s choice of one of the ``n`` cards ``offered`` (in the order offered),
    recorded: the card its rules for ``card``'s ``chain`` (``CH_*``) pick; none applies:
    the first offered, or, ``optional``, none (a ``done`` rule too): ``DONE`` is
    recorded and -1 returned.  The action kind recorded is ``kind``, -1: a gain chain's
    choice is a GAIN (of a pile), the others' CHOOSE."""
    cdef Cards cards = run.cards
    cdef Plan plan = <Plan>run.plans[q]
    cdef int c = pick(g, cards, run.setup, plan, plan.chains[chain][card][0],
                      plan.chains[chain][card][1], offered, n, q, optional)
    if c < 0:
        if optional:
            record(run, g, cards.a_done)
            return -1
        c = offered[0]
    if kind < 0:
        kind = cards.k_gain if chain == CH_GAIN else cards.k_choose
    record(run, g, kind * cards.ncards + c)
    return c


cdef int answer(Run run, Game* g, int q, int card, int about=-1) except -1:
    """Seat ``q``'s yes (1) or no (0) to ``card``'s question (about the card ``about``,
    -1: none), as its yes/no rules for it say, recorded."""
    cdef Plan plan = <Plan>run.plans[q]
    cdef int yes = says_yes(g, run.cards, run.setup, plan, plan.chains[CH_ASK][card][0],
                            plan.chains[CH_ASK][card][1], q, about)
    record(run, g, run.cards.a_yes if yes else run.cards.a_no)
    return yes


cdef int discard_down(Run run, Game* g, int p, int card, int keep) except -1:
    """Each other seat (not protected) holding more than ``keep`` cards discards
    down to ``keep``, one card at a time, as its rules for ``card``'s discard pick
    (none: the first card offered)."""
    cdef Cards cards = run.cards
    cdef int victims[MAXP]
    cdef int nv = 0, k, q, c, n
    cdef int offered[MAXC]
    cdef Seat* s
    for k in range(1, g.n):
        q = (p + k) % g.n
        if not g.immune[q] and g.seats[q].nhand > keep:
            victims[nv] = q
            nv += 1
    for k in range(nv):
        q = victims[k]
        s = &g.seats[q]
        while s.nhand > keep:
            n = distinct(cards, s.hand, s.nhand, 0, offered)
            c = choose_one(run, g, q, CH_DISCARD, card, offered, n)
            remove_first(s.hand, &s.nhand, c)
            s.disc[s.ndisc] = c
            s.ndisc += 1
    return 0


cdef int topdeck_from_hands(Run run, Game* g, int p, int card, int only) except -1:
    """Each other seat (not protected) puts a card of the type bits ``only`` from its
    hand onto its deck: its only kind of them, else the one its rules for ``card``'s
    topdeck pick among them (card order; none applies: the first); a hand without one
    stays."""
    cdef Cards cards = run.cards
    cdef int offered[MAXC]
    cdef int k, q, c, n
    cdef Seat* s
    for k in range(1, g.n):
        q = (p + k) % g.n
        if g.immune[q]:
            continue
        s = &g.seats[q]
        n = distinct(cards, s.hand, s.nhand, 0, offered, only)
        if n == 0:
            continue
        c = offered[0] if n == 1 else choose_one(run, g, q, CH_TOPDECK, card, offered, n)
        remove_first(s.hand, &s.nhand, c)
        s.deck[s.ndeck] = c
        s.ndeck += 1
    return 0


cdef int draw_setting_aside(Run run, Game* g, int p, int card, int n, int only) except -1:
    """Draw one card at a time until the hand holds ``n``; each card of the type bits
    ``only`` drawn is set aside if the seat's yes/no rules for ``card``'s question (about
    that card) say so; the set-aside cards are discarded after, in order (Library)."""
    cdef Cards cards = run.cards
    cdef Seat* s = &g.seats[p]
    cdef short aside[MAXZ]
    cdef int naside = 0, before, c, i
    while s.nhand < n:
        before = s.nhand
        draw(g, s, 1)
        if s.nhand == before:
            break
        c = s.hand[s.nhand - 1]
        if cards.types[c] & only and answer(run, g, p, card, c):
            remove_first(s.hand, &s.nhand, c)
            aside[naside] = c
            naside += 1
    for i in range(naside):
        s.disc[s.ndisc] = aside[i]
        s.ndisc += 1
    return 0


cdef int trash_one(Run run, Game* g, int p, int card, int then, int x, int how,
                   int only) except -1:
    """``TrashOneFromHand``: with cards in hand, seat ``p`` trashes the one its rules
    for ``card``'s trash pick among the distinct cards in hand (card order; none
    applies: the first), then ``then``: ``THEN_GAIN``, a gain costing up to $``x`` more
    (and as many potions; ``how`` and ``only`` as :func:`gain_up_to`), ``THEN_DRAW``,
    +1 Card per $1 it costs and ``x`` more if it costs a potion."""
    cdef Cards cards = run.cards
    cdef Seat* s = &g.seats[p]
    cdef int offered[MAXC]
    cdef int n, c, k
    if s.nhand == 0:
        return 0
    n = distinct(cards, s.hand, s.nhand, 0, offered)
    c = choose_one(run, g, p, CH_TRASH, card, offered, n)
    remove_first(s.hand, &s.nhand, c)
    trash_card(g, p, c)
    if then == THEN_GAIN:
        gain_up_to(run, g, p, card, cards.cost[c] + x, cards.potion_cost[c], how, only)
    elif then == THEN_DRAW:
        k = cards.cost[c] + (x if cards.potion_cost[c] else 0)
        if k:
            draw(g, s, k)
    return 0


cdef int gain_up_to(Run run, Game* g, int p, int card, int coins, int potions, int how,
                    int only) except -1:
    """``ask_gain``: seat ``p`` gains a supply card costing up to ``coins`` and
    ``potions`` (of the type bits ``only``, 0: any), chosen by its rules for ``card``'s
    gain, in pile order; ``how``: the destination (``TO_*``) plus 4 when the gain may
    be declined.  Asked only when there is a card to gain; one card and no way to
    decline: taken without asking the bot."""
    cdef Cards cards = run.cards
    cdef Setup st = run.setup
    cdef int offered[MAXC]
    cdef int n = 0, i, c, optional = how >> 2
    for i in range(st.npiles):
        c = st.piles[i]
        if (g.supply[c] > 0 and cards.cost[c] <= coins and cards.potion_cost[c] <= potions
                and (only == 0 or (cards.types[c] & only))):
            offered[n] = c
            n += 1
    if n == 0:
        return 0
    if n == 1 and not optional:
        c = offered[0]
        record(run, g, cards.k_gain * cards.ncards + c)
    else:
        c = choose_one(run, g, p, CH_GAIN, card, offered, n, optional)
        if c < 0:
            return 0
    gain_to(g, st, p, c, how & 3)
    return 0


cdef int discard_then_draw(Run run, Game* g, int p, int card) except -1:
    """Discard any number of cards, one at a time as the seat's rules for ``card``'s
    discard pick among the distinct cards in hand (card order; a ``done`` rule or no
    rule applying: stop), then draw as many (Cellar)."""
    cdef Cards cards = run.cards
    cdef Seat* s = &g.seats[p]
    cdef int offered[MAXC]
    cdef int n, c, k = 0
    while True:
        n = distinct(cards, s.hand, s.nhand, 0, offered)
        c = choose_one(run, g, p, CH_DISCARD, card, offered, n, 1)
        if c < 0:
            break
        remove_first(s.hand, &s.nhand, c)
        s.disc[s.ndisc] = c
        s.ndisc += 1
        k += 1
    if k:
        draw(g, s, k)
    return 0


cdef int discard_per_empty(Run run, Game* g, int p, int card) except -1:
    """``DiscardPerEmptyPile``: a card from the hand per empty Supply pile, one at a time
    as the seat's rules for ``card``'s discard pick among the distinct cards in hand
    (card order; none applies: the first); the whole hand, in hand order and not asked,
    when it holds no more cards than there are empty piles (Poacher)."""
    cdef Cards cards = run.cards
    cdef Seat* s = &g.seats[p]
    cdef int offered[MAXC]
    cdef int n, c, i, empty = empty_piles(g, run.setup)
    if empty == 0 or s.nhand == 0:
        return 0
    if s.nhand <= empty:
        for i in range(s.nhand):
            s.disc[s.ndisc] = s.hand[i]
            s.ndisc += 1
        s.nhand = 0
        return 0
    while empty > 0 and s.nhand > 0:
        n = distinct(cards, s.hand, s.nhand, 0, offered)
        c = choose_one(run, g, p, CH_DISCARD, card, offered, n)
        remove_first(s.hand, &s.nhand, c)
        s.disc[s.ndisc] = c
        s.ndisc += 1
        empty -= 1
    return 0


cdef inline void trash_card(Game* g, int p, int c) noexcept:
    """Effects.trash_card: ``c`` (taken from its zone) leaves ``p``'s cards for the trash."""
    g.seats[p].owned[c] -= 1
    g.trash[g.ntrash] = c
    g.ntrash += 1


cdef int trash_up_to(Run run, Game* g, int p, int card, int most) except -1:
    """``TrashUpTo``: with cards in hand, trash up to ``most`` of them one at a time,
    as the seat's rules for ``card``'s trash pick among the distinct cards in hand
    (card order; a ``done`` rule or no rule applying: stop) (Chapel)."""
    cdef Cards cards = run.cards
    cdef Seat* s = &g.seats[p]
    cdef int offered[MAXC]
    cdef int n, c, k = 0
    if s.nhand == 0:
        return 0
    while True:
        n = distinct(cards, s.hand, s.nhand, 0, offered)
        c = choose_one(run, g, p, CH_TRASH, card, offered, n, 1)
        if c < 0:
            return 0
        remove_first(s.hand, &s.nhand, c)
        trash_card(g, p, c)
        k += 1
        if k >= most or s.nhand == 0:
            return 0


cdef int trash_of_type(Run run, Game* g, int p, int card, int only, int more, int editions,
                       int gain) except -1:
    """``TrashOfTypeFromHand`` followed by a gain costing more: with a card of the type
    bits ``only`` in hand, the seat's rules for ``card``'s trash pick one of them (card
    order; none applies: the first, or none where the editions ``editions`` make it
    optional), then a gain costing up to $``more`` more than it (and as many potions;
    ``gain``: the gain's ``how`` plus its type bits shifted by 3) (Mine)."""
    cdef Cards cards = run.cards
    cdef Seat* s = &g.seats[p]
    cdef int offered[MAXC]
    cdef int n, c
    n = distinct(cards, s.hand, s.nhand, 0, offered, only)
    if n == 0:
        return 0
    c = choose_one(run, g, p, CH_TRASH, card, offered, n, (editions >> run.setup.edition) & 1)
    if c < 0:
        return 0
    remove_first(s.hand, &s.nhand, c)
    trash_card(g, p, c)
    gain_up_to(run, g, p, card, cards.cost[c] + more, cards.potion_cost[c], gain & 7, gain >> 3)
    return 0


cdef int look_pick(Run run, Game* g, int p, int card, int trash, short* looking,
                   int* nlooking) except -1:
    """Trash (``trash``) or discard any of the cards looked at, one at a time as the
    seat's rules for ``card``'s trash or discard pick among them (card order; ``done``
    or none applying: stop)."""
    cdef Seat* s = &g.seats[p]
    cdef int offered[2]
    cdef int n, c
    while nlooking[0] > 0:
        n = distinct(run.cards, looking, nlooking[0], 0, offered)
        c = choose_one(run, g, p, CH_TRASH if trash else CH_DISCARD, card, offered, n, 1)
        if c < 0:
            return 0
        remove_first(looking, nlooking, c)
        if trash:
            trash_card(g, p, c)
        else:
            s.disc[s.ndisc] = c
            s.ndisc += 1
    return 0


cdef int look_sort(Run run, Game* g, int p, int card, int n) except -1:
    """``LookTrashDiscardReorder`` (``n`` at most 2): look at the top ``n`` cards; trash
    any, then discard any of the rest, as the seat's rules for ``card``'s trash and
    discard pick, then put the rest back, the card its rules for ``card``'s order pick
    on top when two different cards go back (Sentry)."""
    cdef Seat* s = &g.seats[p]
    cdef short looking[2]
    cdef int offered[2]
    cdef int nlooking = 0, i, c
    for i in range(n):
        c = take_top(g, s)
        if c < 0:
            break
        looking[nlooking] = c
        nlooking += 1
    if nlooking == 0:
        return 0
    look_pick(run, g, p, card, 1, looking, &nlooking)
    look_pick(run, g, p, card, 0, looking, &nlooking)
    if nlooking == 2 and distinct(run.cards, looking, 2, 0, offered) == 2:
        c = choose_one(run, g, p, CH_ORDER, card, offered, 2)
        # the other card under, the chosen one on top
        s.deck[s.ndeck] = looking[1] if looking[0] == c else looking[0]
        s.deck[s.ndeck + 1] = c
        s.ndeck += 2
        return 0
    for i in range(nlooking):
        s.deck[s.ndeck] = looking[i]
        s.ndeck += 1
    return 0


cdef int topdeck_from_hand(Run run, Game* g, int p, int card) except -1:
    """``TopdeckFromHand``: with cards in hand, the one the seat's rules for ``card``'s
    topdeck pick (card order; none applies: the first) goes onto the deck (Artisan)."""
    cdef Seat* s = &g.seats[p]
    cdef int offered[MAXC]
    cdef int n, c
    if s.nhand == 0:
        return 0
    n = distinct(run.cards, s.hand, s.nhand, 0, offered)
    c = choose_one(run, g, p, CH_TOPDECK, card, offered, n)
    remove_first(s.hand, &s.nhand, c)
    s.deck[s.ndeck] = c
    s.ndeck += 1
    return 0


cdef int topdeck_from_discard(Run run, Game* g, int p, int card) except -1:
    """``MayTopdeckFromDiscard``: with cards in the discard pile, the seat's rules for
    ``card``'s topdeck pick one of them (card order; a ``done`` rule or none applying:
    none), whose last copy goes onto the deck (Harbinger)."""
    cdef Seat* s = &g.seats[p]
    cdef int offered[MAXC]
    cdef int n, c, i
    if s.ndisc == 0:
        return 0
    n = distinct(run.cards, s.disc, s.ndisc, 0, offered)
    c = choose_one(run, g, p, CH_TOPDECK, card, offered, n, 1)
    if c < 0:
        return 0
    for i in range(s.ndisc - 1, -1, -1):
        if s.disc[i] == c:
            memmove(&s.disc[i], &s.disc[i + 1], (s.ndisc - i - 1) * sizeof(short))
            s.ndisc -= 1
            break
    s.deck[s.ndeck] = c
    s.ndeck += 1
    return 0


cdef int others_trash_revealed(Run run, Game* g, int p, int card, int only, int spare,
                               int how) except -1:
    """``EachOtherTrashesRevealed``: each other seat (not protected) reveals its top 2
    cards; one of the type bits ``only`` other than ``spare`` is trashed (of two kinds:
    the one the victim's rules for ``card``'s trash pick, or the seat's where ``how``
    has bit 1; none applying: the first in card order), the rest discarded in order
    (Bandit); ``how`` bit 2: then the seat may gain the cards trashed, one at a time as
    its rules for ``card``'s gain pick among them (card order; ``done`` or none
    applying: stop), each taken from the trash (its first copy there) to its discard
    pile (Thief)."""
    cdef Cards cards = run.cards
    cdef Seat* s
    cdef short aside[4]
    cdef short taken[MAXP]
    cdef int offered[MAXC]
    cdef int k, q, n, i, j, c, m, ntaken = 0
    for k in range(1, g.n):
        q = (p + k) % g.n
        if g.immune[q]:
            continue
        s = &g.seats[q]
        n = take_top_n(g, s, 2, aside)
        m = 0
        for c in range(cards.ncards):
            if c == spare or not (cards.types[c] & only):
                continue
            for i in range(n):
                if aside[i] == c:
                    offered[m] = c
                    m += 1
                    break
        c = -1
        if m == 1:
            c = offered[0]
        elif m > 1 and how & 1:
            g.about = q  # the seat chooses among the victim's cards
            c = choose_one(run, g, p, CH_TRASH, card, offered, m)
            g.about = -1
        elif m > 1:
            c = choose_one(run, g, q, CH_TRASH, card, offered, m)
        j = -1
        if c >= 0:
            for i in range(n):
                if aside[i] == c:
                    j = i
                    break
            trash_card(g, q, c)
            taken[ntaken] = c
            ntaken += 1
        for i in range(n):
            if i != j:
                s.disc[s.ndisc] = aside[i]
                s.ndisc += 1
    if not how & 2:
        return 0
    s = &g.seats[p]
    while ntaken > 0:
        n = distinct(cards, taken, ntaken, 0, offered)
        c = choose_one(run, g, p, CH_GAIN, card, offered, n, 1, cards.k_choose)
        if c < 0:
            break
        remove_first(taken, &ntaken, c)
        remove_first(g.trash, &g.ntrash, c)
        g.trash_cut = 1
        s.disc[s.ndisc] = c
        s.ndisc += 1
        s.owned[c] += 1
    return 0


cdef int reveal_top_each(Run run, Game* g, int p, int card) except -1:
    """``RevealTopEach``: the seat, then each other seat (not protected), reveals its
    top card; the seat's yes/no rules for ``card``'s question (about that card and
    seat: ``about_me``) say whether it is discarded (yes) or put back (Spy)."""
    cdef int targets[MAXP]
    cdef int nt = 1, k, q, c, yes
    cdef Seat* s
    targets[0] = p
    for k in range(1, g.n):
        q = (p + k) % g.n
        if not g.immune[q]:
            targets[nt] = q
            nt += 1
    for k in range(nt):
        q = targets[k]
        s = &g.seats[q]
        c = take_top(g, s)
        if c < 0:
            continue
        g.about = q
        yes = answer(run, g, p, card, c)
        g.about = -1
        if yes:
            s.disc[s.ndisc] = c
            s.ndisc += 1
        else:
            s.deck[s.ndeck] = c
            s.ndeck += 1
    return 0


cdef int play_action(Run run, Game* g, int p, int c) except -1:
    """Apply PLAY ``c`` in the Action phase: the card goes into play and is resolved."""
    cdef Seat* s = &g.seats[p]
    g.actions -= 1
    remove_first(s.hand, &s.nhand, c)
    s.play[s.nplay] = c
    s.nplay += 1
    g.next_play_id += 1
    resolve(run, g, p, c, 0)
    settle(g, run.cards)
    return 0


cdef int play_twice(Run run, Game* g, int p, int card, int editions) except -1:
    """``PlayActionTwice``: with an Action card in hand, the one the seat's rules for
    ``card``'s play pick (card order; none applies: the first, or none where the
    editions ``editions`` make it optional) goes into play and is resolved twice as one
    play (Throne Room)."""
    cdef Seat* s = &g.seats[p]
    cdef int offered[MAXC]
    cdef int n, c
    n = distinct(run.cards, s.hand, s.nhand, 1, offered)
    if n == 0:
        return 0
    c = choose_one(run, g, p, CH_PLAY, card, offered, n, (editions >> run.setup.edition) & 1)
    if c < 0:
        return 0
    remove_first(s.hand, &s.nhand, c)
    s.play[s.nplay] = c
    s.nplay += 1
    g.next_play_id += 1
    resolve(run, g, p, c, 0)
    resolve(run, g, p, c, 1)
    return 0


cdef int resolve(Run run, Game* g, int p, int c, int again) except -1:
    """Resolve one play of ``c`` (in play already): the card's steps (an Attack: each
    other seat's reaction first); ``again``: the second resolution of one play (a card
    trashing itself is trashed by its first only)."""
    cdef Cards cards = run.cards
    cdef Setup st = run.setup
    cdef Seat* s = &g.seats[p]
    cdef Plan plan
    cdef int i, q, k, code, target
    if cards.is_attack[c]:
        for q in range(g.n):
            g.immune[q] = 0
        for k in range(1, g.n):
            q = (p + k) % g.n
            if cards.reaction >= 0 and in_zone(g.seats[q].hand, g.seats[q].nhand, cards.reaction):
                plan = <Plan>run.plans[q]
                record(run, g, cards.a_yes if plan.react_yes else cards.a_no)
                if plan.react_yes:
                    g.immune[q] = 1
    for i in range(cards.nsteps[c]):
        code = cards.step_kind[c][i]
        if code == S_PLUS:
            if cards.step_arg[c][i][0]:
                draw(g, s, cards.step_arg[c][i][0])
            g.actions += cards.step_arg[c][i][1]
            g.buys += cards.step_arg[c][i][2]
            g.coins += cards.step_arg[c][i][3]
        elif code == S_OTHERS_GAIN:
            target = cards.step_arg[c][i][0]
            for k in range(1, g.n):
                q = (p + k) % g.n
                if not g.immune[q]:
                    gain(g, st, q, target)
        elif code == S_OTHERS_DRAW:
            for k in range(1, g.n):
                q = (p + k) % g.n
                draw(g, &g.seats[q], cards.step_arg[c][i][0])
        elif code == S_OTHERS_DISCARD_DOWN:
            discard_down(run, g, p, c, cards.step_arg[c][i][0])
        elif code == S_DISCARD_DECK:
            if s.ndeck > 0 and answer(run, g, p, c):
                for k in range(s.ndeck - 1, -1, -1):
                    s.disc[s.ndisc] = s.deck[k]
                    s.ndisc += 1
                s.ndeck = 0
        elif code == S_DISCARD_DRAW:
            discard_then_draw(run, g, p, c)
        elif code == S_GAIN_CARD:
            gain_to(g, st, p, cards.step_arg[c][i][0], cards.step_arg[c][i][1])
        elif code == S_OTHERS_TOPDECK:
            topdeck_from_hands(run, g, p, c, cards.step_arg[c][i][0])
        elif code == S_DRAW_TO:
            draw_setting_aside(run, g, p, c, cards.step_arg[c][i][0], cards.step_arg[c][i][1])
        elif code == S_TRASH_THIS and not again:
            # the copy of the card this play put into play last: trash it
            for k in range(s.nplay - 1, -1, -1):
                if s.play[k] == c:
                    memmove(&s.play[k], &s.play[k + 1], (s.nplay - k - 1) * sizeof(short))
                    s.nplay -= 1
                    trash_card(g, p, c)
                    break
        elif code == S_TRASH_FOR:
            target = cards.step_arg[c][i][0]
            if in_zone(s.hand, s.nhand, target):
                k = 1
                if cards.step_arg[c][i][2] & (1 << st.edition):
                    k = answer(run, g, p, c)
                if k:
                    remove_first(s.hand, &s.nhand, target)
                    trash_card(g, p, target)
                    g.coins += cards.step_arg[c][i][1]
        elif code == S_TRASH_ONE:
            trash_one(run, g, p, c, cards.step_arg[c][i][0], cards.step_arg[c][i][1],
                      cards.step_arg[c][i][2], cards.step_arg[c][i][3])
        elif code == S_GAIN:
            gain_up_to(run, g, p, c, cards.step_arg[c][i][0], cards.step_arg[c][i][1],
                       cards.step_arg[c][i][2], cards.step_arg[c][i][3])
        elif code == S_TRASH_UP_TO:
            trash_up_to(run, g, p, c, cards.step_arg[c][i][0])
        elif code == S_TOPDECK_HAND:
            topdeck_from_hand(run, g, p, c)
        elif code == S_TOPDECK_DISCARD:
            topdeck_from_discard(run, g, p, c)
        elif code == S_OTHERS_TRASH_REVEALED:
            others_trash_revealed(run, g, p, c, cards.step_arg[c][i][0], cards.step_arg[c][i][1],
                                  cards.step_arg[c][i][2])
        elif code == S_REVEAL_TOP_EACH:
            reveal_top_each(run, g, p, c)
        elif code == S_LOOK_SORT:
            look_sort(run, g, p, c, cards.step_arg[c][i][0])
        elif code == S_DISCARD_PER_EMPTY:
            discard_per_empty(run, g, p, c)
        elif code == S_TRASH_OF_TYPE:
            trash_of_type(run, g, p, c, cards.step_arg[c][i][0], cards.step_arg[c][i][1],
                          cards.step_arg[c][i][2], cards.step_arg[c][i][3])
        elif code == S_PLAY_TWICE:
            play_twice(run, g, p, c, cards.step_arg[c][i][0])
        elif code == S_CLEANUP_TOPDECK:
            g.herbalists += 1
    return 0


cdef int order_matters(Cards cards, Seat* s) noexcept:
    """A card with a Clean-up ability and a Treasure in play (the engine's
    ``_order_matters``; Alchemist is not native)."""
    cdef int i, ability = 0, treasure = 0
    for i in range(s.nplay):
        if cards.cleans_up[s.play[i]]:
            ability = 1
        elif cards.is_treasure[s.play[i]]:
            treasure = 1
    return ability and treasure


cdef int cleanup(Run run, Game* g, int p) except -1:
    """Clean-up's abilities before ``end_turn`` (printed wording, as the engine's
    ``start_cleanup``): while the order cards leave play matters, the seat picks the
    card discarded from play next by its ``cleanup.order`` rules (card order; none
    applies: ``done``, the rest leave together); a card with the ability leaving with
    Treasures still in play lets it put one of them onto its deck, by its rules for
    the card's ``topdeck`` (none applies: ``done``)."""
    cdef Cards cards = run.cards
    cdef Seat* s = &g.seats[p]
    cdef int offered[MAXC]
    cdef int n, c, t, i, treasure
    while order_matters(cards, s):
        n = distinct(cards, s.play, s.nplay, 0, offered)
        c = choose_one(run, g, p, CH_ORDER, cards.cleanup_card, offered, n, 1, cards.k_choose)
        if c < 0:
            return 0
        remove_first(s.play, &s.nplay, c)
        s.disc[s.ndisc] = c
        s.ndisc += 1
        if not cards.cleans_up[c]:
            continue
        treasure = 0
        for i in range(s.nplay):
            if cards.is_treasure[s.play[i]]:
                treasure = 1
                break
        if not treasure:
            continue
        n = distinct_treasures(cards, s.play, s.nplay, offered)
        t = choose_one(run, g, p, CH_TOPDECK, c, offered, n, 1)
        if t >= 0:
            remove_first(s.play, &s.nplay, t)
            s.deck[s.ndeck] = t
            s.ndeck += 1
    return 0


cdef int run_game(Run run, Game* g, int max_steps) except -1:
    """Play to the end; 0 when done, 1 when ``max_steps`` ran out."""
    cdef Cards cards = run.cards
    cdef Setup st = run.setup
    cdef Plan plan
    cdef Seat* s
    cdef int p, c, i, j, coins, q
    cdef int cleanups = 0
    if cards.cleanup_card >= 0:  # a card with a Clean-up ability in the supply or owned
        for c in range(st.nsupply):
            if cards.cleans_up[c]:
                if st.is_pile[c]:
                    cleanups = 1
                for q in range(g.n):
                    if g.seats[q].owned[c]:
                        cleanups = 1
    while g.phase != OVER:
        if g.steps >= max_steps:
            return 1
        p = g.turn
        plan = <Plan>run.plans[p]
        s = &g.seats[p]
        if g.phase == ACTION_PHASE:
            c = choose_play(g, cards, st, plan, p)
            if c >= 0:
                record(run, g, cards.k_play * cards.ncards + c)
                play_action(run, g, p, c)
            else:
                record(run, g, cards.a_end)
                g.phase = BUY_PHASE
            continue
        if not g.bought:
            j = 0
            for i in range(s.nhand):
                if cards.is_treasure[s.hand[i]]:
                    j = 1
                    break
            if j:
                # all Treasures, in hand order
                record(run, g, cards.a_all)
                coins = 0
                j = 0
                for i in range(s.nhand):
                    c = s.hand[i]
                    if cards.is_treasure[c]:
                        s.play[s.nplay] = c
                        s.nplay += 1
                        coins += cards.coins[c]
                        if c == cards.silver:
                            g.silver_played = 1
                        elif c == cards.potion:
                            g.potions += 1
                    else:
                        s.hand[j] = c
                        j += 1
                s.nhand = j
                g.coins += coins
                continue
        c = choose_buy(g, cards, st, plan, p)
        if c < 0:
            record(run, g, cards.a_end)
            if cleanups:
                cleanup(run, g, p)
            end_turn(g, cards, st)
            continue
        record(run, g, cards.k_buy * cards.ncards + c)
        g.buys -= 1
        g.coins -= cards.cost[c]
        g.potions -= cards.potion_cost[c]
        g.bought = 1
        gain(g, st, p, c)
        if g.buys <= 0:
            if cleanups:
                cleanup(run, g, p)
            end_turn(g, cards, st)
    return 0


cdef void new_game(Game* g, Cards cards, Setup st, int n, object seed, int first, int copper, int estate) except *:
    cdef int p, i
    g.n = n
    _seed(&g.rng, seed)
    memcpy(g.supply, st.supply, sizeof(g.supply))
    for p in range(n):
        seat_reset(&g.seats[p])
        memset(g.seats[p].owned, 0, sizeof(g.seats[p].owned))
        s = &g.seats[p]
        for i in range(7):
            s.deck[i] = copper
        for i in range(7, 10):
            s.deck[i] = estate
        s.ndeck = 10
        s.owned[copper] = 7
        s.owned[estate] = 3
        shuffle_cards(&g.rng, s.deck, 10)
        g.turns[p] = 0
        g.immune[p] = 0
    for p in range(n):
        draw(g, &g.seats[p], 5)
    if first < 0:
        first = randbelow(&g.rng, n)
    g.next_play_id = 0
    g.about = -1
    g.ended = 0
    g.steps = 0
    g.ntrash = g.ntrash0 = g.trash_cut = 0
    start_turn(g, cards, first)


def play_seeded(Run run, int players, seed, int first, int copper, int estate,
                int max_steps, bint history=False):
    """A new game (what ``DominionState(config)`` deals from ``seed``: starting decks
    shuffled, hands drawn, ``first`` starts, -1: drawn at random) played to its end.
    Returns ``(vp, turns, ended_by, supply, history)`` (``history`` None unless
    asked), or None when ``max_steps`` ran out."""
    cdef Game* g = &G
    cdef int p
    if players > MAXP or run.setup.total + 10 * players > MAXZ:
        raise ValueError("game too large for the native core")
    run.history = [] if history else None
    new_game(g, run.cards, run.setup, players, seed, first, copper, estate)
    if run_game(run, g, max_steps):
        run.history = None
        return None
    out = _result(run, g)
    run.history = None
    return out


cdef object _result(Run run, Game* g):
    cdef int p
    vp = [seat_vp(g, run.cards, run.setup, p, -1) for p in range(g.n)]
    turns = [g.turns[p] for p in range(g.n)]
    ended = "provinces" if g.ended == 1 else "piles"
    supply = [g.supply[p] for p in range(run.setup.nsupply)]
    return vp, turns, ended, supply, run.history


# -- a state's game, played on and written back -------------------------------------------
cdef void _load_zone(short* zone, int* n, object cards) except *:
    cdef int i, k = len(cards)
    if k > MAXZ:
        raise ValueError("zone too large")
    for i in range(k):
        zone[i] = cards[i]
    n[0] = k


cdef list _zone(short* zone, int n):
    return [zone[i] for i in range(n)]


def play_state(Run run, state, int max_steps, seed=None):
    """Play the Dominion ``state`` (no pending decision, Action or Buy phase) to its
    end natively and write the result back into it: zones, supply, owned counts,
    turns, the turn's fields, the history and the random generator.  False, and the
    state untouched, when ``max_steps`` ran out.

    ``seed`` (an int): the game goes on with the generator ``random.Random(seed)``
    instead of the state's own, which is neither read nor written back (a search's
    rollout, whose result is only its outcome: the 625 words of the generator's state
    are not copied each way)."""
    cdef Game* g = &G
    cdef Seat* s
    cdef int p, c, n = state.num_players
    if n > MAXP or run.setup.total + 10 * n > MAXZ:
        raise ValueError("game too large for the native core")
    g.n = n
    rng = state.rng
    rs = None
    if seed is None:
        rs = rng.getstate()
        _load_mt(&g.rng, rs)
    else:
        _seed(&g.rng, seed)
    supply = state.supply
    for c in range(run.setup.nsupply):
        g.supply[c] = supply[c]
    for p in range(n):
        s = &g.seats[p]
        seat_reset(s)
        _load_zone(s.hand, &s.nhand, state.hands[p])
        _load_zone(s.deck, &s.ndeck, state.decks[p])
        _load_zone(s.disc, &s.ndisc, state.discards[p])
        _load_zone(s.play, &s.nplay, state.in_play[p])
        memset(s.owned, 0, sizeof(s.owned))
        owned = state.owned_counts[p]
        for c in range(run.setup.nsupply):
            s.owned[c] = owned[c]
        g.turns[p] = state.turns[p]
        g.immune[p] = 1 if state.immune[p] else 0
    g.turn = state.turn
    g.phase = state.phase
    g.actions, g.buys, g.coins, g.potions = state.actions, state.buys, state.coins, state.potions
    g.bought = 1 if state.bought else 0
    g.silver_played = 1 if state.silver_played else 0
    g.normal_player = state.normal_player
    g.next_play_id = state.next_play_id
    g.herbalists = state.herbalists
    g.about = -1
    g.ended = 0
    g.steps = 0
    _load_zone(g.trash, &g.ntrash, state.trash)
    g.ntrash0 = g.ntrash
    g.trash_cut = 0
    run.history = []
    if run_game(run, g, max_steps):
        run.history = None
        return False
    history = run.history
    run.history = None
    if seed is None:
        rng.setstate(_dump_mt(&g.rng, rs))
    state.supply = [g.supply[c] for c in range(len(supply))]
    state.hands = [_zone(g.seats[p].hand, g.seats[p].nhand) for p in range(n)]
    state.decks = [_zone(g.seats[p].deck, g.seats[p].ndeck) for p in range(n)]
    state.discards = [_zone(g.seats[p].disc, g.seats[p].ndisc) for p in range(n)]
    state.in_play = [_zone(g.seats[p].play, g.seats[p].nplay) for p in range(n)]
    for p in range(n):
        owned = state.owned_counts[p]
        for c in range(run.setup.nsupply):
            owned[c] = g.seats[p].owned[c]
    state.turns = [g.turns[p] for p in range(n)]
    state.immune = [bool(g.immune[p]) for p in range(n)]
    state.turn = g.turn
    state.phase = g.phase
    state.actions, state.buys, state.coins, state.potions = g.actions, g.buys, g.coins, g.potions
    state.bought = bool(g.bought)
    state.silver_played = bool(g.silver_played)
    state.normal_player = g.normal_player
    state.herbalists = g.herbalists
    state.last_extra = -1
    state.controller = -1
    state.extra_turn = False
    state.next_play_id = g.next_play_id
    state.ended_by = "provinces" if g.ended == 1 else "piles"
    state.buy_cache = {}
    if state.moved:
        state.moved.clear()  # Clean-up forgets the cards moved (Feast) this turn
    if g.trash_cut:
        state.trash[:] = _zone(g.trash, g.ntrash)
    elif g.ntrash > g.ntrash0:
        state.trash.extend([g.trash[c] for c in range(g.ntrash0, g.ntrash)])
    state.history.extend(history)
    return True
