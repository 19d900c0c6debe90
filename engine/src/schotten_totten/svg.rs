//! The SVG diagram of a full state or a view: the nine stones in a row with
//! second's cards above and first's below, combat modes and claims, both
//! hands (face-down cards for what the viewer does not know), deck sizes,
//! the discard pile and the last move.

use super::board::{Board, Deck, Phase};
use super::cards::Card;
use super::moves::{Action, Move};
use super::{FullState, View, PLAYER_NAMES};
use crate::game::{variant_name, Game, Player};
use crate::svg::{self, rect, text, Svg, Tag};

const LEFT: f64 = 72.0;
const COL: f64 = 68.0;
const CARD_W: f64 = 58.0;
const CARD_H: f64 = 26.0;
const SLOT: f64 = 30.0;
/// Card slots drawn on each side of a stone (4 with Mud Fight).
const SLOTS: f64 = 4.0;
const LINE: f64 = 18.0;

const HAND_TOP: f64 = 52.0;
const SIDE_TOP: f64 = HAND_TOP + CARD_H + 14.0;
const STONE_TOP: f64 = SIDE_TOP + SLOTS * SLOT + 6.0;
const STONE_H: f64 = 50.0;
const FIRST_TOP: f64 = STONE_TOP + STONE_H + 6.0;
const FIRST_HAND: f64 = FIRST_TOP + SLOTS * SLOT + 28.0;
const FOOTER: f64 = FIRST_HAND + CARD_H + 22.0;

const TACTIC_FILL: &str = "#fff4d6";
const TACTIC_INK: &str = "#5d4037";
const BACK: &str = "#6d4c41";
const STONE: &str = "#9e9e9e";
const GOLD: &str = "#e0a800";

/// A hand as drawn: the cards shown face up (and whether the holder's
/// opponent knows each), then `hidden` face-down cards.
struct Hand {
    cards: Vec<(Card, bool)>,
    hidden: usize,
    label: String,
}

/// A clan colour's card fill and text colour, in card colour order.
const CLAN: [(&str, &str); 6] = [
    ("#2e8b3a", "#ffffff"),
    ("#2a62c9", "#ffffff"),
    ("#d23a2a", "#ffffff"),
    ("#f2c200", "#3a2f00"),
    ("#7b3fa0", "#ffffff"),
    ("#e75a9b", "#ffffff"),
];

const CLAN_NAMES: [&str; 6] = ["green", "blue", "red", "yellow", "purple", "pink"];

/// The picture of a full state (see [`super::Position::svg`]): both hands.
pub(crate) fn full(s: &FullState, last: Option<(&Move, String)>) -> String {
    let hand = |p: Player| {
        let cards: Vec<_> = s
            .hand_cards(p)
            .iter()
            .map(|h| (h.card, h.known_to_opponent))
            .collect();
        Hand {
            label: format!("{} hand ({} cards)", PLAYER_NAMES[p.index()], cards.len()),
            cards,
            hidden: 0,
        }
    };
    let decks = [s.deck_len(Deck::Clan), s.deck_len(Deck::Tactic)];
    let hands = [hand(Player::One), hand(Player::Two)];
    draw(s.board(), "full state", hands, decks, last)
}

/// The picture of a view: the viewer's hand, and the opponent's face down
/// but for the cards the viewer knows.
pub(crate) fn view(v: &View, last: Option<(&Move, String)>) -> String {
    let me = v.viewer();
    let name = |p: Player| PLAYER_NAMES[p.index()];
    let mine = Hand {
        cards: v.hand().iter().map(|&c| (c, false)).collect(),
        hidden: v.hand_unknown(),
        label: format!(
            "{} hand, the viewer's ({} cards)",
            name(me),
            v.hand().len() + v.hand_unknown()
        ),
    };
    let known = v.opponent_known();
    let theirs = Hand {
        cards: known.iter().map(|&c| (c, false)).collect(),
        hidden: v.opponent_hand_size().saturating_sub(known.len()),
        label: format!(
            "{} hand ({} cards, {} known)",
            name(me.opponent()),
            v.opponent_hand_size(),
            known.len()
        ),
    };
    let hands = match me {
        Player::One => [mine, theirs],
        Player::Two => [theirs, mine],
    };
    let decks = [v.deck_len(Deck::Clan), v.deck_len(Deck::Tactic)];
    draw(
        v.board(),
        &format!("view of {}", name(me)),
        hands,
        decks,
        last,
    )
}

