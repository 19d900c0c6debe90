//! The move generator against a brute-force reference.

use super::*;
use crate::schotten_totten as st;

/// Whether `a` is a legal card action for the side to move, read straight
/// from the rules (no claims, no draw).
fn reference_action_ok(b: &st::Board, hand: &[Card], deck_len: [usize; 2], a: &Action) -> bool {
    let me = b.to_move;
    let opp = me.opponent();
    let holds = |k: Card| hand.contains(&k);
    let tactic_ok =
        b.variant.tactics() && b.tactics_played[me.index()] <= b.tactics_played[opp.index()];
    let open = |i: u8| b.stones[i as usize].claimed.is_none();
    let room = |i: u8| {
        open(i) && b.stones[i as usize].sides[me.index()].len() < b.stones[i as usize].required()
    };
    let on = |p: Player, i: u8, k: Card| b.stones[i as usize].sides[p.index()].contains(&k);
    match *a {
        Action::Play { card, stone } => {
            holds(card)
                && (card.is_clan() || tactic_ok)
                && if card.is_combat_mode() {
                    open(stone)
                        && !(card == Card::MUD && b.stones[stone as usize].mud)
                        && !(card == Card::BLIND && b.stones[stone as usize].blind)
                } else {
                    card.is_troop()
                        && room(stone)
                        && !(card == Card::JOKER
                            && b.stones
                                .iter()
                                .any(|s| s.sides[me.index()].contains(&Card::JOKER)))
                }
        }
        Action::Recruiter { clan, tactic } => {
            let (c, t) = (clan as usize, tactic as usize);
            holds(Card::RECRUITER)
                && tactic_ok
                && c <= deck_len[0]
                && t <= deck_len[1]
                && (c + t == 3 || (c, t) == (deck_len[0], deck_len[1]) && c + t < 3)
        }
        Action::Strategist { card, from, to } => {
            holds(Card::STRATEGIST)
                && tactic_ok
                && open(from)
                && on(me, from, card)
                && to.is_none_or(|t| t != from && room(t))
        }
        Action::Banshee { card, stone } => {
            holds(Card::BANSHEE) && tactic_ok && open(stone) && on(opp, stone, card)
        }
        Action::Traitor { card, from, to } => {
            holds(Card::TRAITOR)
                && tactic_ok
                && card.is_clan()
                && open(from)
                && on(opp, from, card)
                && room(to)
        }
        _ => false,
    }
}

/// Every legal move by brute force over the whole action space.
fn reference_moves(s: &FullState) -> Vec<Move> {
    let b = s.board();
    if b.outcome().is_some() {
        return Vec::new();
    }
    let me = b.to_move;
    let hand = s.hand(me);
    let deck_len = [s.deck_len(Deck::Clan), s.deck_len(Deck::Tactic)];
    let all_cards: Vec<Card> = Card::all().collect();
    let stones: Vec<u8> = (0..9).collect();
    let mut space = Vec::new();
    if b.phase == Phase::Return {
        let n = hand.len().min(2);
        for i in 0..hand.len() {
            for j in 0..hand.len() {
                if n == 2 && i != j {
                    space.push(Action::Return {
                        first: Some(hand[i]),
                        second: Some(hand[j]),
                    });
                }
            }
            if n == 1 {
                space.push(Action::Return {
                    first: Some(hand[i]),
                    second: None,
                });
            }
        }
        if n == 0 {
            space.push(Action::Return {
                first: None,
                second: None,
            });
        }
    }
    let mut out: Vec<Move> = Vec::new();
    let subsets = |set: u16| (0..512u16).filter(move |x| x & !set == 0);
    let draw_ok = |d: Option<Deck>| match d {
        None => deck_len == [0, 0],
        Some(Deck::Tactic) => b.variant.tactics() && deck_len[1] > 0,
        Some(Deck::Clan) => deck_len[0] > 0,
    };
    let draws = [None, Some(Deck::Clan), Some(Deck::Tactic)];
    let pre_sets: Vec<u16> = if b.variant.expert() && b.phase == Phase::Play {
        subsets(b.claimable_set(me)).collect()
    } else {
        vec![0]
    };
    for pre in pre_sets {
        let claimed = st::moves::with_claims(b, pre);
        let mut acts: Vec<Action> = Vec::new();
        if b.phase == Phase::Play {
            for &k in &all_cards {
                for &i in &stones {
                    acts.push(Action::Play { card: k, stone: i });
                    acts.push(Action::Banshee { card: k, stone: i });
                    for &t in &stones {
                        acts.push(Action::Strategist {
                            card: k,
                            from: i,
                            to: Some(t),
                        });
                        acts.push(Action::Traitor {
                            card: k,
                            from: i,
                            to: t,
                        });
                    }
                    acts.push(Action::Strategist {
                        card: k,
                        from: i,
                        to: None,
                    });
                }
            }
            for c in 0..=3 {
                for t in 0..=3 {
                    acts.push(Action::Recruiter { clan: c, tactic: t });
                }
            }
            acts.retain(|a| reference_action_ok(&claimed, &hand, deck_len, a));
            if acts.is_empty() {
                acts = hand
                    .iter()
                    .filter(|k| k.is_tactic())
                    .map(|&card| Action::Discard { card })
                    .collect();
            }
            if acts.is_empty() {
                acts.push(Action::Pass);
            }
        } else {
            acts = space.clone();
        }
        for a in acts {
            let post: Vec<u16> = if b.variant.expert() || matches!(a, Action::Recruiter { .. }) {
                vec![0]
            } else {
                let mut after = b.clone();
                st::moves::apply_table(&mut after, &a);
                subsets(after.claimable_set(me)).collect()
            };
            let draw_here = !matches!(
                a,
                Action::Recruiter { .. } | Action::Return { .. } | Action::Pass
            );
            for &claims in &post {
                for &d in &draws {
                    if (draw_here && draw_ok(d)) || (!draw_here && d.is_none()) {
                        let m = st::moves::canonical(Move {
                            claims: claims | pre,
                            action: a,
                            draw: d,
                        });
                        if !out.contains(&m) {
                            out.push(m);
                        }
                    }
                }
            }
        }
    }
    out
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(12))]

    /// Along random games the move generator lists exactly the moves the
    /// brute-force reference finds.
    #[test]
    fn generator_matches_reference(seed in proptest::prelude::any::<u64>(), v in 0usize..3) {
        let variant = [Variant::Classic, Variant::Tactics, Variant::Expert][v];
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut s = FullState::start(variant, seed);
        while s.outcome().is_none() {
            let mut fast = all_moves(&s);
            let mut slow = reference_moves(&s);
            let key = |m: &Move| format!("{m:?}");
            fast.sort_by_key(key);
            slow.sort_by_key(key);
            proptest::prop_assert_eq!(&fast, &slow, "in {}", s.to_notation());
            // A random playout's move at each index is the listed move there.
            let listed = all_moves(&s);
            for (i, m) in listed.iter().enumerate() {
                let picked = Game::pick_move(&s, |n| { assert_eq!(n, listed.len()); i }, &mut Vec::new());
                proptest::prop_assert_eq!(picked, Some(*m), "move {} in {}", i, s.to_notation());
            }
            let m = *fast.choose(&mut rng).expect("a move");
            s = s.play_unchecked(&m);
        }
    }
}
