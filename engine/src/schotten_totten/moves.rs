//! Moves: what a turn (or, after Recruiter, its second step) decides; their
//! generation and their effect, shared by full states and views.

use std::ops::ControlFlow;

use super::board::{Board, Claim, Deck, Phase};
use super::cards::{Card, KINDS};
use super::formation::{Bounds, Pool, Strength};
use crate::Player;

/// What the card of a turn does. Stones are 0-based here (1..9 in notation).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// A clan card or elite troop onto your side of `stone`, or a combat mode onto `stone`.
    Play {
        /// The card played.
        card: Card,
        /// The stone.
        stone: u8,
    },
    /// Recruiter: draw `clan` cards from the clan deck and `tactic` from the
    /// tactic deck (chosen together); the turn continues with [`Action::Return`].
    Recruiter {
        /// Cards drawn from the clan deck.
        clan: u8,
        /// Cards drawn from the tactic deck.
        tactic: u8,
    },
    /// Strategist: move your `card` from stone `from` to stone `to`, or discard it (`None`).
    Strategist {
        /// Your card on `from`.
        card: Card,
        /// Its stone.
        from: u8,
        /// Destination stone, or `None` for the discard pile.
        to: Option<u8>,
    },
    /// Banshee: discard the opponent's `card` from `stone`.
    Banshee {
        /// The opponent's card.
        card: Card,
        /// Its stone.
        stone: u8,
    },
    /// Traitor: move the opponent's clan `card` from stone `from` to your side of `to`.
    Traitor {
        /// The opponent's clan card.
        card: Card,
        /// Its stone.
        from: u8,
        /// Your stone that receives it.
        to: u8,
    },
    /// After Recruiter: put cards from hand under their decks, `first` then
    /// `second` (so with one deck, `second` ends at the very bottom). Fewer
    /// than two only when the hand holds fewer.
    Return {
        /// Returned first.
        first: Option<Card>,
        /// Returned second.
        second: Option<Card>,
    },
    /// Unable to play: discard this tactic card from hand (not counted as played).
    Discard {
        /// The tactic card.
        card: Card,
    },
    /// Unable to play and no tactic card in hand.
    Pass,
}

/// One decision: claims (bit i = stone i+1; at the start of the turn in
/// `expert`, after the card otherwise), the action, and the deck to draw from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    /// Stones claimed, bit i = stone i+1.
    pub claims: u16,
    /// The card played (or discard, pass, return).
    pub action: Action,
    /// The deck drawn from at the end of the turn (`None`: no draw).
    pub draw: Option<Deck>,
}

impl Move {
    /// The stones claimed, by index (0 for stone 1), in order.
    pub fn claimed(&self) -> impl Iterator<Item = u8> + '_ {
        (0..9u8).filter(|i| self.claims & (1 << i) != 0)
    }

    /// Adds the stone of index `stone` (0 for stone 1) to the claims.
    pub fn claim(&mut self, stone: u8) {
        self.claims |= 1 << stone;
    }
}

/// The hidden part of a state, as far as moves need it.
pub(crate) trait Hidden {
    /// Removes a card from `p`'s hand.
    fn take(&mut self, p: Player, card: Card);
    /// Moves the top card of `deck` to `p`'s hand.
    fn draw(&mut self, p: Player, deck: Deck);
    /// Puts a card of `p`'s under its deck.
    fn put_under(&mut self, p: Player, card: Card);
    /// Cards left in `deck`.
    fn deck_len(&self, deck: Deck) -> usize;
}

/// The draw choices at the end of a turn (one or two), read as a slice.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Draws {
    options: [Option<Deck>; 2],
    len: u8,
}

impl Draws {
    fn one(deck: Option<Deck>) -> Draws {
        Draws {
            options: [deck, None],
            len: 1,
        }
    }
}

impl std::ops::Deref for Draws {
    type Target = [Option<Deck>];

    fn deref(&self) -> &[Option<Deck>] {
        &self.options[..self.len as usize]
    }
}