/// The picture; `whose` says whose knowledge it shows (`"full state"`, `"view of first"`).
fn draw(
    board: &Board,
    whose: &str,
    hands: [Hand; 2],
    decks: [usize; 2],
    last: Option<(&Move, String)>,
) -> String {
    let name = |p: Player| PLAYER_NAMES[p.index()];
    let variant = variant_name::<FullState>(board.variant);
    let mut turn = svg::turn_line(
        board.to_move,
        board.outcome().as_ref(),
        FullState::player_name,
    );
    if board.phase == Phase::Return && board.outcome().is_none() {
        turn.push_str(" (return two cards after Recruiter)");
    }
    let longest = hands
        .iter()
        .map(|h| h.cards.len() + h.hidden)
        .max()
        .unwrap_or(0);
    let width = (LEFT + 9.0 * COL + 12.0).max(LEFT + longest as f64 * (CARD_W + 6.0) + 12.0);
    let mut svg = Svg::new(
        width,
        FOOTER + 3.0 * LINE + 4.0,
        &format!("Schotten Totten ({variant}), {whose}: {turn}"),
    );
    let mut header = format!("{whose} · {turn} · passes {}", board.passes);
    if board.variant.tactics() {
        let [a, b] = board.tactics_played;
        header.push_str(&format!(" · tactic cards played: first {a}, second {b}"));
    }
    svg.add(
        text(12.0, 18.0, 13.0, "start", &header)
            .class("status")
            .fill(svg::INK),
    );
    let touched = last.as_ref().map(|(m, _)| played_on(m)).unwrap_or_default();
    for &i in &touched {
        svg.add(svg::last_move_mark(
            rect(
                column(i) - 4.0,
                SIDE_TOP - 4.0,
                CARD_W + 8.0,
                FIRST_TOP + SLOTS * SLOT - SIDE_TOP + 6.0,
            ),
            "played",
        ));
    }
    for (p, top) in [(Player::Two, SIDE_TOP), (Player::One, FIRST_TOP)] {
        let mid = top + SLOTS * SLOT / 2.0;
        svg.add(
            text(LEFT / 2.0, mid, 13.0, "middle", name(p))
                .class("side-label")
                .fill(svg::INK)
                .attr("font-weight", "bold"),
        );
    }
    for (i, stone) in board.stones.iter().enumerate() {
        let x = column(i);
        for p in [Player::One, Player::Two] {
            for (k, &card) in stone.sides[p.index()].iter().enumerate() {
                let y = match p {
                    Player::One => FIRST_TOP + k as f64 * SLOT + 2.0,
                    Player::Two => STONE_TOP - 6.0 - (k as f64 + 1.0) * SLOT + 2.0,
                };
                draw_card(
                    &mut svg,
                    (x, y),
                    Some(card),
                    &format!("table {}", name(p)),
                    false,
                );
            }
        }
        draw_stone(&mut svg, board, i);
        if last.as_ref().is_some_and(|(m, _)| m.claims & (1 << i) != 0) {
            svg.add(
                rect(x - 3.0, STONE_TOP - 3.0, CARD_W + 6.0, STONE_H + 6.0)
                    .class("last-move claimed")
                    .fill("none")
                    .stroke(svg::LAST_MOVE, 4.0)
                    .attr("rx", "10"),
            );
        }
    }
    for (p, y) in [(Player::Two, HAND_TOP), (Player::One, FIRST_HAND)] {
        let hand = &hands[p.index()];
        svg.add(
            text(LEFT + 5.0, y - 10.0, 12.0, "start", &hand.label)
                .class("hand-label")
                .fill(svg::INK),
        );
        let class = format!("hand {}", name(p));
        let cards = hand.cards.iter().map(|&(c, known)| (Some(c), known));
        let backs = std::iter::repeat_n((None, false), hand.hidden);
        for (k, (card, known)) in cards.chain(backs).enumerate() {
            let x = LEFT + 5.0 + k as f64 * (CARD_W + 6.0);
            draw_card(&mut svg, (x, y), card, &class, known);
        }
    }
    let discard = if board.discard.is_empty() {
        "none".to_string()
    } else {
        board
            .discard
            .iter()
            .map(Card::to_string)
            .collect::<Vec<_>>()
            .join(", ")
    };
    let mut lines = vec![
        (
            format!(
                "clan deck: {} cards · tactic deck: {} cards",
                decks[0], decks[1]
            ),
            "status decks",
        ),
        (format!("discard pile: {discard}"), "status discard"),
    ];
    if let Some((_, move_text)) = &last {
        lines.push((format!("last move: {move_text}"), "status last"));
    }
    for (k, (line, class)) in lines.iter().enumerate() {
        svg.add(
            text(12.0, FOOTER + k as f64 * LINE, 12.0, "start", line)
                .class(class)
                .fill(svg::INK),
        );
    }
    svg.finish()
}

