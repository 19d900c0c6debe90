//! The SVG diagram: valid XML, nine stones, every card on the table and in
//! the hands drawn (face down where the viewer does not know it), combat
//! modes, claims, deck sizes and the last move's stones.

use super::*;
use crate::schotten_totten::Position;
use crate::svg::tests::{check_root, count, names, save, texts, with_classes};

/// The stones and cards drawn must be the position's.
fn check_cards(position: &Position, svg: &str) {
    let (doc, _) = check_root(svg);
    let board = match position {
        Position::Full(s) => s.board(),
        Position::View(v) => v.board(),
    };
    assert_eq!(count(&doc, &["stone"]), 9);
    for (p, name) in [(ONE, "first"), (TWO, "second")] {
        let on_table: usize = board.stones.iter().map(|s| s.sides[p.index()].len()).sum();
        assert_eq!(
            count(&doc, &["card", "table", name]),
            on_table,
            "{name} table"
        );
        assert_eq!(count(&doc, &["stone", "claimed", name]), board.stones_of(p));
        // The cards of each stone, in the order played, are the tooltips.
        let drawn: Vec<String> = with_classes(&doc, &["card", "table", name])
            .iter()
            .map(|n| {
                n.descendants()
                    .find(|t| t.has_tag_name("title"))
                    .unwrap()
                    .text()
                    .unwrap()
                    .split(':')
                    .next()
                    .unwrap()
                    .to_string()
            })
            .collect();
        let want: Vec<String> = board
            .stones
            .iter()
            .flat_map(|s| s.sides[p.index()].iter().map(|c| c.to_string()))
            .collect();
        assert_eq!(drawn, want);
        let (shown, hidden) = match position {
            Position::Full(s) => (s.hand(p).len(), 0),
            Position::View(v) if v.viewer() == p => (v.hand().len(), v.hand_unknown()),
            Position::View(v) => (
                v.opponent_known().len(),
                v.opponent_hand_size() - v.opponent_known().len(),
            ),
        };
        assert_eq!(
            count(&doc, &["card", "hand", name]),
            shown + hidden,
            "{name} hand"
        );
        assert_eq!(
            count(&doc, &["card", "hand", name, "back"]),
            hidden,
            "{name} hidden"
        );
    }
    assert_eq!(
        count(&doc, &["mode", "mud"]),
        board.stones.iter().filter(|s| s.mud).count()
    );
    assert_eq!(
        count(&doc, &["mode", "blind"]),
        board.stones.iter().filter(|s| s.blind).count()
    );
    assert_eq!(
        count(&doc, &["completed-first"]),
        board.stones.iter().filter(|s| s.first.is_some()).count()
    );
}

#[test]
fn svg_of_the_deal_shows_both_hands_or_the_viewers() {
    let s = FullState::new_game(Variant::Classic, 42);
    let full = Position::Full(s.clone());
    let svg = full.svg(None);
    check_cards(&full, &svg);
    let (doc, title) = check_root(&svg);
    assert_eq!(
        title,
        "Schotten Totten (classic), full state: first to move"
    );
    assert_eq!(count(&doc, &["card", "table"]), 0);
    assert_eq!(count(&doc, &["card", "hand", "first"]), 6);
    assert_eq!(count(&doc, &["card", "back"]), 0);
    assert_eq!(count(&doc, &["last-move"]), 0);
    let texts = texts(&doc);
    assert!(texts
        .iter()
        .any(|t| t == "clan deck: 42 cards · tactic deck: 0 cards"));
    for stone in 1..=9 {
        assert!(texts.contains(&stone.to_string()), "stone {stone}");
    }
    // Named as moves name them, for a page that turns clicks into moves:
    // the stones, then the cards in hand (second's row is drawn on top).
    let mut named: Vec<String> = (1..=9).map(|i| format!("@{i}")).collect();
    let (second, first) = (s.hand(TWO), s.hand(ONE));
    named.extend(second.iter().chain(&first).map(|c| c.to_string()));
    assert_eq!(names(&doc), named);
    // Second's view: its own six cards face up, first's six face down.
    let view = Position::View(s.view(TWO));
    let svg = view.svg(None);
    check_cards(&view, &svg);
    let (doc, title) = check_root(&svg);
    assert_eq!(
        title,
        "Schotten Totten (classic), view of second: first to move"
    );
    assert_eq!(count(&doc, &["card", "hand", "first", "back"]), 6);
    assert_eq!(count(&doc, &["card", "hand", "second", "back"]), 0);
    assert_eq!(names(&doc)[9..], named[9..15], "only the viewer's cards");
    save("schotten-totten-view", &svg);
}

