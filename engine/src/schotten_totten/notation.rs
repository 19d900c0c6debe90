//! Text notation of positions (full states and views), as described in the
//! module documentation of [`super`]. Reading goes through the setups
//! ([`super::Setup`], [`super::ViewSetup`]), which hold the validation.

use super::board::{Board, Phase, Stone};
use super::cards::Card;
use super::setup::{self, Setup, StoneSetup, TableSetup, ViewDeck, ViewHand, ViewSetup};
use super::state::{DeckCard, FullState, HandCard, View};
use super::text::{list, pnum};
use super::Variant;
use crate::quote::quote;
use crate::{Player, SetupError};

fn stone_text(st: &Stone) -> String {
    let side = |p: Player| {
        let mut s = list(st.sides[p.index()].iter().map(|c| c.to_string()));
        if st.first == Some(p) {
            s.push('*');
        }
        s
    };
    let modes = format!(
        "{}{}",
        if st.blind { "B" } else { "" },
        if st.mud { "M" } else { "" }
    );
    let claim = st.claimed.map_or('-', pnum);
    format!(
        "{}:{}:{}:{}",
        side(Player::One),
        modes,
        side(Player::Two),
        claim
    )
}

fn board_text(b: &Board) -> String {
    let phase = if b.phase == Phase::Return { "r" } else { "" };
    let stones: Vec<String> = b.stones.iter().map(stone_text).collect();
    format!(
        "turn:{}{} pass:{} tc:{},{} st:{}",
        pnum(b.to_move),
        phase,
        b.passes,
        b.tactics_played[0],
        b.tactics_played[1],
        stones.join("/")
    )
}

/// The notation of a full state.
pub fn full_text(s: &FullState) -> String {
    let hand = |p: Player| {
        list(
            s.hands[p.index()]
                .iter()
                .map(|h| format!("{}{}", h.card, if h.known_to_opponent { "!" } else { "" })),
        )
    };
    let deck = |d: usize| {
        list(s.decks[d].iter().map(|dc| {
            let mark = match dc.known {
                1 => "=1",
                2 => "=2",
                3 => "=12",
                _ => "",
            };
            format!("{}{}", dc.card, mark)
        }))
    };
    format!(
        "full {} h1:{} h2:{} dc:{} dt:{} x:{}",
        board_text(&s.board),
        hand(Player::One),
        hand(Player::Two),
        deck(0),
        deck(1),
        list(s.board.discard.iter().map(|c| c.to_string()))
    )
}

/// The notation of a view.
pub fn view_text(v: &View) -> String {
    let hand = |known: &[Card], unknown: usize| {
        list(
            known
                .iter()
                .map(|c| c.to_string())
                .chain(std::iter::repeat_n("?".to_string(), unknown)),
        )
    };
    let own = hand(&v.hand, v.hand_unknown as usize);
    let opp = hand(
        &v.opp_known,
        (v.opp_count as usize).saturating_sub(v.opp_known.len()),
    );
    let (h1, h2) = if v.viewer == Player::One {
        (own, opp)
    } else {
        (opp, own)
    };
    let deck = |d: usize| {
        let mut s = v.deck_len[d].to_string();
        if !v.deck_known[d].is_empty() {
            s.push(':');
            s.push_str(&list(
                v.deck_known[d].iter().map(|(p, c)| format!("{p}={c}")),
            ));
        }
        s
    };
    format!(
        "view:{} {} h1:{} h2:{} dc:{} dt:{} x:{}",
        pnum(v.viewer),
        board_text(&v.board),
        h1,
        h2,
        deck(0),
        deck(1),
        list(v.board.discard.iter().map(|c| c.to_string()))
    )
}

/// Parsed fields of a position text.
struct Fields<'a> {
    kind: &'a str,
    get: std::collections::HashMap<&'a str, &'a str>,
}

fn fields<'a>(text: &'a str, problems: &mut Vec<String>) -> Fields<'a> {
    let mut toks = text.split_whitespace();
    let kind = toks.next().unwrap_or("");
    let mut get = std::collections::HashMap::new();
    for t in toks {
        match t.split_once(':') {
            Some((k, v)) => {
                if get.insert(k, v).is_some() {
                    problems.push(format!("field {} appears twice", quote(k)));
                }
            }
            None => problems.push(format!("{} is not a key:value field", quote(t))),
        }
    }
    Fields { kind, get }
}

