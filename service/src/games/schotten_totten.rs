//! Schotten Totten's messages: a referee's full state (no viewer) or a
//! player's view (a viewer), each the engine's [`Setup`] or [`ViewSetup`]
//! field for field and validated by the engine; a move is its typed action,
//! claims and draw. Cards are read with [`Card::parse`], stones numbered as
//! the engine numbers them ([`stone_index`]).

use caber_engine::quote;

use caber_engine::catalog::{self, GameInfo};
use caber_engine::schotten_totten::move_notation::{stone_index, stone_number};
use caber_engine::schotten_totten::{
    listed_deck, Action, Card, Deck, DeckCard, DeckListingError, FullState, HandCard, Move,
    Position, Setup, StoneSetup, TableSetup, View, ViewDeck, ViewHand, ViewSetup,
};
use caber_engine::Player;
use tonic::Status;

use super::{Adapter, KeptSearcher, KeptSearchers};
use crate::convert::{self, side};
use crate::errors;
use crate::kept_tables::KeptTables;
use crate::proto;
use crate::proto::position::State;
use crate::proto::r#move::Kind;
use crate::proto::schotten_totten_move::Action as A;

/// Schotten Totten's adapter.
pub struct SchottenTotten;

const STATE_FIELD: &str = "position.schotten_totten";
const MOVE: &str = "move.schotten_totten";

fn invalid(field: &str, problem: impl std::fmt::Display) -> Status {
    Status::invalid_argument(format!("{field}: {problem}"))
}

/// A card by its name; errors name the field.
fn card(field: &str, text: &str) -> Result<Card, Status> {
    Card::parse(text.trim()).ok_or_else(|| {
        invalid(
            field,
            format!("{} is not a card (e.g. G5, JOKER)", quote(text)),
        )
    })
}

fn cards(field: &str, texts: &[String]) -> Result<Vec<Card>, Status> {
    texts
        .iter()
        .enumerate()
        .map(|(i, t)| card(&format!("{field}[{i}]"), t))
        .collect()
}

/// A stone by its number (1-based); errors name the field.
fn stone(field: &str, number: u32) -> Result<u8, Status> {
    stone_index(number).map_err(|e| invalid(field, e))
}

fn table(m: &proto::SchottenTottenPosition) -> Result<TableSetup, Status> {
    let side_to_move =
        convert::required_side(&format!("{STATE_FIELD}.side_to_move"), m.side_to_move)?;
    let stones = m
        .stones
        .iter()
        .enumerate()
        .map(|(i, st)| {
            let f = format!("{STATE_FIELD}.stones[{i}]");
            Ok(StoneSetup {
                sides: [
                    cards(&format!("{f}.first"), &st.first)?,
                    cards(&format!("{f}.second"), &st.second)?,
                ],
                completed_first: convert::optional_side(
                    &format!("{f}.completed_first"),
                    st.completed_first,
                )?,
                blind: st.blind,
                mud: st.mud,
                claimed: convert::optional_side(&format!("{f}.claimed"), st.claimed)?,
            })
        })
        .collect::<Result<Vec<_>, Status>>()?;
    Ok(TableSetup {
        side_to_move,
        recruiter_return_pending: m.recruiter_return_pending,
        passes: m.passes,
        tactics_played: [m.tactics_played_first, m.tactics_played_second],
        stones,
        discard: cards(&format!("{STATE_FIELD}.discard"), &m.discard)?,
    })
}

const HANDS: [&str; 2] = ["hand_first", "hand_second"];
const DECKS: [&str; 2] = ["clan_deck", "tactic_deck"];