/// The left edge of stone `i`'s column of cards.
fn column(i: usize) -> f64 {
    LEFT + i as f64 * COL + (COL - CARD_W) / 2.0
}

/// The stones (0-based) the move's card acts on.
fn played_on(m: &Move) -> Vec<usize> {
    let mut out: Vec<usize> = match m.action {
        Action::Play { stone, .. } | Action::Banshee { stone, .. } => vec![stone as usize],
        Action::Strategist { from, to, .. } => {
            std::iter::once(from).chain(to).map(usize::from).collect()
        }
        Action::Traitor { from, to, .. } => vec![from as usize, to as usize],
        Action::Recruiter { .. }
        | Action::Return { .. }
        | Action::Discard { .. }
        | Action::Pass => Vec::new(),
    };
    out.retain(|&i| i < 9);
    out.dedup();
    out
}

/// A stone: its number, combat modes, claim and the side that completed first.
fn draw_stone(svg: &mut Svg, board: &Board, i: usize) {
    let stone = &board.stones[i];
    let x = column(i);
    let (fill, ink, claim) = match stone.claimed {
        None => (STONE, "#ffffff", String::new()),
        Some(Player::One) => ("#263238", "#ffffff", " claimed first".to_string()),
        Some(Player::Two) => ("#f5f5f5", "#263238", " claimed second".to_string()),
    };
    svg.open(
        Tag::new("g")
            .class(&format!("stone{claim}"))
            .names(&format!("@{}", i + 1))
            .tooltip(&format!("stone {}", i + 1)),
    );
    svg.add(
        rect(x, STONE_TOP, CARD_W, STONE_H)
            .attr("rx", "8")
            .fill(fill)
            .stroke("#424242", 2.0),
    );
    let cx = x + CARD_W / 2.0;
    svg.add(
        text(cx, STONE_TOP + 13.0, 15.0, "middle", &(i + 1).to_string())
            .fill(ink)
            .attr("font-weight", "bold"),
    );
    let modes: Vec<(&str, &str)> = [(stone.mud, "mud"), (stone.blind, "blind")]
        .iter()
        .filter(|m| m.0)
        .map(|m| (m.1, if m.1 == "mud" { "MUD" } else { "BLIND" }))
        .collect();
    for (k, (class, label)) in modes.iter().enumerate() {
        let mx = x + CARD_W * (k as f64 + 1.0) / (modes.len() as f64 + 1.0);
        svg.add(
            text(mx, STONE_TOP + 28.0, 8.5, "middle", label)
                .class(&format!("mode {class}"))
                .fill(ink)
                .attr("font-weight", "bold"),
        );
    }
    if let Some(p) = stone.claimed {
        svg.add(
            text(cx, STONE_TOP + 41.0, 9.0, "middle", PLAYER_NAMES[p.index()])
                .class("claim")
                .fill(ink),
        );
    }
    if let Some(p) = stone.first {
        let y = if p == Player::One {
            STONE_TOP + STONE_H - 7.0
        } else {
            STONE_TOP + 8.0
        };
        svg.add(
            text(x + CARD_W - 8.0, y, 11.0, "middle", "★")
                .class(&format!("completed-first {}", PLAYER_NAMES[p.index()]))
                .fill(GOLD)
                .tooltip(&format!("{} completed first", PLAYER_NAMES[p.index()])),
        );
    }
    svg.close();
}