/// The draw choices at the end of a turn.
pub(crate) fn draw_options(board: &Board, deck_len: [usize; 2]) -> Draws {
    if !board.variant.tactics() {
        return Draws::one((deck_len[0] > 0).then_some(Deck::Clan));
    }
    match (deck_len[0] > 0, deck_len[1] > 0) {
        (true, true) => Draws {
            options: [Some(Deck::Clan), Some(Deck::Tactic)],
            len: 2,
        },
        (true, false) => Draws::one(Some(Deck::Clan)),
        (false, true) => Draws::one(Some(Deck::Tactic)),
        (false, false) => Draws::one(None),
    }
}

/// The distinct cards of `cards`, in card order (no allocation).
fn distinct(cards: &[Card]) -> impl Iterator<Item = Card> {
    let mut set = cards.iter().fold(0u64, |set, c| set | 1 << c.id());
    std::iter::from_fn(move || {
        let id = set.trailing_zeros();
        set &= set.wrapping_sub(1);
        Card::from_id(id as u8)
    })
}

/// Every card play available to the side to move with `hand` (phase Play).
pub(crate) fn play_actions(board: &Board, hand: &[Card], deck_len: [usize; 2]) -> Vec<Action> {
    let me = board.to_move;
    let opp = me.opponent();
    let mut out = Vec::with_capacity(64);
    let tactic_ok = board.may_play_tactic(me);
    let open = |i: usize| board.stones[i].claimed.is_none();
    for card in distinct(hand) {
        if card.is_tactic() && !tactic_ok {
            continue;
        }
        if card.is_troop() {
            if card == Card::JOKER && board.has_joker(me) {
                continue;
            }
            for i in 0..9 {
                if board.stones[i].has_room(me) {
                    out.push(Action::Play {
                        card,
                        stone: i as u8,
                    });
                }
            }
        } else if card.is_combat_mode() {
            for i in (0..9).filter(|&i| open(i)) {
                let st = &board.stones[i];
                if (card == Card::BLIND && !st.blind) || (card == Card::MUD && !st.mud) {
                    out.push(Action::Play {
                        card,
                        stone: i as u8,
                    });
                }
            }
        } else if card == Card::RECRUITER {
            let total = deck_len[0] + deck_len[1];
            if total < 3 {
                out.push(Action::Recruiter {
                    clan: deck_len[0] as u8,
                    tactic: deck_len[1] as u8,
                });
            } else {
                for clan in 0..=3usize {
                    if clan <= deck_len[0] && 3 - clan <= deck_len[1] {
                        out.push(Action::Recruiter {
                            clan: clan as u8,
                            tactic: (3 - clan) as u8,
                        });
                    }
                }
            }
        } else if card == Card::STRATEGIST {
            for from in (0..9).filter(|&i| open(i)) {
                for c in distinct(&board.stones[from].sides[me.index()]) {
                    out.push(Action::Strategist {
                        card: c,
                        from: from as u8,
                        to: None,
                    });
                    for to in (0..9).filter(|&t| t != from && board.stones[t].has_room(me)) {
                        out.push(Action::Strategist {
                            card: c,
                            from: from as u8,
                            to: Some(to as u8),
                        });
                    }
                }
            }
        } else if card == Card::BANSHEE {
            for i in (0..9).filter(|&i| open(i)) {
                for c in distinct(&board.stones[i].sides[opp.index()]) {
                    out.push(Action::Banshee {
                        card: c,
                        stone: i as u8,
                    });
                }
            }
        } else if card == Card::TRAITOR {
            for from in (0..9).filter(|&i| open(i)) {
                for c in distinct(&board.stones[from].sides[opp.index()]) {
                    if !c.is_clan() {
                        continue;
                    }
                    for to in (0..9).filter(|&t| board.stones[t].has_room(me)) {
                        out.push(Action::Traitor {
                            card: c,
                            from: from as u8,
                            to: to as u8,
                        });
                    }
                }
            }
        }
    }
    out
}

