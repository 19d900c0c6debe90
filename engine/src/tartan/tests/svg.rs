//! The SVG diagram: valid XML, named hexagons and Lochs, one group per unit
//! with owner and height, one disc per token, Bishops and blessings, the
//! tokens off the board and the last move's cells.

use super::*;
use crate::svg::tests::{check_root, count, names, save, texts, with_classes};

/// The units, tokens, Bishops and blessings drawn must be the position's.
fn check_units(p: &Pos, svg: &str) {
    let (doc, _) = check_root(svg);
    let pos = p.position();
    let stacks: Vec<Stack> = pos.stacks().collect();
    assert_eq!(count(&doc, &["stack"]), stacks.len());
    for (player, name) in [(RED, "red"), (BLUE, "blue")] {
        for h in 1..=4u8 {
            let want = stacks
                .iter()
                .filter(|s| s.owner == player && s.height == h)
                .count();
            assert_eq!(
                count(&doc, &["stack", name, &format!("h{h}")]),
                want,
                "{name} h{h}"
            );
        }
        let tokens: usize = stacks
            .iter()
            .filter(|s| s.owner == player)
            .map(|s| s.height as usize)
            .sum();
        assert_eq!(count(&doc, &["token", name]), tokens, "{name} tokens");
        assert_eq!(
            count(&doc, &["bishop", name]),
            pos.bishop(player).is_some() as usize
        );
    }
    let blessed = stacks.iter().filter(|s| pos.blessed(s.cell)).count();
    assert_eq!(count(&doc, &["stack", "blessed"]), blessed);
    assert_eq!(count(&doc, &["blessing"]), blessed);
    // Each unit shows its height as a number.
    let heights: Vec<String> = with_classes(&doc, &["height"])
        .iter()
        .map(|n| n.text().unwrap().to_string())
        .collect();
    let want: Vec<String> = stacks.iter().map(|s| s.height.to_string()).collect();
    assert_eq!(heights, want);
}

/// How many elements are marked as the last move's `from` and `to` cells, and arrows.
fn marks(svg: &str) -> (usize, usize, usize) {
    let (doc, _) = check_root(svg);
    (
        count(&doc, &["last-move", "from"]),
        count(&doc, &["last-move", "to"]),
        count(&doc, &["last-move", "arrow"]),
    )
}

#[test]
fn svg_of_the_start_shows_the_named_board_and_the_lochs() {
    let p = Pos::start(Variant::Standard, 0);
    let svg = p.svg(None);
    check_units(&p, &svg);
    let (doc, title) = check_root(&svg);
    assert_eq!(title, "Tartan (standard), placement: red to move");
    assert_eq!(count(&doc, &["cell"]), 61);
    assert_eq!(count(&doc, &["cell", "loch"]), 7);
    assert_eq!(count(&doc, &["cell", "loch", "central"]), 1);
    let central = with_classes(&doc, &["central"])[0];
    assert!(central.descendants().any(|n| n.text() == Some("E5")));
    assert_eq!(count(&doc, &["stack"]) + count(&doc, &["bishop"]), 0);
    assert_eq!(count(&doc, &["last-move"]), 0);
    let texts = texts(&doc);
    for cell in Cell::all() {
        assert!(texts.iter().any(|t| t == cell.as_str()), "{cell} unnamed");
    }
    // Every cell's hexagon is named for a page that turns clicks into moves.
    let cells: Vec<&str> = Cell::all().map(|c| c.as_str()).collect();
    assert_eq!(names(&doc), cells);
    assert!(texts
        .iter()
        .any(|t| t == "tokens to place: red 12, blue 12"));
}

#[test]
fn svg_of_the_placement_marks_the_placed_cell() {
    let mut p = Pos::start(Variant::Standard, 0);
    let mut last = None;
    for k in 0..7 {
        let mut moves = Vec::new();
        p.legal_moves(&mut moves);
        let m = moves[(k * 11) % moves.len()];
        p = p.clone().play(&m).unwrap();
        last = Some(m);
    }
    let svg = p.svg(last.as_ref());
    check_units(&p, &svg);
    assert_eq!(count(&check_root(&svg).0, &["token"]), 7);
    assert_eq!(marks(&svg), (0, 1, 0));
    assert!(texts(&check_root(&svg).0)
        .iter()
        .any(|t| t == "tokens to place: red 8, blue 9"));
    assert_eq!(marks(&p.svg(None)), (0, 0, 0));
}

#[test]
fn svg_of_play_shows_chains_bishops_blessings_and_dismantles() {
    // The three-hop chain of the docs: every cell marked, one arrow.
    let p = pos("play C4=r1,D4=r1,F4=r1,F7=b2 A5,I6 0,0 3 r -");
    let m = p.parse_move("C4-D4-F4-F7").unwrap();
    let after = play(&p, "C4-D4-F4-F7");
    let svg = after.svg(Some(&m));
    check_units(&after, &svg);
    assert_eq!(marks(&svg), (1, 3, 1));
    let (doc, title) = check_root(&svg);
    assert_eq!(title, "Tartan (standard), play: blue to move");
    assert_eq!(count(&doc, &["stack", "red", "h3"]), 1);
    assert!(texts(&doc)
        .iter()
        .any(|t| t == "reserves: red 0, blue 0; quiet turns 0 of 15"));
    save("tartan-chain", &svg);

    // Both Bishops on the central Loch, then one steps onto a blessed Horde.
    let p = pos("play D4=r2,F6=b1,B3=b4 E5,E5 1,2 0 b -");
    check_units(&p, &p.svg(None));
    save("tartan-bishops", &p.svg(None));
    let m = p.parse_move("B:E5-D4").unwrap();
    let after = play(&p, "B:E5-D4");
    let svg = after.svg(Some(&m));
    check_units(&after, &svg);
    assert_eq!(count(&check_root(&svg).0, &["stack", "blessed"]), 1);
    assert_eq!(marks(&svg), (1, 1, 1));
    save("tartan-blessed", &svg);

    // A dismantle: the Horde's cell and the three Families' cells, no arrow.
    let p = pos("play D4=r2,F6=b1 A5,I6 1,0 0 r -");
    let mut moves = Vec::new();
    p.legal_moves(&mut moves);
    let m = *moves
        .iter()
        .find(|m| matches!(m, Move::Dismantle { .. }))
        .unwrap();
    let after = p.clone().play(&m).unwrap();
    let svg = after.svg(Some(&m));
    check_units(&after, &svg);
    assert_eq!(marks(&svg), (1, 3, 0));
    save("tartan-dismantle", &svg);
}

#[test]
fn svg_of_a_played_game_follows_the_position() {
    let mut p = Pos::start(Variant::Standard, 0);
    let mut last = None;
    for k in 0..40 {
        if p.outcome().is_some() {
            break;
        }
        let mut moves = Vec::new();
        p.legal_moves(&mut moves);
        let m = moves[(k * 13) % moves.len()];
        p = p.clone().play(&m).unwrap();
        last = Some(m);
    }
    assert_eq!(p.position().phase(), Phase::Play);
    let svg = p.svg(last.as_ref());
    check_units(&p, &svg);
    let (doc, _) = check_root(&svg);
    assert!(count(&doc, &["last-move"]) >= 2);
    save("tartan", &svg);
}
