//! Schotten Totten's structured messages: a referee's full state or a
//! player's view. Written from the engine's public accessors
//! ([`FullState::board`], [`FullState::hand_cards`], [`FullState::deck`],
//! [`View::hand`], [`View::opponent_known`], [`View::deck_known`], ...); read
//! back by writing the fields in the engine's text notation (cards checked one
//! by one, so errors name the field) and validating it with the engine's
//! constructors [`FullState::from_setup`] and [`View::from_notation`], which
//! hold every rule. Moves go the same way through the engine's move notation.

use caber_engine::catalog::{self, AnyPosition};
use caber_engine::schotten_totten::any::{as_full_state, as_view, boxed_full, boxed_view};
use caber_engine::schotten_totten::board::{Board, Deck, Phase, Stone};
use caber_engine::schotten_totten::{Action, Card, FullState, Move, View};
use caber_engine::{Game, Player};
use tonic::Status;

use crate::convert::side;
use crate::errors;
use crate::proto;
use crate::proto::position::State;
use crate::proto::r#move::Kind;

/// Most unknown cards a hand message may announce (hands hold at most 9 or so).
const MAX_UNKNOWN: u32 = 64;

fn invalid(field: &str, problem: impl std::fmt::Display) -> Status {
    Status::invalid_argument(format!("{field}: {problem}"))
}

/// A card in the engine's notation, normalized; errors name the field.
fn card(field: &str, text: &str) -> Result<String, Status> {
    Card::parse(text.trim())
        .map(|c| c.to_string())
        .ok_or_else(|| invalid(field, format!("{text:?} is not a card (e.g. G5, JOKER)")))
}

fn cards(field: &str, texts: &[String]) -> Result<Vec<String>, Status> {
    texts
        .iter()
        .enumerate()
        .map(|(i, t)| card(&format!("{field}[{i}]"), t))
        .collect()
}

fn player(side: proto::Side) -> Option<Player> {
    match side {
        proto::Side::One => Some(Player::One),
        proto::Side::Two => Some(Player::Two),
        proto::Side::Unspecified => None,
    }
}

fn pnum(p: Player) -> char {
    match p {
        Player::One => '1',
        Player::Two => '2',
    }
}

fn opt_side(p: Option<Player>) -> i32 {
    p.map_or(proto::Side::Unspecified, side) as i32
}

const FIELD: &str = "position.schotten_totten";

/// The public part (`turn:.. pass:.. tc:.. st:..`) of the notation.
fn board_text(m: &proto::SchottenTottenPosition) -> Result<String, Status> {
    let to_move = player(m.side_to_move())
        .ok_or_else(|| errors::missing(&format!("{FIELD}.side_to_move")))?;
    if m.stones.len() != 9 {
        return Err(invalid(
            &format!("{FIELD}.stones"),
            format!("{} stones given; there are 9", m.stones.len()),
        ));
    }
    let mut stones = Vec::new();
    for (i, st) in m.stones.iter().enumerate() {
        let f = format!("{FIELD}.stones[{i}]");
        let first = player(st.completed_first());
        let claim = player(st.claimed()).map_or('-', pnum);
        let side_text = |p: Player, list: &[String], name: &str| -> Result<String, Status> {
            let mut s = cards(&format!("{f}.{name}"), list)?.join(",");
            if first == Some(p) {
                s.push('*');
            }
            Ok(s)
        };
        let one = side_text(Player::One, &st.first, "first")?;
        let two = side_text(Player::Two, &st.second, "second")?;
        let modes = format!(
            "{}{}",
            if st.blind { "B" } else { "" },
            if st.mud { "M" } else { "" }
        );
        stones.push(format!("{one}:{modes}:{two}:{claim}"));
    }
    Ok(format!(
        "turn:{}{} pass:{} tc:{},{} st:{}",
        pnum(to_move),
        if m.recruiter_return_pending { "r" } else { "" },
        m.passes,
        m.tactics_played_first,
        m.tactics_played_second,
        stones.join("/")
    ))
}

