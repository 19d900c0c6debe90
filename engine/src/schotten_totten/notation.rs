//! Text notation of positions (full states and views) and moves, validation,
//! and the diagram. The formats are described in the module documentation of
//! [`super`].

use super::board::{Board, Deck, Phase, Stone};
use super::cards::Card;
use super::formation::strength;
use super::moves::{self, Action, Move};
use super::state::{board_cards, DeckCard, FullState, HandCard, View};
use super::Variant;
use crate::{NotationError, Player, SetupError};

fn pnum(p: Player) -> char {
    match p {
        Player::One => '1',
        Player::Two => '2',
    }
}

fn list(cards: impl IntoIterator<Item = String>) -> String {
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

/// Checks the public part for impossible states.
fn validate_board(b: &Board, problems: &mut Vec<String>) {
    let tactics = b.variant.tactics();
    for (i, st) in b.stones.iter().enumerate() {
        let n = i + 1;
        if !tactics && (st.blind || st.mud) {
            problems.push(format!("stone {n}: combat mode in the classic variant"));
        }
        for p in [Player::One, Player::Two] {
            let side = &st.sides[p.index()];
            if side.len() > st.required() {
                problems.push(format!(
                    "stone {n}: {} cards on one side, at most {}",
                    side.len(),
                    st.required()
                ));
            }
            if let Some(c) = side.iter().find(|c| !c.is_troop()) {
                problems.push(format!("stone {n}: {c} cannot lie on a side"));
            }
            if side.iter().filter(|&&c| c == Card::JOKER).count() > 1 {
                problems.push(format!("stone {n}: two Jokers on one side"));
            }
        }
        let both = st.complete(Player::One) && st.complete(Player::Two);
        if both != st.first.is_some() {
            problems.push(format!(
                "stone {n}: the side that completed first is marked (*) exactly when both sides are complete"
            ));
        }
        if let Some(p) = st.claimed {
            if !st.complete(p) {
                problems.push(format!("stone {n}: claimed with an incomplete side"));
            } else if both {
                let (a, o) = (
                    strength(&st.sides[p.index()], st.blind),
                    strength(&st.sides[p.opponent().index()], st.blind),
                );
                if a < o || (a == o && st.first != Some(p)) {
                    problems.push(format!("stone {n}: claimed by the weaker side"));
                }
            }
        }
    }
    for p in [Player::One, Player::Two] {
        let jokers = b
            .stones
            .iter()
            .filter(|s| s.sides[p.index()].contains(&Card::JOKER))
            .count();
        if jokers > 1 {
            problems.push(format!("player {} has two Jokers on the table", pnum(p)));
        }
        let elites = b
            .stones
            .iter()
            .flat_map(|s| s.sides[p.index()].iter())
            .filter(|c| c.is_elite())
            .count();
        if elites > b.tactics_played[p.index()] as usize {
            problems.push(format!(
                "player {} has more elite troops on the table than tactic cards played",
                pnum(p)
            ));
        }
    }
    let [t1, t2] = b.tactics_played;
    if !tactics && (t1, t2) != (0, 0) {
        problems.push("tactic cards played in the classic variant".into());
    }
    if t1.abs_diff(t2) > 1 {
        problems.push(format!("tactic counts {t1},{t2} differ by more than one"));
    }
    let mut on_table = 0usize;
    let mut visible = 0usize;
    for st in &b.stones {
        let n = st.sides.iter().flatten().filter(|c| c.is_tactic()).count()
            + st.blind as usize
            + st.mud as usize;
        on_table += n;
        visible += n;
    }
    visible += b.discard.iter().filter(|c| c.is_tactic()).count();
    let played = (t1 + t2) as usize;
    if played < on_table || played > visible {
        problems.push(format!(
            "tactic counts {t1},{t2} do not fit the {on_table} tactic cards on the table and {visible} seen"
        ));
    }
    if b.phase == Phase::Return && !b.discard.contains(&Card::RECRUITER) {
        problems.push("a Recruiter return is pending but no Recruiter was played".into());
    }
    if b.winner().is_some() {
        let both = [Player::One, Player::Two].iter().all(|&p| {
            let mut c = b.clone();
            for s in &mut c.stones {
                if s.claimed != Some(p) {
                    s.claimed = None;
                }
            }
            c.winner().is_some()
        });
        if both {
            problems.push("both players have won".into());
        }
    }
}

fn check_counts(variant: Variant, counts: &[u8], exact: bool, problems: &mut Vec<String>) {
    for c in Card::all() {
        let expected = if variant.tactics() || c.is_clan() {
            c.copies()
        } else {
            0
        };
        let n = counts[c.id() as usize];
        if (exact && n != expected) || n > expected {
            problems.push(format!("{c} appears {n} times, {expected} expected"));
        }
    }
}

fn check_hand_size(b: &Board, p: Player, len: usize, problems: &mut Vec<String>) {
    let max = b.variant.hand_size()
        + if b.phase == Phase::Return && b.to_move == p {
            2
        } else {
            0
        };
    if len > max {
        problems.push(format!(
            "player {} holds {len} cards, at most {max}",
            pnum(p)
        ));
    }
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
    parts.join(" ")
}

fn parse_stone(t: &str) -> Result<u8, NotationError> {
    match t.parse::<u8>() {
        Ok(n) if (1..=9).contains(&n) => Ok(n - 1),
        _ => Err(NotationError::new(format!("'{t}' is not a stone 1..9"))),
    }
}

fn parse_card(t: &str) -> Result<Card, NotationError> {
    Card::parse(t).ok_or_else(|| NotationError::new(format!("'{t}' is not a card")))
}

/// `CARD@STONE`.
fn card_at(t: &str) -> Result<(Card, u8), NotationError> {
    let (c, s) = t
        .split_once('@')
        .ok_or_else(|| NotationError::new(format!("'{t}' is not CARD@STONE")))?;
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
        .ok_or_else(|| NotationError::new(format!("'{t}' is not a move part")))?;
    let up = p.to_ascii_uppercase();
    let arg = |name: &str| -> Option<&str> {
        up.strip_prefix(name)
            .and_then(|rest| rest.strip_prefix(':'))
            .map(|_| &p[name.len() + 1..])
    };
    if let Some(a) = arg("RECRUITER") {
        let (c, k) = a
            .split_once('+')
            .ok_or_else(|| NotationError::new(format!("'{a}' is not CLAN+TACTIC")))?;
        let n = |x: &str| {
            x.parse::<u8>()
                .ok()
                .filter(|&v| v <= 3)
                .ok_or_else(|| NotationError::new(format!("'{x}' is not a count 0..3")))
        };
        return Ok(Action::Recruiter {
            clan: n(c)?,
            tactic: n(k)?,
        });
    }
    if let Some(a) = arg("STRATEGIST") {
        let (from, to) = a
            .split_once('>')
            .ok_or_else(|| NotationError::new(format!("'{a}' is not CARD@STONE>STONE")))?;
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
            .ok_or_else(|| NotationError::new(format!("'{a}' is not CARD@STONE>STONE")))?;
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

/// Reads a move; a missing `d:` means the only draw choice (if any).
pub fn parse_move(board: &Board, deck_len: [usize; 2], text: &str) -> Result<Move, NotationError> {
    let mut claims = None;
    let mut action = None;
    let mut draw = None;
    for tok in text.split_whitespace() {
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
                _ => return Err(NotationError::new(format!("'{d}' is not clan or tactic"))),
            };
            if draw.replace(deck).is_some() {
                return Err(NotationError::new("draw given twice"));
            }
        } else if action.replace(parse_action(tok)?).is_some() {
            return Err(NotationError::new(format!("a second card action '{tok}'")));
        }
    }
    let action = action.ok_or_else(|| NotationError::new("no action (p:, r:, x: or pass)"))?;
    let draw = match draw {
        Some(d) => Some(d),
        None if matches!(
            action,
            Action::Recruiter { .. } | Action::Return { .. } | Action::Pass
        ) =>
        {
            None
        }
        None => {
            let opts = moves::draw_options(board, deck_len);
            if opts.len() == 1 {
                opts[0]
            } else {
                return Err(NotationError::new(
                    "say which deck to draw from (d:clan or d:tactic)",
                ));
            }
        }
    };
    Ok(moves::canonical(Move {
        claims: claims.unwrap_or(0),
        action,
        draw,
    }))
}

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