/// The actions of the side to move: plays if any, else tactic discards, else a pass;
/// after Recruiter, the returns.
pub(crate) fn actions(board: &Board, hand: &[Card], deck_len: [usize; 2]) -> Vec<Action> {
    if board.phase == Phase::Return {
        return return_actions(hand);
    }
    let plays = play_actions(board, hand, deck_len);
    if !plays.is_empty() {
        return plays;
    }
    let discards: Vec<Action> = distinct(hand)
        .filter(|c| c.is_tactic())
        .map(|card| Action::Discard { card })
        .collect();
    if discards.is_empty() {
        vec![Action::Pass]
    } else {
        discards
    }
}

fn return_actions(hand: &[Card]) -> Vec<Action> {
    match hand.len() {
        0 => vec![Action::Return {
            first: None,
            second: None,
        }],
        1 => vec![Action::Return {
            first: Some(hand[0]),
            second: None,
        }],
        _ => {
            let mut out = Vec::new();
            for i in 0..hand.len() {
                for j in 0..hand.len() {
                    let (a, b) = (hand[i], hand[j]);
                    if i == j || (Deck::of(a) != Deck::of(b) && a > b) {
                        continue;
                    }
                    let act = Action::Return {
                        first: Some(a),
                        second: Some(b),
                    };
                    if !out.contains(&act) {
                        out.push(act);
                    }
                }
            }
            out
        }
    }
}

/// Canonical form of a move (returns to two different decks are unordered).
pub(crate) fn canonical(mut mv: Move) -> Move {
    if let Action::Return {
        first: Some(a),
        second: Some(b),
    } = mv.action
    {
        if Deck::of(a) != Deck::of(b) && a > b {
            mv.action = Action::Return {
                first: Some(b),
                second: Some(a),
            };
        }
    }
    mv
}

/// Whether an action ends with a draw.
fn draws_after(action: &Action) -> bool {
    !matches!(
        action,
        Action::Recruiter { .. } | Action::Return { .. } | Action::Pass
    )
}

/// The table effect of an action by the side to move (stones, discard, counts).
pub(crate) fn apply_table(board: &mut Board, action: &Action) {
    let me = board.to_move;
    let opp = me.opponent();
    let count = |b: &mut Board| b.tactics_played[me.index()] += 1;
    match *action {
        Action::Play { card, stone } => {
            let st = &mut board.stones[stone as usize];
            if card.is_combat_mode() {
                st.add_mode(card);
            } else {
                st.add(me, card);
            }
            if card.is_tactic() {
                count(board);
            }
        }
        Action::Recruiter { .. } => {
            board.discard.push(Card::RECRUITER);
            count(board);
        }
        Action::Strategist { card, from, to } => {
            board.stones[from as usize].remove(me, card);
            board.discard.push(Card::STRATEGIST);
            match to {
                Some(t) => board.stones[t as usize].add(me, card),
                None => board.discard.push(card),
            }
            count(board);
        }
        Action::Banshee { card, stone } => {
            board.stones[stone as usize].remove(opp, card);
            board.discard.push(Card::BANSHEE);
            board.discard.push(card);
            count(board);
        }
        Action::Traitor { card, from, to } => {
            board.stones[from as usize].remove(opp, card);
            board.discard.push(Card::TRAITOR);
            board.stones[to as usize].add(me, card);
            count(board);
        }
        Action::Discard { card } => board.discard.push(card),
        Action::Return { .. } | Action::Pass => {}
    }
}

/// The card of the hand an action plays (a clan card, elite troop or
/// tactic card), if any.
pub(crate) fn hand_card(action: &Action) -> Option<Card> {
    match *action {
        Action::Play { card, .. } | Action::Discard { card } => Some(card),
        Action::Recruiter { .. } => Some(Card::RECRUITER),
        Action::Strategist { .. } => Some(Card::STRATEGIST),
        Action::Banshee { .. } => Some(Card::BANSHEE),
        Action::Traitor { .. } => Some(Card::TRAITOR),
        Action::Return { .. } | Action::Pass => None,
    }
}