fn full_setup(m: &proto::SchottenTottenPosition) -> Result<Setup, Status> {
    let mut hands: [Vec<HandCard>; 2] = Default::default();
    for (k, hand) in [&m.hand_first, &m.hand_second].into_iter().enumerate() {
        let field = format!("{STATE_FIELD}.{}", HANDS[k]);
        let Some(hand) = hand else { continue };
        if hand.unknown > 0 {
            return Err(invalid(
                &format!("{field}.unknown"),
                "a full state has no unknown cards (give a viewer for a view)",
            ));
        }
        for (i, hc) in hand.cards.iter().enumerate() {
            hands[k].push(HandCard {
                card: card(&format!("{field}.cards[{i}].card"), &hc.card)?,
                known_to_opponent: hc.known_to_opponent,
            });
        }
    }
    let mut decks: [Vec<DeckCard>; 2] = Default::default();
    for (d, deck) in [&m.clan_deck, &m.tactic_deck].into_iter().enumerate() {
        let field = format!("{STATE_FIELD}.{}", DECKS[d]);
        let Some(deck) = deck else { continue };
        let mut listed = Vec::with_capacity(deck.cards.len());
        for (i, dc) in deck.cards.iter().enumerate() {
            let known_to = [dc.known_to_first, dc.known_to_second];
            let c = card(&format!("{field}.cards[{i}].card"), &dc.card)?;
            listed.push((dc.position, DeckCard::new(c, known_to)));
        }
        decks[d] = listed_deck(deck.size, listed).map_err(|e| match e {
            DeckListingError::Place { index, .. } => {
                invalid(&format!("{field}.cards[{index}].position"), e)
            }
            DeckListingError::Size { .. } => invalid(&format!("{field}.size"), e),
        })?;
    }
    Ok(Setup {
        table: table(m)?,
        hands,
        decks,
    })
}

fn view_setup(viewer: Player, m: &proto::SchottenTottenPosition) -> Result<ViewSetup, Status> {
    let mut hands: [ViewHand; 2] = Default::default();
    for (k, hand) in [&m.hand_first, &m.hand_second].into_iter().enumerate() {
        let Some(hand) = hand else { continue };
        let field = format!("{STATE_FIELD}.{}", HANDS[k]);
        hands[k] = ViewHand {
            known: hand
                .cards
                .iter()
                .enumerate()
                .map(|(i, hc)| card(&format!("{field}.cards[{i}].card"), &hc.card))
                .collect::<Result<_, _>>()?,
            unknown: hand.unknown,
        };
    }
    let mut decks: [ViewDeck; 2] = Default::default();
    for (d, deck) in [&m.clan_deck, &m.tactic_deck].into_iter().enumerate() {
        let Some(deck) = deck else { continue };
        let field = format!("{STATE_FIELD}.{}", DECKS[d]);
        decks[d] = ViewDeck {
            size: deck.size,
            known: deck
                .cards
                .iter()
                .enumerate()
                .map(|(i, dc)| {
                    Ok((
                        dc.position,
                        card(&format!("{field}.cards[{i}].card"), &dc.card)?,
                    ))
                })
                .collect::<Result<_, Status>>()?,
        };
    }
    Ok(ViewSetup {
        viewer,
        table: table(m)?,
        hands,
        decks,
    })
}

/// The message of a position: its table, whose view (none: a full state),
/// both hands and both decks.
fn message(
    t: TableSetup,
    viewer: Option<Player>,
    [hand_first, hand_second]: [proto::SchottenTottenHand; 2],
    [clan_deck, tactic_deck]: [proto::SchottenTottenDeckState; 2],
) -> proto::SchottenTottenPosition {
    let names = |cards: &[Card]| cards.iter().map(|c| c.to_string()).collect();
    proto::SchottenTottenPosition {
        viewer: side(viewer),
        side_to_move: side(Some(t.side_to_move)),
        recruiter_return_pending: t.recruiter_return_pending,
        passes: t.passes,
        tactics_played_first: t.tactics_played[0],
        tactics_played_second: t.tactics_played[1],
        stones: t
            .stones
            .iter()
            .map(|st| proto::SchottenTottenStone {
                first: names(&st.sides[0]),
                second: names(&st.sides[1]),
                completed_first: side(st.completed_first),
                blind: st.blind,
                mud: st.mud,
                claimed: side(st.claimed),
            })
            .collect(),
        discard: names(&t.discard),
        hand_first: Some(hand_first),
        hand_second: Some(hand_second),
        clan_deck: Some(clan_deck),
        tactic_deck: Some(tactic_deck),
    }
}

