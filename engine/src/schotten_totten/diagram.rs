//! Terminal drawings of positions: letters always, ANSI colours optionally.

use super::board::{Board, Phase};
use super::cards::Card;
use super::state::{FullState, View};
use crate::Player;

fn card_str(c: Card, ansi: bool) -> String {
    if ansi {
        format!("{}{}\x1b[0m", c.ansi(), c)
    } else {
        c.to_string()
    }
}

fn cards_str(cards: &[Card], ansi: bool) -> String {
    cards
        .iter()
        .map(|&c| card_str(c, ansi))
        .collect::<Vec<_>>()
        .join(" ")
}

/// The table as text: one line per stone, first player's side on the left.
pub fn board_diagram(b: &Board, ansi: bool) -> String {
    let name = |p: Player| super::PLAYER_NAMES[p.index()];
    let mut out = format!(
        "{} to {} | passes {} | tactics played {}/{}\n",
        name(b.to_move),
        if b.phase == Phase::Return {
            "return two cards (Recruiter)"
        } else {
            "play"
        },
        b.passes,
        b.tactics_played[0],
        b.tactics_played[1]
    );
    out.push_str(&format!(
        "{:>26}  stone   {}\n",
        name(Player::One),
        name(Player::Two)
    ));
    for (i, st) in b.stones.iter().enumerate() {
        let side = |p: Player| {
            let mut s = cards_str(&st.sides[p.index()], ansi);
            if st.first == Some(p) {
                s.push('*');
            }
            s
        };
        let left = side(Player::One);
        let pad = 26usize.saturating_sub(visible_len(&left));
        let mark = match st.claimed {
            Some(Player::One) => format!("<{}  ", i + 1),
            Some(Player::Two) => format!("  {}>", i + 1),
            None => format!(" {} ", i + 1),
        };
        let modes = format!(
            "{}{}",
            if st.blind { "B" } else { "." },
            if st.mud { "M" } else { "." }
        );
        out.push_str(&format!(
            "{}{}  {} {}  {}\n",
            " ".repeat(pad),
            left,
            mark,
            modes,
            side(Player::Two)
        ));
    }
    out.push_str(&format!("discard: {}\n", cards_str(&b.discard, ansi)));
    out
}

fn visible_len(s: &str) -> usize {
    let mut n = 0;
    let mut esc = false;
    for ch in s.chars() {
        if esc {
            esc = ch != 'm';
        } else if ch == '\x1b' {
            esc = true;
        } else {
            n += 1;
        }
    }
    n
}

/// The diagram of a full state: table, both hands, deck sizes.
pub fn full_diagram(s: &FullState, ansi: bool) -> String {
    let mut out = board_diagram(&s.board, ansi);
    for p in [Player::One, Player::Two] {
        out.push_str(&format!(
            "{} hand: {}\n",
            super::PLAYER_NAMES[p.index()],
            cards_str(&s.hand(p), ansi)
        ));
    }
    out.push_str(&format!(
        "clan deck: {}  tactic deck: {}\n",
        s.decks[0].len(),
        s.decks[1].len()
    ));
    out
}

/// The diagram of a view: table, own hand, what is known of the rest.
pub fn view_diagram(v: &View, ansi: bool) -> String {
    let mut out = board_diagram(&v.board, ansi);
    out.push_str(&format!(
        "{} (viewer) hand: {}{}\n",
        super::PLAYER_NAMES[v.viewer.index()],
        cards_str(&v.hand, ansi),
        " ?".repeat(v.hand_unknown as usize)
    ));
    out.push_str(&format!(
        "{} hand: {} cards{}\n",
        super::PLAYER_NAMES[v.viewer.opponent().index()],
        v.opp_count,
        if v.opp_known.is_empty() {
            String::new()
        } else {
            format!(" including {}", cards_str(&v.opp_known, ansi))
        }
    ));
    out.push_str(&format!(
        "clan deck: {}  tactic deck: {}\n",
        v.deck_len[0], v.deck_len[1]
    ));
    out
}