fn claim(board: &mut Board, claims: u16) {
    let me = board.to_move;
    for i in 0..9 {
        if claims & (1 << i) != 0 {
            board.stones[i].claimed = Some(me);
        }
    }
}

/// Plays a legal move on the board and the hidden part.
pub(crate) fn apply<H: Hidden>(board: &mut Board, hidden: &mut H, mv: &Move) {
    let me = board.to_move;
    let expert = board.variant.expert();
    if expert {
        claim(board, mv.claims);
    }
    let returning = board.phase == Phase::Return;
    if let Action::Return { first, second } = mv.action {
        for c in [first, second].into_iter().flatten() {
            hidden.take(me, c);
            hidden.put_under(me, c);
        }
    } else if let Some(c) = hand_card(&mv.action) {
        hidden.take(me, c);
    }
    apply_table(board, &mv.action);
    if let Action::Recruiter { clan, tactic } = mv.action {
        for _ in 0..clan {
            hidden.draw(me, Deck::Clan);
        }
        for _ in 0..tactic {
            hidden.draw(me, Deck::Tactic);
        }
        board.phase = Phase::Return;
        board.passes = 0;
        return;
    }
    if !expert {
        claim(board, mv.claims);
    }
    if draws_after(&mv.action) {
        if let Some(d) = mv.draw {
            if hidden.deck_len(d) > 0 {
                hidden.draw(me, d);
            } else if hidden.deck_len(d.other()) > 0 {
                hidden.draw(me, d.other());
            }
        }
    }
    let played = returning || !matches!(mv.action, Action::Pass | Action::Discard { .. });
    board.passes = if played || mv.claims != 0 {
        0
    } else {
        board.passes + 1
    };
    board.phase = Phase::Play;
    board.to_move = board.to_move.opponent();
}

/// The stones claimable after each action of one position (non-expert:
/// claims follow the card). A played card changes one stone and leaves the
/// unseen pool. A smaller pool only makes a proof easier, so the stones
/// proved with the whole pool stay claimable whatever the card; the others
/// the mover has completed are proved again per card, once. Every proof
/// against the pool less one card of the hand is first tried against the
/// bounds of the whole pool and the pool less the whole hand.
pub(crate) struct ClaimsAfter<'a> {
    board: &'a Board,
    unseen: Pool,
    /// `unseen` without the cards of the mover's hand.
    unseen_less_hand: Pool,
    /// Claimable whatever card is played (on the stones it leaves as they are).
    sure: u16,
    /// The mover's complete sides the whole pool does not prove: (stone, strength).
    unproved: [(u8, Strength); 9],
    /// How many of `unproved` are filled.
    n_unproved: usize,
    /// Per card id: the stones claimable among those it leaves as they are,
    /// where bit `id` of `known` is set (plain arrays: a playout builds one
    /// every ply, and an array of options is cleared entry by entry).
    untouched: [u16; KINDS],
    /// The card ids whose `untouched` is worked out.
    known: u64,
    /// Per stone: the opponent's best completions, once worked out.
    bounds: [Bounds; 9],
}

impl<'a> ClaimsAfter<'a> {
    /// For the actions of `board`, whose unseen pool is `unseen`, by the
    /// side to move holding `hand`.
    pub(crate) fn new(board: &'a Board, unseen: Pool, hand: &[Card]) -> Self {
        let me = board.to_move;
        let mut unseen_less_hand = unseen;
        for &c in hand {
            unseen_less_hand.remove(c);
        }
        let mut claims = ClaimsAfter {
            board,
            unseen,
            unseen_less_hand,
            sure: 0,
            unproved: [(0, 0); 9],
            n_unproved: 0,
            untouched: [0; KINDS],
            known: 0,
            bounds: [Bounds::default(); 9],
        };
        for (i, st) in board.stones.iter().enumerate() {
            let bounds = &mut claims.bounds[i];
            let pools = (&unseen, &unseen_less_hand);
            match st.claim_by(me, |mine| {
                st.proved_within(me, mine, &unseen, bounds, pools)
            }) {
                Claim::Closed => {}
                Claim::Proved => claims.sure |= 1 << i,
                Claim::Unproved(mine) => {
                    claims.unproved[claims.n_unproved] = (i as u8, mine);
                    claims.n_unproved += 1;
                }
            }
        }
        claims
    }