fn hand_text(
    field: &str,
    hand: Option<&proto::SchottenTottenHand>,
    full: bool,
) -> Result<String, Status> {
    let Some(hand) = hand else {
        return Ok(String::new());
    };
    let mut out = Vec::new();
    for (i, hc) in hand.cards.iter().enumerate() {
        let c = card(&format!("{field}.cards[{i}].card"), &hc.card)?;
        out.push(if full && hc.known_to_opponent {
            format!("{c}!")
        } else {
            c
        });
    }
    if full && hand.unknown > 0 {
        return Err(invalid(
            &format!("{field}.unknown"),
            "a full state has no unknown cards (give a viewer for a view)",
        ));
    }
    if hand.unknown > MAX_UNKNOWN {
        return Err(invalid(
            &format!("{field}.unknown"),
            format!("{} cards is more than a hand holds", hand.unknown),
        ));
    }
    out.extend(std::iter::repeat_n("?".to_string(), hand.unknown as usize));
    Ok(out.join(","))
}

fn deck_text(
    field: &str,
    deck: Option<&proto::SchottenTottenDeckState>,
    full: bool,
) -> Result<String, Status> {
    let empty = proto::SchottenTottenDeckState::default();
    let deck = deck.unwrap_or(&empty);
    let mut out = Vec::new();
    for (i, dc) in deck.cards.iter().enumerate() {
        let f = format!("{field}.cards[{i}]");
        let c = card(&format!("{f}.card"), &dc.card)?;
        if full {
            if dc.position as usize != i {
                return Err(invalid(
                    &format!("{f}.position"),
                    format!("{} given; a full state lists the whole deck bottom first, so this card is at {i}", dc.position),
                ));
            }
            let mark = match (dc.known_to_first, dc.known_to_second) {
                (true, true) => "=12",
                (true, false) => "=1",
                (false, true) => "=2",
                (false, false) => "",
            };
            out.push(format!("{c}{mark}"));
        } else {
            out.push(format!("{}={c}", dc.position));
        }
    }
    if full {
        if deck.size as usize != deck.cards.len() {
            return Err(invalid(
                &format!("{field}.size"),
                format!("{} given but {} cards listed", deck.size, deck.cards.len()),
            ));
        }
        Ok(out.join(","))
    } else if out.is_empty() {
        Ok(deck.size.to_string())
    } else {
        Ok(format!("{}:{}", deck.size, out.join(",")))
    }
}

/// Builds a full state or a view from the structured message, through the engine's validation.
pub fn position(
    game: &str,
    variant: &str,
    m: &proto::SchottenTottenPosition,
) -> Result<Box<dyn AnyPosition>, Status> {
    super::same_game(game, FullState::NAME, FIELD, "a Schotten Totten")?;
    let v = catalog::lookup_variant::<FullState>(variant)
        .map_err(|e| errors::catalog("position.", "schotten_totten", &e))?;
    let viewer = player(m.viewer());
    let full = viewer.is_none();
    let head = viewer.map_or("full".to_string(), |p| format!("view:{}", pnum(p)));
    let text = format!(
        "{head} {} h1:{} h2:{} dc:{} dt:{} x:{}",
        board_text(m)?,
        hand_text(&format!("{FIELD}.hand_first"), m.hand_first.as_ref(), full)?,
        hand_text(
            &format!("{FIELD}.hand_second"),
            m.hand_second.as_ref(),
            full
        )?,
        deck_text(&format!("{FIELD}.clan_deck"), m.clan_deck.as_ref(), full)?,
        deck_text(
            &format!("{FIELD}.tactic_deck"),
            m.tactic_deck.as_ref(),
            full
        )?,
        cards(&format!("{FIELD}.discard"), &m.discard)?.join(","),
    );
    let problem = |e: caber_engine::SetupError| invalid(FIELD, e);
    if full {
        FullState::from_setup(v, &text)
            .map(boxed_full)
            .map_err(problem)
    } else {
        View::from_notation(v, &text)
            .map(boxed_view)
            .map_err(problem)
    }
}

