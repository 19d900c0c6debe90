//! Text notation of moves, as described in the module documentation of [`super`].

use super::board::{Board, Deck};
use super::cards::Card;
use super::moves::{self, Action, Move};
use super::text::list;
use crate::quote::quote;
use crate::NotationError;

fn stones_list(set: u16) -> String {
    list(
        (0..9)
            .filter(|i| set & (1 << i) != 0)
            .map(|i| (i + 1).to_string()),
    )
}

/// Writes a move.
pub fn move_text(board: &Board, mv: &Move) -> String {
    let s = |i: u8| (i + 1).to_string();
    let act = match mv.action {
        Action::Play { card, stone } => format!("p:{card}@{}", s(stone)),
        Action::Recruiter { clan, tactic } => format!("p:RECRUITER:{clan}+{tactic}"),
        Action::Strategist { card, from, to } => format!(
            "p:STRATEGIST:{card}@{}>{}",
            s(from),
            to.map_or("x".to_string(), s)
        ),
        Action::Banshee { card, stone } => format!("p:BANSHEE:{card}@{}", s(stone)),
        Action::Traitor { card, from, to } => format!("p:TRAITOR:{card}@{}>{}", s(from), s(to)),
        Action::Return { first, second } => format!(
            "r:{}",
            list([first, second].into_iter().flatten().map(|c| c.to_string()))
        ),
        Action::Discard { card } => format!("x:{card}"),
        Action::Pass => "pass".to_string(),
    };
    let mut parts = Vec::new();
    let claims = (mv.claims != 0).then(|| format!("c:{}", stones_list(mv.claims)));
    if board.variant.expert() {
        parts.extend(claims.clone());
        parts.push(act);
    } else {
        parts.push(act);
        parts.extend(claims);
    }
    match mv.draw {
        Some(Deck::Clan) => parts.push("d:clan".into()),
        Some(Deck::Tactic) => parts.push("d:tactic".into()),
        None => {}
    }
    parts.join("/")
}

/// What a move plays, without the whole move: the card or tactic played,
/// or the kind of turn.
pub fn move_subject(mv: &Move) -> String {
    match mv.action {
        Action::Play { card, .. } => format!("the card {card}"),
        Action::Recruiter { .. } => "the Recruiter".to_string(),
        Action::Strategist { .. } => "the Strategist".to_string(),
        Action::Banshee { .. } => "the Banshee".to_string(),
        Action::Traitor { .. } => "the Traitor".to_string(),
        Action::Return { .. } => "cards returned to the decks".to_string(),
        Action::Discard { .. } => "a discard".to_string(),
        Action::Pass => "a pass".to_string(),
    }
}

fn parse_stone(t: &str) -> Result<u8, NotationError> {
    match t.parse::<u32>() {
        Ok(n) => stone_index(n),
        _ => Err(NotationError::new(format!(
            "{} is not a stone 1..9",
            quote(t)
        ))),
    }
}

/// The number of the stone of index `stone` (1 for index 0), as players
/// and the API number stones.
pub fn stone_number(stone: u8) -> u32 {
    u32::from(stone) + 1
}

/// The 0-based index of stone `number` (stones are numbered 1..9, left to right).
pub fn stone_index(number: u32) -> Result<u8, NotationError> {
    match number {
        1..=9 => Ok(number as u8 - 1),
        _ => Err(NotationError::new(format!("{number} is not a stone 1..9"))),
    }
}

/// The draw of a move whose deck was not said: none for actions without a
/// draw, else the only choice, else an error asking for it.
pub fn default_draw(
    board: &Board,
    deck_len: [usize; 2],
    action: &Action,
) -> Result<Option<Deck>, NotationError> {
    if matches!(
        action,
        Action::Recruiter { .. } | Action::Return { .. } | Action::Pass
    ) {
        return Ok(None);
    }
    let opts = moves::draw_options(board, deck_len);
    if opts.len() == 1 {
        Ok(opts[0])
    } else {
        Err(NotationError::new(
            "say which deck to draw from (d:clan or d:tactic)",
        ))
    }
}

fn parse_card(t: &str) -> Result<Card, NotationError> {
    Card::parse(t).ok_or_else(|| NotationError::new(format!("{} is not a card", quote(t))))
}

/// `CARD@STONE`.
fn card_at(t: &str) -> Result<(Card, u8), NotationError> {
    let (c, s) = t
        .split_once('@')
        .ok_or_else(|| NotationError::new(format!("{} is not CARD@STONE", quote(t))))?;
    Ok((parse_card(c)?, parse_stone(s)?))
}