    /// The stones claimable after `action`.
    pub(crate) fn of(&mut self, action: &Action) -> u16 {
        let me = self.board.to_move;
        match *action {
            Action::Recruiter { .. } => 0,
            Action::Play { card, stone } => self.play(card, stone),
            _ => {
                let mut after = self.board.clone();
                apply_table(&mut after, action);
                after.claimable_set(me)
            }
        }
    }

    /// The stones claimable after `card` is played on `stone` (by value: the
    /// playout loop calls it without building an action in memory).
    fn play(&mut self, card: Card, stone: u8) -> u16 {
        let me = self.board.to_move;
        let st = &self.board.stones[stone as usize];
        // Only a combat mode or a side's last card can make the stone claimable.
        let completes = card.is_combat_mode() || st.one_short(me);
        let bit = 1u16 << stone;
        if !completes && self.known & 1 << card.id() != 0 {
            return self.untouched[card.id() as usize] & !bit;
        }
        let mut pool = self.unseen;
        pool.remove(card);
        let untouched = self.untouched_by(card);
        let changed = if card.is_combat_mode() {
            let mut changed = st.clone();
            changed.add_mode(card);
            changed.claimable(me, &pool)
        } else if completes {
            let bounds = &mut self.bounds[stone as usize];
            let pools = (&self.unseen, &self.unseen_less_hand);
            st.claim_adding(me, card, |mine| {
                st.proved_within(me, mine, &pool, bounds, pools)
            }) == Claim::Proved
        } else {
            false
        };
        (untouched & !bit) | if changed { bit } else { 0 }
    }

    /// The claimable stones among those `card`'s play leaves as they are.
    fn untouched_by(&mut self, card: Card) -> u16 {
        if self.known & 1 << card.id() != 0 {
            return self.untouched[card.id() as usize];
        }
        let mut pool = self.unseen;
        pool.remove(card);
        let me = self.board.to_move;
        let mut claims = self.sure;
        if pool != self.unseen {
            for k in 0..self.n_unproved {
                let (i, mine) = self.unproved[k];
                let bounds = &mut self.bounds[i as usize];
                let pools = (&self.unseen, &self.unseen_less_hand);
                if self.board.stones[i as usize].proved_within(me, mine, &pool, bounds, pools) {
                    claims |= 1 << i;
                }
            }
        }
        self.untouched[card.id() as usize] = claims;
        self.known |= 1 << card.id();
        claims
    }
}

/// The board with `claims` claimed by the side to move.
pub(crate) fn with_claims(board: &Board, claims: u16) -> Board {
    let mut b = board.clone();
    claim(&mut b, claims);
    b
}

/// The moves of one action: `claims` with each subset of `free` (the
/// largest first), each with each draw choice, in that order. A card played
/// on several stones with the same claims is one group: its action is played
/// on each stone of `stones` in turn (`0`: the action as it is).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Group {
    claims: u16,
    free: u16,
    action: Action,
    stones: u16,
    draws: Draws,
}

impl Group {
    /// How many moves the group holds.
    pub(crate) fn len(&self) -> usize {
        self.stones.count_ones().max(1) as usize * self.per_action()
    }

    /// The moves of one action (claims and draws).
    fn per_action(&self) -> usize {
        (1 << self.free.count_ones()) * self.draws.len()
    }

    /// Its `n`th move (`n < len()`).
    pub(crate) fn nth(&self, n: usize) -> Move {
        let (which, n) = (n / self.per_action(), n % self.per_action());
        let mut action = self.action;
        if let Action::Play { stone, .. } = &mut action {
            if self.stones != 0 {
                *stone = nth_bit(self.stones, which);
            }
        }
        let (sub, draw) = (n / self.draws.len(), n % self.draws.len());
        // Subsets of `free` from the largest down: the `sub`th is the
        // complement's rank spread over the bits of `free`.
        let mut rank = (1usize << self.free.count_ones()) - 1 - sub;
        let mut claims = self.claims;
        let mut bits = self.free;
        while bits != 0 {
            let low = bits & bits.wrapping_neg();
            if rank & 1 != 0 {
                claims |= low;
            }
            rank >>= 1;
            bits &= bits - 1;
        }
        Move {
            claims,
            action,
            draw: self.draws[draw],
        }
    }