fn stone_message(st: &Stone) -> proto::SchottenTottenStone {
    let names = |p: Player| st.sides[p.index()].iter().map(|c| c.to_string()).collect();
    proto::SchottenTottenStone {
        first: names(Player::One),
        second: names(Player::Two),
        completed_first: opt_side(st.first),
        blind: st.blind,
        mud: st.mud,
        claimed: opt_side(st.claimed),
    }
}

/// The message with the public part of `board` filled in.
fn board_message(board: &Board, viewer: Option<Player>) -> proto::SchottenTottenPosition {
    proto::SchottenTottenPosition {
        viewer: opt_side(viewer),
        side_to_move: side(board.to_move) as i32,
        recruiter_return_pending: board.phase == Phase::Return,
        passes: board.passes.into(),
        tactics_played_first: board.tactics_played[0].into(),
        tactics_played_second: board.tactics_played[1].into(),
        stones: board.stones.iter().map(stone_message).collect(),
        discard: board.discard.iter().map(|c| c.to_string()).collect(),
        ..Default::default()
    }
}

fn full_message(s: &FullState) -> proto::SchottenTottenPosition {
    let hand = |p: Player| proto::SchottenTottenHand {
        cards: s
            .hand_cards(p)
            .iter()
            .map(|h| proto::SchottenTottenHandCard {
                card: h.card.to_string(),
                known_to_opponent: h.known_to_opponent,
            })
            .collect(),
        unknown: 0,
    };
    let deck = |d: Deck| proto::SchottenTottenDeckState {
        size: s.deck_len(d) as u32,
        cards: s
            .deck(d)
            .iter()
            .enumerate()
            .map(|(i, dc)| proto::SchottenTottenDeckCard {
                position: i as u32,
                card: dc.card.to_string(),
                known_to_first: dc.known & 1 != 0,
                known_to_second: dc.known & 2 != 0,
            })
            .collect(),
    };
    proto::SchottenTottenPosition {
        hand_first: Some(hand(Player::One)),
        hand_second: Some(hand(Player::Two)),
        clan_deck: Some(deck(Deck::Clan)),
        tactic_deck: Some(deck(Deck::Tactic)),
        ..board_message(s.board(), None)
    }
}

fn view_message(v: &View) -> proto::SchottenTottenPosition {
    let known = |cards: &[Card], unknown: usize| proto::SchottenTottenHand {
        cards: cards
            .iter()
            .map(|c| proto::SchottenTottenHandCard {
                card: c.to_string(),
                known_to_opponent: false,
            })
            .collect(),
        unknown: unknown as u32,
    };
    let own = known(v.hand(), v.hand_unknown());
    let opp = known(
        v.opponent_known(),
        v.opponent_hand_size()
            .saturating_sub(v.opponent_known().len()),
    );
    let (first, second) = match v.viewer() {
        Player::One => (own, opp),
        Player::Two => (opp, own),
    };
    let me = v.viewer();
    let deck = |d: Deck| proto::SchottenTottenDeckState {
        size: v.deck_len(d) as u32,
        cards: v
            .deck_known(d)
            .iter()
            .map(|&(pos, c)| proto::SchottenTottenDeckCard {
                position: pos.into(),
                card: c.to_string(),
                known_to_first: me == Player::One,
                known_to_second: me == Player::Two,
            })
            .collect(),
    };
    proto::SchottenTottenPosition {
        hand_first: Some(first),
        hand_second: Some(second),
        clan_deck: Some(deck(Deck::Clan)),
        tactic_deck: Some(deck(Deck::Tactic)),
        ..board_message(v.board(), Some(me))
    }
}

/// The structured state of a position, if it is a Schotten Totten full state or view.
pub fn state(position: &dyn AnyPosition) -> Option<State> {
    let message = match (as_full_state(position), as_view(position)) {
        (Some(s), _) => full_message(s),
        (_, Some(v)) => view_message(v),
        _ => return None,
    };
    Some(State::SchottenTotten(message))
}

