//! Terminal drawings of positions: letters always, ANSI colours optionally.

use super::board::{Board, Phase};
use super::cards::Card;
use super::state::{FullState, View};
use super::Variant;
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

/// The table as text: one line per stone, the first player's cards on the
/// left and the second's on the right, columns aligned whatever the marks,
/// and a legend of the marks the variant can show.
pub fn board_diagram(b: &Board, ansi: bool) -> String {
    let name = |p: Player| super::PLAYER_NAMES[p.index()];
    let tactics = b.variant != Variant::Classic;
    // Whose turn it is, or once the game is decided how it ended.
    let turn = match b.outcome() {
        Some(over) => format!("game over: {}", over.reason),
        None if b.phase == Phase::Return => {
            format!("{} to return two cards (Recruiter)", name(b.to_move))
        }
        None => format!("{} to play", name(b.to_move)),
    };
    let mut out = format!("{turn} | passes {}", b.passes);
    if tactics {
        out.push_str(&format!(
            " | tactics played {}/{}",
            b.tactics_played[0], b.tactics_played[1]
        ));
    }
    out.push('\n');
    let side = |st: &super::board::Stone, p: Player| {
        let mut s = cards_str(&st.sides[p.index()], ansi);
        if st.first == Some(p) {
            s.push('*');
        }
        s
    };
    let width = b
        .stones
        .iter()
        .map(|st| visible_len(&side(st, Player::One)))
        .chain([name(Player::One).len()])
        .max()
        .unwrap_or(0);
    let pad = |s: &str| " ".repeat(width - visible_len(s));
    let first = name(Player::One);
    let middle = if tactics { "stone   " } else { "stone" };
    out.push_str(&format!(
        "{}{first}  {middle}  {}\n",
        pad(first),
        name(Player::Two)
    ));
    for (i, st) in b.stones.iter().enumerate() {
        let left = side(st, Player::One);
        // Three characters whoever claimed the stone, so columns stay put.
        let mut middle = match st.claimed {
            Some(Player::One) => format!("<{} ", i + 1),
            Some(Player::Two) => format!(" {}>", i + 1),
            None => format!(" {} ", i + 1),
        };
        middle.push_str("  ");
        if tactics {
            middle.push(if st.blind { 'B' } else { '.' });
            middle.push(if st.mud { 'M' } else { '.' });
            middle.push(' ');
        }
        let right = side(st, Player::Two);
        let line = format!("{}{left}  {middle}  {right}", pad(&left));
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out.push_str(&format!(
        "discard: {}\n",
        if b.discard.is_empty() {
            "-".to_string()
        } else {
            cards_str(&b.discard, ansi)
        }
    ));
    out.push_str("legend: <N claimed by first, N> by second; * completed its side first");
    if tactics {
        out.push_str("; B Blind-Man's Bluff, M Mud Fight on the stone");
    }
    out.push('\n');
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::schotten_totten::board::Side;

    fn side(text: &str) -> Side {
        Side::from_slice(&cards(text)).unwrap()
    }

    fn cards(text: &str) -> Vec<Card> {
        text.split(' ').map(|c| Card::parse(c).unwrap()).collect()
    }

    #[test]
    fn columns_stay_aligned_with_claims_marks_and_modes() {
        let mut b = Board::new(Variant::Tactics);
        b.stones[0].sides = [side("R3 R4 R5"), side("G1 B2 K9")];
        b.stones[0].claimed = Some(Player::One);
        b.stones[0].first = Some(Player::Two);
        b.stones[1].sides = [side("Y9"), side("P1 P2 P3 P4")];
        b.stones[1].mud = true;
        b.stones[1].blind = true;
        b.stones[1].claimed = Some(Player::Two);
        b.stones[4].sides = [side("JOKER"), Side::new()];
        b.discard = cards("SPY");
        b.tactics_played = [1, 1];
        let expected = "\
first to play | passes 0 | tactics played 1/1
   first  stone     second
R3 R4 R5  <1   ..   G1 B2 K9*
      Y9   2>  BM   P1 P2 P3 P4
           3   ..
           4   ..
   JOKER   5   ..
           6   ..
           7   ..
           8   ..
           9   ..
discard: SPY
legend: <N claimed by first, N> by second; * completed its side first; B Blind-Man's Bluff, M Mud Fight on the stone
";
        assert_eq!(board_diagram(&b, false), expected);
        // Classic: no combat modes, no tactic count.
        let mut b = Board::new(Variant::Classic);
        b.stones[8].sides = [side("B1"), side("B2")];
        b.stones[8].claimed = Some(Player::Two);
        let d = board_diagram(&b, false);
        assert!(
            d.starts_with("first to play | passes 0\nfirst  stone  second\n"),
            "{d}"
        );
        assert!(d.contains("\n   B1   9>    B2\n"), "{d}");
        // Five stones claimed: the game is over, and no one is to play.
        for stone in [0, 2, 4, 6, 8] {
            b.stones[stone].claimed = Some(Player::One);
        }
        let d = board_diagram(&b, false);
        assert!(d.starts_with("game over: five stones | passes 0\n"), "{d}");
        assert!(d.ends_with("discard: -\nlegend: <N claimed by first, N> by second; * completed its side first\n"), "{d}");
    }
}