fn full_message(s: &FullState) -> proto::SchottenTottenPosition {
    let setup = s.setup();
    let hands = setup.hands.map(|hand| proto::SchottenTottenHand {
        cards: hand
            .iter()
            .map(|h| proto::SchottenTottenHandCard {
                card: h.card.to_string(),
                known_to_opponent: h.known_to_opponent,
            })
            .collect(),
        unknown: 0,
    });
    let decks = setup.decks.map(|deck| proto::SchottenTottenDeckState {
        size: deck.len() as u32,
        cards: deck
            .iter()
            .enumerate()
            .map(|(i, dc)| proto::SchottenTottenDeckCard {
                position: i as u32,
                card: dc.card.to_string(),
                known_to_first: dc.known_to(Player::One),
                known_to_second: dc.known_to(Player::Two),
            })
            .collect(),
    });
    message(setup.table, None, hands, decks)
}

fn view_message(v: &View) -> proto::SchottenTottenPosition {
    let setup = v.setup();
    let me = setup.viewer;
    let hands = setup.hands.map(|hand| proto::SchottenTottenHand {
        cards: hand
            .known
            .iter()
            .map(|c| proto::SchottenTottenHandCard {
                card: c.to_string(),
                known_to_opponent: false,
            })
            .collect(),
        unknown: hand.unknown,
    });
    let decks = setup.decks.map(|deck| proto::SchottenTottenDeckState {
        size: deck.size,
        cards: deck
            .known
            .iter()
            .map(|&(position, c)| proto::SchottenTottenDeckCard {
                position,
                card: c.to_string(),
                known_to_first: me == Player::One,
                known_to_second: me == Player::Two,
            })
            .collect(),
    });
    message(setup.table, Some(me), hands, decks)
}

fn count(field: &str, n: u32) -> Result<u8, Status> {
    u8::try_from(n).map_err(|_| invalid(field, format!("{n} is out of range")))
}

fn action(m: &proto::SchottenTottenMove) -> Result<Action, Status> {
    let c = |name: &str, text: &str| card(&format!("{MOVE}.{name}"), text);
    let s = |name: &str, n: u32| stone(&format!("{MOVE}.{name}"), n);
    Ok(
        match m
            .action
            .as_ref()
            .ok_or_else(|| errors::missing(&format!("{MOVE}.action")))?
        {
            A::Play(p) => Action::Play {
                card: c("play.card", &p.card)?,
                stone: s("play.stone", p.stone)?,
            },
            A::Recruiter(r) => Action::Recruiter {
                clan: count(&format!("{MOVE}.recruiter.clan"), r.clan)?,
                tactic: count(&format!("{MOVE}.recruiter.tactic"), r.tactic)?,
            },
            A::Strategist(st) => Action::Strategist {
                card: c("strategist.card", &st.card)?,
                from: s("strategist.from", st.from)?,
                to: match st.to {
                    0 => None,
                    n => Some(s("strategist.to", n)?),
                },
            },
            A::Banshee(b) => Action::Banshee {
                card: c("banshee.card", &b.card)?,
                stone: s("banshee.stone", b.stone)?,
            },
            A::Traitor(t) => Action::Traitor {
                card: c("traitor.card", &t.card)?,
                from: s("traitor.from", t.from)?,
                to: s("traitor.to", t.to)?,
            },
            A::ReturnCards(r) => {
                let field = format!("{MOVE}.return_cards.cards");
                let returned = cards(&field, &r.cards)?;
                if returned.len() > 2 {
                    return Err(invalid(
                        &field,
                        format!("{} cards given; a return lists at most two", returned.len()),
                    ));
                }
                Action::Return {
                    first: returned.first().copied(),
                    second: returned.get(1).copied(),
                }
            }
            A::Discard(text) => Action::Discard {
                card: c("discard", text)?,
            },
            A::Pass(true) => Action::Pass,
            A::Pass(false) => {
                return Err(invalid(&format!("{MOVE}.pass"), "false is not an action"))
            }
        },
    )
}