fn need<'a>(f: &Fields<'a>, key: &str, problems: &mut Vec<String>) -> &'a str {
    match f.get.get(key) {
        Some(v) => v,
        None => {
            problems.push(format!("missing field '{key}:'"));
            ""
        }
    }
}

fn parse_player(t: &str) -> Option<Player> {
    match t {
        "1" => Some(Player::One),
        "2" => Some(Player::Two),
        _ => None,
    }
}

fn parse_cards(t: &str, what: &str, problems: &mut Vec<String>) -> Vec<Card> {
    let mut out = Vec::new();
    for part in t.split(',').filter(|s| !s.is_empty()) {
        match Card::parse(part) {
            Some(c) => out.push(c),
            None => problems.push(format!("{what}: {} is not a card", quote(part))),
        }
    }
    out
}

fn parse_count(f: &Fields, key: &str, problems: &mut Vec<String>) -> u32 {
    let t = need(f, key, problems);
    match t.parse::<u32>() {
        Ok(n) => n,
        _ if t.is_empty() => 0,
        _ => {
            problems.push(format!("{key}: {} is not a number", quote(t)));
            0
        }
    }
}

fn parse_table(f: &Fields, problems: &mut Vec<String>) -> TableSetup {
    let turn = need(f, "turn", problems);
    let (who, pending) = match turn.strip_suffix('r') {
        Some(w) => (w, true),
        None => (turn, false),
    };
    let side_to_move = match parse_player(who) {
        Some(p) => p,
        None if turn.is_empty() => Player::One,
        None => {
            problems.push(format!("turn: {} is not 1, 2, 1r or 2r", quote(turn)));
            Player::One
        }
    };
    let passes = parse_count(f, "pass", problems);
    let tc = need(f, "tc", problems);
    let counts: Vec<Option<u32>> = tc.split(',').map(|x| x.parse().ok()).collect();
    let tactics_played = match counts.as_slice() {
        [Some(a), Some(c)] => [*a, *c],
        _ if tc.is_empty() => [0, 0],
        _ => {
            problems.push(format!("tc: {} is not two counts 0..10", quote(tc)));
            [0, 0]
        }
    };
    let st = need(f, "st", problems);
    let mut stones = Vec::new();
    if !st.is_empty() {
        for (i, s) in st.split('/').enumerate() {
            let parts: Vec<&str> = s.split(':').collect();
            let mut stone = StoneSetup::default();
            if parts.len() != 4 {
                problems.push(format!(
                    "stone {}: {} is not side:modes:side:claim",
                    i + 1,
                    quote(s)
                ));
                stones.push(stone);
                continue;
            }
            for (k, p) in [(0, Player::One), (2, Player::Two)] {
                let mut t = parts[k];
                if let Some(x) = t.strip_suffix('*') {
                    t = x;
                    if stone.completed_first.is_some() {
                        problems.push(format!("stone {}: both sides marked first", i + 1));
                    }
                    stone.completed_first = Some(p);
                }
                stone.sides[p.index()] = parse_cards(t, &format!("stone {}", i + 1), problems);
            }
            for ch in parts[1].chars() {
                match ch {
                    'B' if !stone.blind => stone.blind = true,
                    'M' if !stone.mud => stone.mud = true,
                    _ => problems.push(format!(
                        "stone {}: bad combat modes {}",
                        i + 1,
                        quote(parts[1])
                    )),
                }
            }
            match parts[3] {
                "-" => {}
                c => match parse_player(c) {
                    Some(p) => stone.claimed = Some(p),
                    None => problems.push(format!(
                        "stone {}: claim {} is not -, 1 or 2",
                        i + 1,
                        quote(c)
                    )),
                },
            }
            stones.push(stone);
        }
    }
    TableSetup {
        side_to_move,
        recruiter_return_pending: pending,
        passes,
        tactics_played,
        stones,
        discard: parse_cards(need(f, "x", problems), "discard", problems),
    }
}