#[test]
fn svg_of_a_game_marks_the_stones_played_on_and_claimed() {
    let mut s = empty(Variant::Classic);
    side(&mut s, ONE, 0, "G7 G8 G9");
    side(&mut s, TWO, 0, "R1 R2 R3");
    side(&mut s, TWO, 3, "Y5");
    hand(&mut s, ONE, "B5 B6");
    hand(&mut s, TWO, "K2 K3");
    let s = valid(&s);
    let m = mv(&s, "p:B5@2/c:1/d:clan");
    let after = play(s, "p:B5@2/c:1/d:clan");
    for position in [
        Position::Full(after.clone()),
        Position::View(after.view(ONE)),
        Position::View(after.view(TWO)),
    ] {
        let svg = position.svg(Some(&m));
        check_cards(&position, &svg);
        let (doc, _) = check_root(&svg);
        assert_eq!(count(&doc, &["stone", "claimed", "first"]), 1);
        assert_eq!(count(&doc, &["last-move", "played"]), 1);
        assert_eq!(count(&doc, &["last-move", "claimed"]), 1);
        assert_eq!(count(&doc, &["last-move"]), 2);
        assert!(texts(&doc)
            .iter()
            .any(|t| t == "last move: p:B5@2/c:1/d:clan"));
        let plain = position.svg(None);
        assert_eq!(count(&check_root(&plain).0, &["last-move"]), 0);
    }
    save(
        "schotten-totten-claim",
        &Position::Full(after).svg(Some(&m)),
    );
}

#[test]
fn svg_of_tactics_shows_modes_tactic_cards_and_who_completed_first() {
    let mut s = empty(Variant::Tactics);
    side(&mut s, ONE, 0, "G1 G2 G3");
    side(&mut s, TWO, 0, "B4 JOKER");
    take(&mut s, Card::MUD);
    s.board.stones[0].mud = true;
    side(&mut s, ONE, 1, "R7 R8 R9");
    side(&mut s, TWO, 1, "Y1 Y2 Y3");
    take(&mut s, Card::BLIND);
    s.board.stones[1].blind = true;
    put(&mut s, Card::BANSHEE, Loc::Discard);
    s.board.tactics_played = [2, 2];
    hand(&mut s, ONE, "STRATEGIST SPY K5");
    hand(&mut s, TWO, "TRAITOR P5");
    // First knows second holds the Traitor (as after a Recruiter return).
    s.hands[TWO.index()][1].known_to_opponent = true;
    let s = valid(&s);
    let position = Position::Full(s.clone());
    let svg = position.svg(None);
    check_cards(&position, &svg);
    let (doc, title) = check_root(&svg);
    assert_eq!(
        title,
        "Schotten Totten (tactics), full state: first to move"
    );
    let known = match position {
        Position::Full(s) => [ONE, TWO]
            .iter()
            .flat_map(|&p| s.hand_cards(p))
            .filter(|h| h.known_to_opponent)
            .count(),
        Position::View(_) => 0,
    };
    assert_eq!(count(&doc, &["known"]), known);
    assert_eq!(count(&doc, &["mode", "mud"]), 1);
    assert_eq!(count(&doc, &["mode", "blind"]), 1);
    assert_eq!(count(&doc, &["completed-first", "first"]), 1);
    assert_eq!(count(&doc, &["known"]), 1);
    let texts = texts(&doc);
    for name in ["JOKER", "STRATEGIST", "SPY", "TRAITOR", "MUD", "BLIND"] {
        assert!(texts.iter().any(|t| t == name), "{name}");
    }
    assert!(texts.iter().any(|t| t == "discard pile: BANSHEE"));
    // The Strategist moving R9 from stone 2 to stone 3 marks both stones.
    let m = mv(&s, "p:STRATEGIST:R9@2>3/d:clan");
    let after = Position::Full(play(s, "p:STRATEGIST:R9@2>3/d:clan"));
    let svg = after.svg(Some(&m));
    check_cards(&after, &svg);
    assert_eq!(count(&check_root(&svg).0, &["last-move", "played"]), 2);
    save("schotten-totten", &svg);
}

#[test]
fn svg_of_a_dealt_game_follows_the_state() {
    let mut s = FullState::new_game(Variant::Tactics, 7);
    let mut last = None;
    for k in 0..14 {
        let moves = all_moves(&s);
        if moves.is_empty() {
            break;
        }
        let m = moves[(k * 5) % moves.len()];
        s = s.play(&m).unwrap();
        last = Some(m);
    }
    for position in [Position::Full(s.clone()), Position::View(s.view(ONE))] {
        let svg = position.svg(last.as_ref());
        check_cards(&position, &svg);
        assert_eq!(svg, position.svg(last.as_ref()), "deterministic");
    }
}