fn parse_action(t: &str) -> Result<Action, NotationError> {
    if t == "pass" {
        return Ok(Action::Pass);
    }
    if let Some(c) = t.strip_prefix("x:") {
        return Ok(Action::Discard {
            card: parse_card(c)?,
        });
    }
    if let Some(r) = t.strip_prefix("r:") {
        let cards: Vec<Card> = r
            .split(',')
            .filter(|s| !s.is_empty())
            .map(parse_card)
            .collect::<Result<_, _>>()?;
        if cards.len() > 2 {
            return Err(NotationError::new("Recruiter returns at most two cards"));
        }
        return Ok(Action::Return {
            first: cards.first().copied(),
            second: cards.get(1).copied(),
        });
    }
    let p = t
        .strip_prefix("p:")
        .ok_or_else(|| NotationError::new(format!("{} is not a move part", quote(t))))?;
    let up = p.to_ascii_uppercase();
    let arg = |name: &str| -> Option<&str> {
        up.strip_prefix(name)
            .and_then(|rest| rest.strip_prefix(':'))
            .map(|_| &p[name.len() + 1..])
    };
    if let Some(a) = arg("RECRUITER") {
        let (c, k) = a
            .split_once('+')
            .ok_or_else(|| NotationError::new(format!("{} is not CLAN+TACTIC", quote(a))))?;
        let n = |x: &str| {
            x.parse::<u8>()
                .ok()
                .filter(|&v| v <= 3)
                .ok_or_else(|| NotationError::new(format!("{} is not a count 0..3", quote(x))))
        };
        return Ok(Action::Recruiter {
            clan: n(c)?,
            tactic: n(k)?,
        });
    }
    if let Some(a) = arg("STRATEGIST") {
        let (from, to) = a
            .split_once('>')
            .ok_or_else(|| NotationError::new(format!("{} is not CARD@STONE>STONE", quote(a))))?;
        let (card, from) = card_at(from)?;
        let to = if to.eq_ignore_ascii_case("x") {
            None
        } else {
            Some(parse_stone(to)?)
        };
        return Ok(Action::Strategist { card, from, to });
    }
    if let Some(a) = arg("BANSHEE") {
        let (card, stone) = card_at(a)?;
        return Ok(Action::Banshee { card, stone });
    }
    if let Some(a) = arg("TRAITOR") {
        let (from, to) = a
            .split_once('>')
            .ok_or_else(|| NotationError::new(format!("{} is not CARD@STONE>STONE", quote(a))))?;
        let (card, from) = card_at(from)?;
        return Ok(Action::Traitor {
            card,
            from,
            to: parse_stone(to)?,
        });
    }
    let (card, stone) = card_at(p)?;
    Ok(Action::Play { card, stone })
}

/// Reads a move, its parts joined by `/` (as written) or by spaces (the
/// older form, still read); a missing `d:` means the only draw choice (if any).
pub fn parse_move(board: &Board, deck_len: [usize; 2], text: &str) -> Result<Move, NotationError> {
    let mut claims = None;
    let mut action = None;
    let mut draw = None;
    for tok in text
        .split(|c: char| c.is_whitespace() || c == '/')
        .filter(|t| !t.is_empty())
    {
        if let Some(c) = tok.strip_prefix("c:") {
            let mut set = 0u16;
            for s in c.split(',').filter(|s| !s.is_empty()) {
                set |= 1 << parse_stone(s)?;
            }
            if claims.replace(set).is_some() {
                return Err(NotationError::new("claims given twice"));
            }
        } else if let Some(d) = tok.strip_prefix("d:") {
            let deck = match d {
                "clan" => Deck::Clan,
                "tactic" => Deck::Tactic,
                _ => {
                    return Err(NotationError::new(format!(
                        "{} is not clan or tactic",
                        quote(d)
                    )))
                }
            };
            if draw.replace(deck).is_some() {
                return Err(NotationError::new("draw given twice"));
            }
        } else if action.replace(parse_action(tok)?).is_some() {
            return Err(NotationError::new(format!(
                "a second card action {}",
                quote(tok)
            )));
        }
    }
    let action = action.ok_or_else(|| NotationError::new("no action (p:, r:, x: or pass)"))?;
    let draw = match draw {
        Some(d) => Some(d),
        None => default_draw(board, deck_len, &action)?,
    };
    Ok(moves::canonical(Move {
        claims: claims.unwrap_or(0),
        action,
        draw,
    }))
}