/// What `View` answers: `player`'s view of a full state (`None`: the side to move's).
pub fn view_of(
    position: &dyn AnyPosition,
    player: Option<Player>,
) -> Result<Box<dyn AnyPosition>, Status> {
    if let Some(state) = as_full_state(position) {
        return Ok(boxed_view(
            state.view(player.unwrap_or(state.side_to_move())),
        ));
    }
    let problem = if as_view(position).is_some() {
        "is already a player's view; give the referee's full state".to_string()
    } else {
        format!(
            "{} has no hidden information: a position is its own view",
            position.game()
        )
    };
    Err(invalid("position", problem))
}

/// The text of a structured move, written for the engine to read.
pub fn move_text(
    position: &dyn AnyPosition,
    m: &proto::SchottenTottenMove,
) -> Result<String, Status> {
    use proto::schotten_totten_move::Action as A;
    if as_full_state(position).is_none() && as_view(position).is_none() {
        return Err(invalid(
            "move.schotten_totten",
            format!(
                "a Schotten Totten move given for a {} position",
                position.game()
            ),
        ));
    }
    const F: &str = "move.schotten_totten";
    let c = |name: &str, text: &str| card(&format!("{F}.{name}"), text);
    let action = match m
        .action
        .as_ref()
        .ok_or_else(|| errors::missing(&format!("{F}.action")))?
    {
        A::Play(p) => format!("p:{}@{}", c("play.card", &p.card)?, p.stone),
        A::Recruiter(r) => format!("p:RECRUITER:{}+{}", r.clan, r.tactic),
        A::Strategist(s) => {
            let to = if s.to == 0 {
                "x".to_string()
            } else {
                s.to.to_string()
            };
            format!(
                "p:STRATEGIST:{}@{}>{to}",
                c("strategist.card", &s.card)?,
                s.from
            )
        }
        A::Banshee(b) => format!("p:BANSHEE:{}@{}", c("banshee.card", &b.card)?, b.stone),
        A::Traitor(t) => format!(
            "p:TRAITOR:{}@{}>{}",
            c("traitor.card", &t.card)?,
            t.from,
            t.to
        ),
        A::ReturnCards(r) => format!(
            "r:{}",
            cards(&format!("{F}.return_cards.cards"), &r.cards)?.join(",")
        ),
        A::Discard(card) => format!("x:{}", c("discard", card)?),
        A::Pass(true) => "pass".to_string(),
        A::Pass(false) => return Err(invalid(&format!("{F}.pass"), "false is not an action")),
    };
    let mut parts = vec![action];
    if !m.claims.is_empty() {
        let stones: Vec<String> = m.claims.iter().map(u32::to_string).collect();
        parts.push(format!("c:{}", stones.join(",")));
    }
    match m.draw() {
        proto::SchottenTottenDeck::Clan => parts.push("d:clan".into()),
        proto::SchottenTottenDeck::Tactic => parts.push("d:tactic".into()),
        proto::SchottenTottenDeck::Unspecified => {}
    }
    Ok(parts.join(" "))
}

/// The structured form of an engine move (stones 1-based).
fn move_message(mv: &Move) -> proto::SchottenTottenMove {
    use proto::schotten_totten_move::Action as A;
    let s = |i: u8| u32::from(i) + 1;
    let action = match mv.action {
        Action::Play { card, stone } => A::Play(proto::SchottenTottenPlay {
            card: card.to_string(),
            stone: s(stone),
        }),
        Action::Recruiter { clan, tactic } => A::Recruiter(proto::SchottenTottenRecruiter {
            clan: clan.into(),
            tactic: tactic.into(),
        }),
        Action::Strategist { card, from, to } => A::Strategist(proto::SchottenTottenStrategist {
            card: card.to_string(),
            from: s(from),
            to: to.map_or(0, s),
        }),
        Action::Banshee { card, stone } => A::Banshee(proto::SchottenTottenBanshee {
            card: card.to_string(),
            stone: s(stone),
        }),
        Action::Traitor { card, from, to } => A::Traitor(proto::SchottenTottenTraitor {
            card: card.to_string(),
            from: s(from),
            to: s(to),
        }),
        Action::Return { first, second } => A::ReturnCards(proto::SchottenTottenReturn {
            cards: [first, second]
                .into_iter()
                .flatten()
                .map(|c| c.to_string())
                .collect(),
        }),
        Action::Discard { card } => A::Discard(card.to_string()),
        Action::Pass => A::Pass(true),
    };
    let draw = match mv.draw {
        Some(Deck::Clan) => proto::SchottenTottenDeck::Clan,
        Some(Deck::Tactic) => proto::SchottenTottenDeck::Tactic,
        None => proto::SchottenTottenDeck::Unspecified,
    };
    proto::SchottenTottenMove {
        action: Some(action),
        claims: (0..9u8)
            .filter(|i| mv.claims & (1 << i) != 0)
            .map(s)
            .collect(),
        draw: draw as i32,
    }
}