    /// Takes in the play of the same card on `stone` (after the group's
    /// stones) with the same claims, if this group plays a card.
    fn merge(&mut self, action: &Action, free: u16) -> bool {
        let (
            Action::Play { card, stone },
            Action::Play {
                card: next,
                stone: to,
            },
        ) = (self.action, *action)
        else {
            return false;
        };
        if card != next || free != self.free {
            return false;
        }
        self.stones |= 1 << stone | 1 << to;
        true
    }
}

/// The index of the `n`th set bit of `bits`, lowest first.
fn nth_bit(mut bits: u16, n: usize) -> u8 {
    for _ in 0..n {
        bits &= bits - 1;
    }
    bits.trailing_zeros() as u8
}

/// Calls `f` with every group of legal moves of the side to move holding
/// `hand`, in the order [`for_each_move`] lists their moves.
pub(crate) fn for_each_group(
    board: &Board,
    hand: &[Card],
    deck_len: [usize; 2],
    mut f: impl FnMut(Group) -> ControlFlow<()>,
) -> ControlFlow<()> {
    if board.outcome().is_some() {
        return ControlFlow::Continue(());
    }
    let draws = draw_options(board, deck_len);
    let group = |claims: u16, free: u16, action: Action| Group {
        claims,
        free,
        action,
        stones: 0,
        draws: if draws_after(&action) {
            draws
        } else {
            Draws::one(None)
        },
    };
    if board.variant.expert() {
        // Claims first, then the card on the table as claimed.
        let pre = if board.phase == Phase::Return {
            0
        } else {
            board.claimable_set(board.to_move)
        };
        let mut sub = pre;
        loop {
            let claimed = with_claims(board, sub);
            for action in actions(&claimed, hand, deck_len) {
                f(group(sub, 0, action))?;
            }
            if sub == 0 {
                break;
            }
            sub = (sub - 1) & pre;
        }
    } else {
        let mut claims = ClaimsAfter::new(board, board.unseen_pool(), hand);
        let clan_only = !hand.is_empty() && hand.iter().all(|c| c.is_clan());
        if board.phase == Phase::Play && clan_only {
            let (room, completing) = room_of(board);
            if room != 0 {
                return clan_groups(hand, (room, completing), &mut claims, draws, f);
            }
        }
        let mut pending: Option<Group> = None;
        for action in actions(board, hand, deck_len) {
            let free = claims.of(&action);
            if pending.as_mut().is_some_and(|g| g.merge(&action, free)) {
                continue;
            }
            if let Some(g) = pending.replace(group(0, free, action)) {
                f(g)?;
            }
        }
        if let Some(g) = pending {
            f(g)?;
        }
    }
    ControlFlow::Continue(())
}

/// The stones the side to move may add a card to, and those among them its
/// next card completes (bit i: stone i), in one pass over the table.
fn room_of(board: &Board) -> (u16, u16) {
    let me = board.to_move;
    let (mut room, mut completing) = (0, 0);
    for (i, st) in board.stones.iter().enumerate() {
        if st.has_room(me) {
            room |= 1 << i;
            if st.one_short(me) {
                completing |= 1 << i;
            }
        }
    }
    (room, completing)
}

