//! Text notation of positions (full states and views), as described in the
//! module documentation of [`super`].

use super::board::{Board, Phase, Stone};
use super::cards::Card;
use super::state::{board_cards, DeckCard, FullState, HandCard, View};
use super::validate::{check_counts, check_hand_size, validate_board};
use super::Variant;
use crate::{Player, SetupError};

/// `1` or `2`.
pub(crate) fn pnum(p: Player) -> char {
    match p {
        Player::One => '1',
        Player::Two => '2',
    }
}

/// Joins texts with commas.
pub(crate) fn list(cards: impl IntoIterator<Item = String>) -> String {
    cards.into_iter().collect::<Vec<_>>().join(",")
}

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
                    problems.push(format!("field '{k}' appears twice"));
                }
            }
            None => problems.push(format!("'{t}' is not a key:value field")),
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
            None => problems.push(format!("{what}: '{part}' is not a card")),
        }
    }
    out
}

fn parse_board(variant: Variant, f: &Fields, problems: &mut Vec<String>) -> Board {
    let mut b = Board::new(variant);
    let turn = need(f, "turn", problems);
    let (who, phase) = match turn.strip_suffix('r') {
        Some(w) => (w, Phase::Return),
        None => (turn, Phase::Play),
    };
    match parse_player(who) {
        Some(p) => b.to_move = p,
        None if turn.is_empty() => {}
        None => problems.push(format!("turn: '{turn}' is not 1, 2, 1r or 2r")),
    }
    b.phase = phase;
    let pass = need(f, "pass", problems);
    match pass.parse::<u8>() {
        Ok(n) if n <= 2 => b.passes = n,
        _ if pass.is_empty() => {}
        _ => problems.push(format!("pass: '{pass}' is not 0, 1 or 2")),
    }
    let tc = need(f, "tc", problems);
    let counts: Vec<Option<u8>> = tc.split(',').map(|x| x.parse().ok()).collect();
    match counts.as_slice() {
        [Some(a), Some(c)] if *a <= 10 && *c <= 10 => b.tactics_played = [*a, *c],
        _ if tc.is_empty() => {}
        _ => problems.push(format!("tc: '{tc}' is not two counts 0..10")),
    }
    let st = need(f, "st", problems);
    let stones: Vec<&str> = st.split('/').collect();
    if !st.is_empty() && stones.len() != 9 {
        problems.push(format!("st: {} stones given, 9 expected", stones.len()));
    }
    for (i, s) in stones.iter().enumerate().take(9) {
        let parts: Vec<&str> = s.split(':').collect();
        if parts.len() != 4 {
            problems.push(format!(
                "stone {}: '{s}' is not side:modes:side:claim",
                i + 1
            ));
            continue;
        }
        let stone = &mut b.stones[i];
        for (k, p) in [(0, Player::One), (2, Player::Two)] {
            let mut t = parts[k];
            if let Some(x) = t.strip_suffix('*') {
                t = x;
                if stone.first.is_some() {
                    problems.push(format!("stone {}: both sides marked first", i + 1));
                }
                stone.first = Some(p);
            }
            stone.sides[p.index()] = parse_cards(t, &format!("stone {}", i + 1), problems);
        }
        for ch in parts[1].chars() {
            match ch {
                'B' if !stone.blind => stone.blind = true,
                'M' if !stone.mud => stone.mud = true,
                _ => problems.push(format!("stone {}: bad combat modes '{}'", i + 1, parts[1])),
            }
        }
        match parts[3] {
            "-" => {}
            c => match parse_player(c) {
                Some(p) => stone.claimed = Some(p),
                None => problems.push(format!("stone {}: claim '{c}' is not -, 1 or 2", i + 1)),
            },
        }
    }
    b.discard = parse_cards(need(f, "x", problems), "discard", problems);
    b
}