impl Adapter for SchottenTotten {
    type Position = Position;
    type PositionMessage = proto::SchottenTottenPosition;
    type MoveMessage = proto::SchottenTottenMove;

    const FIELD: &'static str = "schotten_totten";
    const A_NAME: &'static str = "a Schotten Totten";

    fn info() -> GameInfo {
        catalog::info::<FullState>()
    }

    fn position_message(state: &State) -> Option<&proto::SchottenTottenPosition> {
        match state {
            State::SchottenTotten(m) => Some(m),
            _ => None,
        }
    }

    fn read_message(variant: &str, m: &proto::SchottenTottenPosition) -> Result<Position, Status> {
        let v = catalog::lookup_variant::<FullState>(variant)
            .map_err(|e| errors::variant("position.variant", &e))?;
        let problem = |e: caber_engine::SetupError| invalid(STATE_FIELD, e);
        match convert::optional_side(&format!("{STATE_FIELD}.viewer"), m.viewer)? {
            None => FullState::from_setup(v, &full_setup(m)?)
                .map(Position::Full)
                .map_err(problem),
            Some(viewer) => View::from_setup(v, &view_setup(viewer, m)?)
                .map(Position::View)
                .map_err(problem),
        }
    }

    fn write_message(position: &Position) -> State {
        State::SchottenTotten(match position {
            Position::Full(s) => full_message(s),
            Position::View(v) => view_message(v),
        })
    }

    fn move_message(kind: &Kind) -> Option<&proto::SchottenTottenMove> {
        match kind {
            Kind::SchottenTotten(m) => Some(m),
            _ => None,
        }
    }

    fn read_move(position: &Position, m: &proto::SchottenTottenMove) -> Result<Move, Status> {
        let action = action(m)?;
        let draw = match convert::known_value(&format!("{MOVE}.draw"), m.draw)? {
            proto::SchottenTottenDeck::Clan => Some(Deck::Clan),
            proto::SchottenTottenDeck::Tactic => Some(Deck::Tactic),
            proto::SchottenTottenDeck::Unspecified => position
                .default_draw(&action)
                .map_err(|e| invalid(&format!("{MOVE}.draw"), e))?,
        };
        let mut mv = Move {
            claims: 0,
            action,
            draw,
        };
        for (i, &n) in m.claims.iter().enumerate() {
            mv.claim(stone(&format!("{MOVE}.claims[{i}]"), n)?);
        }
        Ok(mv)
    }