/// A card at (`x`, `y`): a clan card in its colour with its rank, a tactic
/// card by name, or (`None`) a face-down card; `known` adds a `!` (its
/// holder's opponent knows it).
fn draw_card(svg: &mut Svg, (x, y): (f64, f64), card: Option<Card>, class: &str, known: bool) {
    let tooltip = match card {
        Some(c) => match c.colour() {
            Some(k) => format!("{c}: {} {}", CLAN_NAMES[k as usize], c.rank().unwrap_or(0)),
            None => c.to_string(),
        },
        None => "unknown card".to_string(),
    };
    let back = if card.is_none() { " back" } else { "" };
    let mut group = Tag::new("g")
        .class(&format!("card {class}{back}"))
        .tooltip(&tooltip);
    // A card in a hand is one to play: named as moves name it.
    if let (Some(card), true) = (card, class.starts_with("hand")) {
        group = group.names(&card.to_string());
    }
    svg.open(group);
    let shape = rect(x, y, CARD_W, CARD_H).attr("rx", "4");
    let (cx, cy) = (x + CARD_W / 2.0, y + CARD_H / 2.0);
    match card {
        None => {
            svg.add(shape.fill(BACK).stroke("#3e2723", 1.5));
            svg.add(
                rect(x + 4.0, y + 4.0, CARD_W - 8.0, CARD_H - 8.0)
                    .attr("rx", "2")
                    .fill("none")
                    .stroke("#d7ccc8", 1.0),
            );
            svg.add(
                text(cx, cy, 13.0, "middle", "?")
                    .fill("#ffffff")
                    .attr("font-weight", "bold"),
            );
        }
        Some(c) => match (c.colour(), c.rank()) {
            (Some(k), Some(rank)) => {
                let (fill, ink) = CLAN[k as usize];
                svg.add(shape.fill(fill).stroke("#333333", 1.0));
                let letter = super::cards::COLOUR_LETTERS[k as usize].to_string();
                svg.add(text(x + 8.0, cy, 9.0, "middle", &letter).fill(ink));
                svg.add(
                    text(cx, cy, 16.0, "middle", &rank.to_string())
                        .fill(ink)
                        .attr("font-weight", "bold"),
                );
            }
            _ => {
                svg.add(shape.fill(TACTIC_FILL).stroke(TACTIC_INK, 1.5));
                let name = c.to_string();
                // Bold capitals are about 0.72 em wide: the longest names shrink to fit.
                let size = (52.0 / (0.72 * name.len() as f64)).min(8.5);
                svg.add(
                    text(cx, cy, size, "middle", &name)
                        .fill(TACTIC_INK)
                        .attr("font-weight", "bold"),
                );
            }
        },
    }
    if known {
        let (kx, ky) = (x + CARD_W - 2.0, y + 1.0);
        svg.open(
            Tag::new("g")
                .class("known")
                .tooltip("the other player knows this card"),
        );
        svg.add(
            svg::circle(kx, ky, 5.5)
                .fill("#ffffff")
                .stroke(svg::INK, 1.0),
        );
        svg.add(
            text(kx, ky, 9.0, "middle", "!")
                .fill(svg::INK)
                .attr("font-weight", "bold"),
        );
        svg.close();
    }
    svg.close();
}