/// Reads a full state.
pub fn parse_full(variant: Variant, text: &str) -> Result<FullState, SetupError> {
    let mut problems = Vec::new();
    let f = fields(text, &mut problems);
    if f.kind != "full" {
        problems.push(format!("a full state starts with 'full', not '{}'", f.kind));
    }
    let board = parse_board(variant, &f, &mut problems);
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
                None => problems.push(format!("{key}: '{part}' is not a card")),
            }
        }
        hands[k].sort();
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
                    problems.push(format!("{key}: bad knowledge mark in '{part}'"));
                    continue;
                }
                None => (part, 0),
            };
            match Card::parse(name) {
                Some(card) if (d == 0) == card.is_clan() => decks[d].push(DeckCard { card, known }),
                Some(card) => problems.push(format!("{key}: {card} does not belong in this deck")),
                None => problems.push(format!("{key}: '{part}' is not a card")),
            }
        }
    }
    let s = FullState {
        board,
        hands,
        decks,
    };
    check_counts(variant, &s.card_counts(), true, &mut problems);
    validate_board(&s.board, &mut problems);
    for p in [Player::One, Player::Two] {
        check_hand_size(&s.board, p, s.hands[p.index()].len(), &mut problems);
    }
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
                "a view starts with 'view:1' or 'view:2', not '{k}'"
            ));
            Player::One
        }
    };
    let board = parse_board(variant, &f, &mut problems);
    let mut hands: [(Vec<Card>, usize); 2] = [(Vec::new(), 0), (Vec::new(), 0)];
    for (k, key) in ["h1", "h2"].iter().enumerate() {
        for part in need(&f, key, &mut problems)
            .split(',')
            .filter(|s| !s.is_empty())
        {
            if part == "?" {
                hands[k].1 += 1;
            } else {
                match Card::parse(part) {
                    Some(c) => hands[k].0.push(c),
                    None => problems.push(format!("{key}: '{part}' is not a card or ?")),
                }
            }
        }
        hands[k].0.sort();
    }
    let mut deck_len = [0u8; 2];
    let mut deck_known: [Vec<(u8, Card)>; 2] = [Vec::new(), Vec::new()];
    for (d, key) in ["dc", "dt"].iter().enumerate() {
        let t = need(&f, key, &mut problems);
        if t.is_empty() {
            continue;
        }
        let (len, known) = t.split_once(':').unwrap_or((t, ""));
        match len.parse::<u8>() {
            Ok(n) if n as usize <= if d == 0 { 54 } else { 10 } => deck_len[d] = n,
            _ => problems.push(format!("{key}: '{len}' is not a deck size")),
        }
        for part in known.split(',').filter(|s| !s.is_empty()) {
            let parsed = part
                .split_once('=')
                .and_then(|(p, c)| Some((p.parse::<u8>().ok()?, Card::parse(c)?)));
            match parsed {
                Some((pos, c)) => {
                    if pos >= deck_len[d] {
                        problems.push(format!("{key}: position {pos} beyond the deck"));
                    }
                    if (d == 0) != c.is_clan() {
                        problems.push(format!("{key}: {c} does not belong in this deck"));
                    }
                    if deck_known[d].iter().any(|e| e.0 == pos) {
                        problems.push(format!("{key}: position {pos} given twice"));
                    }
                    deck_known[d].push((pos, c));
                }
                None => problems.push(format!("{key}: '{part}' is not position=card")),
            }
        }
        deck_known[d].sort();
    }
    let opp = viewer.opponent();
    let (hand, hand_unknown) = hands[viewer.index()].clone();
    let (opp_known, opp_unknown) = hands[opp.index()].clone();
    let v = View {
        board,
        viewer,
        hand,
        hand_unknown: hand_unknown.min(255) as u8,
        opp_count: (opp_known.len() + opp_unknown).min(255) as u8,
        opp_known,
        deck_len,
        deck_known,
    };
    let mut counts = [0u8; super::cards::KINDS];
    for &c in v.hand.iter().chain(&v.opp_known) {
        counts[c.id() as usize] += 1;
    }
    for d in &v.deck_known {
        for &(_, c) in d {
            counts[c.id() as usize] += 1;
        }
    }
    board_cards(&v.board, &mut |c| counts[c.id() as usize] += 1);
    check_counts(variant, &counts, false, &mut problems);
    validate_board(&v.board, &mut problems);
    check_hand_size(
        &v.board,
        viewer,
        v.hand.len() + v.hand_unknown as usize,
        &mut problems,
    );
    check_hand_size(&v.board, opp, v.opp_count as usize, &mut problems);
    if problems.is_empty() {
        let unseen = v.unseen();
        let clan = unseen.iter().filter(|c| c.is_clan()).count();
        let slots = [0, 1].map(|d| v.deck_len[d] as usize - v.deck_known[d].len());
        let hidden_hands = v.hand_unknown as usize + v.opp_count as usize - v.opp_known.len();
        if clan < slots[0] || unseen.len() - clan < slots[1] {
            problems.push("the decks are larger than the unseen cards allow".into());
        }
        if unseen.len() != slots[0] + slots[1] + hidden_hands {
            problems.push(format!(
                "{} cards are unaccounted for, but the decks and hands hide {}",
                unseen.len(),
                slots[0] + slots[1] + hidden_hands
            ));
        }
    }
    SetupError::check(problems).map(|_| v)
}