    /// Stones 1-based, as the API numbers them.
    fn write_move(mv: &Move) -> Kind {
        let s = stone_number;
        let action = match mv.action {
            Action::Play { card, stone } => A::Play(proto::SchottenTottenPlay {
                card: card.to_string(),
                stone: s(stone),
            }),
            Action::Recruiter { clan, tactic } => A::Recruiter(proto::SchottenTottenRecruiter {
                clan: clan.into(),
                tactic: tactic.into(),
            }),
            Action::Strategist { card, from, to } => {
                A::Strategist(proto::SchottenTottenStrategist {
                    card: card.to_string(),
                    from: s(from),
                    to: to.map_or(0, s),
                })
            }
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
        Kind::SchottenTotten(proto::SchottenTottenMove {
            action: Some(action),
            claims: mv.claimed().map(s).collect(),
            draw: draw as i32,
        })
    }

    fn kept(all: &KeptSearchers) -> &KeptTables<KeptSearcher<Self>> {
        &all.schotten_totten
    }

    fn diagram(position: &Position) -> String {
        position.diagram()
    }

    fn svg(position: &Position, last_move: Option<&Move>) -> String {
        position.svg(last_move)
    }

    const HIDDEN_INFORMATION: bool = true;

    fn view(position: &Position, player: Option<Player>) -> Result<Position, Status> {
        position
            .view_of(player)
            .map(Position::View)
            .map_err(|problem| invalid("position", problem))
    }

    /// The cards gone from the top of the decks (only the mover draws, and
    /// no move both draws and returns cards): the clan deck's, then the
    /// tactic deck's, each from the top down.
    fn drawn(before: &Position, after: &Position) -> Vec<String> {
        let (Position::Full(before), Position::Full(after)) = (before, after) else {
            return Vec::new();
        };
        let mut drawn = Vec::new();
        for deck in [Deck::Clan, Deck::Tactic] {
            let cards = before.deck(deck);
            let left = after.deck_len(deck).min(cards.len());
            drawn.extend(cards[left..].iter().rev().map(|d| d.card.to_string()));
        }
        drawn
    }

    /// Of a full state, the side to move's view's (the view a search reads).
    fn unseen(position: &Position) -> Vec<String> {
        let view = match position {
            Position::Full(s) => &s.view(s.board().to_move),
            Position::View(v) => v,
        };
        let mut names: Vec<String> = view.unseen().iter().map(|c| c.to_string()).collect();
        names.dedup();
        names
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use caber_engine::catalog::ByName;
    use caber_engine::playable::Playable;

    use super::*;

    type St = SchottenTotten;

    /// Every legal move met in seeded tactics and expert games, both from the
    /// full state and from the mover's view, goes to its structured form and
    /// back to the same move (and text); every kind of action is met.
    #[test]
    fn every_kind_of_move_round_trips_through_its_message() {
        let mut kinds = BTreeSet::new();
        for (variant, seed) in [("tactics", 1), ("tactics", 2), ("expert", 3), ("expert", 4)] {
            let mut position = Position::start_named(variant, seed).unwrap();
            let mut turn = 0;
            while position.outcome().is_none() && turn < 300 {
                turn += 1;
                let mover = position.side_to_move();
                let view = St::view(&position, Some(mover)).unwrap();
                let mut moves = Vec::new();
                position.legal_moves(&mut moves);
                let texts: Vec<String> = moves.iter().map(|m| position.move_text(m)).collect();
                for p in [&position, &view] {
                    for (mv, text) in moves.iter().zip(&texts) {
                        let Kind::SchottenTotten(m) = St::write_move(mv) else {
                            panic!("{text}");
                        };
                        let action = format!("{:?}", m.action);
                        kinds.insert(action.split('(').nth(1).unwrap_or("").to_string());
                        let back = St::read_move(p, &m).unwrap();
                        let applied = p.apply(&back).unwrap();
                        assert_eq!(&p.move_text(&applied.played), text);
                    }
                }
                // Prefer ruses so that every kind of action comes up.
                let ruses = ["p:RECRUITER", "p:TRAITOR", "p:BANSHEE", "p:STRATEGIST"];
                let pick = ruses
                    .iter()
                    .find_map(|r| texts.iter().position(|m| m.contains(r)))
                    .unwrap_or(turn % moves.len());
                position = position.apply(&moves[pick]).unwrap().position;
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
            let full = Position::start_named(variant, 9).unwrap();
            let mut moves = Vec::new();
            full.legal_moves(&mut moves);
            let after = full.apply(&moves[3]).unwrap().position;
            for p in [full, after] {
                let viewed = [Player::One, Player::Two].map(|s| St::view(&p, Some(s)).unwrap());
                for q in std::iter::once(&p).chain(&viewed) {
                    let State::SchottenTotten(m) = St::write_message(q) else {
                        panic!("{q:?}");
                    };
                    let back = St::read_message(variant, &m).unwrap();
                    assert_eq!(back.notation(), q.notation());
                    assert_eq!(&back, q);
                }
            }
        }
    }
}