/// The structured form of a move given as text, if `position` is a Schotten Totten position.
pub fn move_kind(position: &dyn AnyPosition, text: &str) -> Option<Kind> {
    let mv = match (as_full_state(position), as_view(position)) {
        (Some(s), _) => s.parse_move(text).ok()?,
        (_, Some(v)) => v.parse_move(text).ok()?,
        _ => return None,
    };
    Some(Kind::SchottenTotten(move_message(&mv)))
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use super::*;

    /// Every legal move met in seeded tactics and expert games, both from the
    /// full state and from the mover's view, goes to its structured form and
    /// back to the same text; every kind of action is met.
    #[test]
    fn every_kind_of_move_round_trips_through_its_message() {
        let mut kinds = BTreeSet::new();
        for (variant, seed) in [("tactics", 1), ("tactics", 2), ("expert", 3), ("expert", 4)] {
            let mut position = catalog::new_game(FullState::NAME, variant, seed).unwrap();
            let mut turn = 0;
            while position.outcome().is_none() && turn < 300 {
                turn += 1;
                let mover = position.side_to_move();
                let view = view_of(&*position, Some(mover)).unwrap();
                let moves = position.legal_moves();
                for p in [&position, &view] {
                    for text in &moves {
                        let Some(Kind::SchottenTotten(m)) = move_kind(&**p, text) else {
                            panic!("{text}");
                        };
                        let action = format!("{:?}", m.action);
                        kinds.insert(action.split('(').nth(1).unwrap_or("").to_string());
                        let back = move_text(&**p, &m).unwrap();
                        let applied = p.apply(&back).unwrap();
                        assert_eq!(&applied.move_text, text);
                    }
                }
                // Prefer ruses so that every kind of action comes up.
                let ruses = ["p:RECRUITER", "p:TRAITOR", "p:BANSHEE", "p:STRATEGIST"];
                let pick = ruses
                    .iter()
                    .find_map(|r| moves.iter().find(|m| m.contains(r)))
                    .unwrap_or(&moves[turn % moves.len()]);
                position = position.apply(pick).unwrap().position;
            }
        }
        for kind in [
            "Play",
            "Recruiter",
            "Strategist",
            "Banshee",
            "Traitor",
            "ReturnCards",
        ] {
            assert!(kinds.contains(kind), "{kind} never met: {kinds:?}");
        }
    }

    #[test]
    fn full_states_and_views_round_trip_through_their_messages() {
        for variant in ["classic", "tactics", "expert"] {
            let full = catalog::new_game(FullState::NAME, variant, 9).unwrap();
            let after = full.apply(&full.legal_moves()[3]).unwrap().position;
            for p in [full, after] {
                let viewed = [Player::One, Player::Two].map(|s| view_of(&*p, Some(s)).unwrap());
                for q in std::iter::once(&p).chain(&viewed) {
                    let Some(State::SchottenTotten(m)) = state(&**q) else {
                        panic!("{q:?}");
                    };
                    let back = position(FullState::NAME, variant, &m).unwrap();
                    assert_eq!(back.notation(), q.notation());
                }
            }
        }
    }
}