/// [`for_each_group`] for a hand of clan cards only (every hand of
/// `classic`) with `room` (bit i: stone i takes a card), `completing` among
/// them: the same groups, each card's claims on the stones it does not
/// complete worked out once. A card's plays on consecutive stones with the
/// same claims are gathered as (claims, stones) in registers: an action
/// built in memory and read back at once stalls the loop (a fifth of a
/// random game's time).
fn clan_groups(
    hand: &[Card],
    (room, completing): (u16, u16),
    claims: &mut ClaimsAfter,
    draws: Draws,
    mut f: impl FnMut(Group) -> ControlFlow<()>,
) -> ControlFlow<()> {
    let group = |card, free, stones: u16| Group {
        claims: 0,
        free,
        action: Action::Play {
            card,
            stone: stones.trailing_zeros() as u8,
        },
        stones: if stones.count_ones() > 1 { stones } else { 0 },
        draws,
    };
    for card in distinct(hand) {
        let untouched = claims.untouched_by(card);
        let mut run: Option<(u16, u16)> = None;
        let mut stones = room;
        while stones != 0 {
            let stone = stones.trailing_zeros() as u8;
            stones &= stones - 1;
            let free = if completing & 1 << stone != 0 {
                claims.play(card, stone)
            } else {
                untouched & !(1 << stone)
            };
            match &mut run {
                Some((same, stones)) if *same == free => *stones |= 1 << stone,
                _ => {
                    if let Some((free, stones)) = run.replace((free, 1 << stone)) {
                        f(group(card, free, stones))?;
                    }
                }
            }
        }
        if let Some((free, stones)) = run {
            f(group(card, free, stones))?;
        }
    }
    ControlFlow::Continue(())
}

/// Calls `f` with every legal move of the side to move holding `hand`.
pub(crate) fn for_each_move(
    board: &Board,
    hand: &[Card],
    deck_len: [usize; 2],
    f: &mut dyn FnMut(Move) -> ControlFlow<()>,
) -> ControlFlow<()> {
    for_each_group(board, hand, deck_len, |g| {
        for n in 0..g.len() {
            f(g.nth(n))?;
        }
        ControlFlow::Continue(())
    })
}

/// The legal move at index `pick(n)` of the `n` [`for_each_move`] lists
/// (`None` when there is none), counted by groups, not listed one by one.
pub(crate) fn pick_move(
    board: &Board,
    hand: &[Card],
    deck_len: [usize; 2],
    pick: impl FnOnce(usize) -> usize,
) -> Option<Move> {
    let mut groups = Vec::with_capacity(64);
    let _ = for_each_group(board, hand, deck_len, |g| {
        groups.push(g);
        ControlFlow::Continue(())
    });
    let total = groups.iter().map(Group::len).sum::<usize>();
    if total == 0 {
        return None;
    }
    let mut n = pick(total);
    for g in groups {
        if n < g.len() {
            return Some(g.nth(n));
        }
        n -= g.len();
    }
    None
}

/// The moves that claim everything they can, one per action (of `claimed`,
/// the board after the expert's opening claims `pre`), drawing from `prefer`
/// when that deck is a choice (else the only choice).
pub(crate) fn claim_all_actions(
    board: &Board,
    hand: &[Card],
    deck_len: [usize; 2],
) -> (u16, Vec<Action>) {
    if board.variant.expert() && board.phase == Phase::Play {
        let pre = board.claimable_set(board.to_move);
        (pre, actions(&with_claims(board, pre), hand, deck_len))
    } else {
        (0, actions(board, hand, deck_len))
    }
}

/// The move playing `action` (from [`claim_all_actions`], with its `pre`
/// claims) and claiming everything it can, drawing from `prefer` when that
/// deck is a choice (else the only choice); `claims_after` is for `board`.
pub(crate) fn full_claim_move(
    board: &Board,
    claims_after: &mut ClaimsAfter,
    pre: u16,
    action: Action,
    deck_len: [usize; 2],
    prefer: Deck,
) -> Move {
    let claims = if board.variant.expert() {
        pre
    } else {
        claims_after.of(&action)
    };
    let draw = if draws_after(&action) {
        let opts = draw_options(board, deck_len);
        if opts.contains(&Some(prefer)) {
            Some(prefer)
        } else {
            opts[0]
        }
    } else {
        None
    };
    Move {
        claims,
        action,
        draw,
    }
}