/// Reads a full state.
pub fn parse_full(variant: Variant, text: &str) -> Result<FullState, SetupError> {
    let mut problems = Vec::new();
    let f = fields(text, &mut problems);
    if f.kind != "full" {
        problems.push(format!(
            "a full state starts with 'full', not {}",
            quote(f.kind)
        ));
    }
    let table = parse_table(&f, &mut problems);
    let mut hands: [Vec<HandCard>; 2] = [Vec::new(), Vec::new()];
    for (k, key) in ["h1", "h2"].iter().enumerate() {
        for part in need(&f, key, &mut problems)
            .split(',')
            .filter(|s| !s.is_empty())
        {
            let (name, known) = match part.strip_suffix('!') {
                Some(n) => (n, true),
                None => (part, false),
            };
            match Card::parse(name) {
                Some(card) => hands[k].push(HandCard {
                    card,
                    known_to_opponent: known,
                }),
                None => problems.push(format!("{key}: {} is not a card", quote(part))),
            }
        }
    }
    let mut decks: [Vec<DeckCard>; 2] = [Vec::new(), Vec::new()];
    for (d, key) in ["dc", "dt"].iter().enumerate() {
        for part in need(&f, key, &mut problems)
            .split(',')
            .filter(|s| !s.is_empty())
        {
            let (name, known) = match part.split_once('=') {
                Some((n, "1")) => (n, 1),
                Some((n, "2")) => (n, 2),
                Some((n, "12")) => (n, 3),
                Some(_) => {
                    problems.push(format!("{key}: bad knowledge mark in {}", quote(part)));
                    continue;
                }
                None => (part, 0),
            };
            match Card::parse(name) {
                Some(card) => decks[d].push(DeckCard { card, known }),
                None => problems.push(format!("{key}: {} is not a card", quote(part))),
            }
        }
    }
    let setup = Setup {
        table,
        hands,
        decks,
    };
    let s = setup::full_state(variant, &setup, &mut problems);
    SetupError::check(problems).map(|_| s)
}

/// Reads a view.
pub fn parse_view(variant: Variant, text: &str) -> Result<View, SetupError> {
    let mut problems = Vec::new();
    let f = fields(text, &mut problems);
    let viewer = match f.kind {
        "view:1" => Player::One,
        "view:2" => Player::Two,
        k => {
            problems.push(format!(
                "a view starts with 'view:1' or 'view:2', not {}",
                quote(k)
            ));
            Player::One
        }
    };
    let table = parse_table(&f, &mut problems);
    let mut hands: [ViewHand; 2] = Default::default();
    for (k, key) in ["h1", "h2"].iter().enumerate() {
        for part in need(&f, key, &mut problems)
            .split(',')
            .filter(|s| !s.is_empty())
        {
            if part == "?" {
                hands[k].unknown += 1;
            } else {
                match Card::parse(part) {
                    Some(c) => hands[k].known.push(c),
                    None => problems.push(format!("{key}: {} is not a card or ?", quote(part))),
                }
            }
        }
    }
    let mut decks: [ViewDeck; 2] = Default::default();
    for (d, key) in ["dc", "dt"].iter().enumerate() {
        let t = need(&f, key, &mut problems);
        if t.is_empty() {
            continue;
        }
        let (len, known) = t.split_once(':').unwrap_or((t, ""));
        match len.parse::<u32>() {
            Ok(n) => decks[d].size = n,
            _ => problems.push(format!("{key}: {} is not a deck size", quote(len))),
        }
        for part in known.split(',').filter(|s| !s.is_empty()) {
            let parsed = part
                .split_once('=')
                .and_then(|(p, c)| Some((p.parse::<u32>().ok()?, Card::parse(c)?)));
            match parsed {
                Some(entry) => decks[d].known.push(entry),
                None => problems.push(format!("{key}: {} is not position=card", quote(part))),
            }
        }
    }
    let setup = ViewSetup {
        viewer,
        table,
        hands,
        decks,
    };
    let v = setup::view(variant, &setup, &mut problems);
    SetupError::check(problems).map(|_| v)
}
