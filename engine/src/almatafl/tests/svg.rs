//! The SVG diagram: valid XML, every cell a named hexagon, one disc per
//! piece and one group per stack with its height, the chain of the last move.

use super::*;
use crate::svg::tests::{check_root, count, names, save, texts, with_classes};

/// The stacks and discs drawn must be the position's.
fn check_stacks(p: &Pos, svg: &str) {
    let (doc, _) = check_root(svg);
    let stacks = p.position().stacks();
    assert_eq!(count(&doc, &["stack"]), stacks.len());
    for h in 1..=3 {
        let want = stacks.iter().filter(|(_, s)| s.len() == h).count();
        assert_eq!(
            count(&doc, &["stack", &format!("h{h}")]),
            want,
            "height {h}"
        );
    }
    for (piece, name) in [
        (Piece::Invader, "invader"),
        (Piece::Defender, "defender"),
        (Piece::King, "king"),
    ] {
        let want = stacks
            .iter()
            .flat_map(|(_, s)| s)
            .filter(|&&x| x == piece)
            .count();
        assert_eq!(count(&doc, &["piece", name]), want, "{name}");
        let tops = stacks
            .iter()
            .filter(|(_, s)| s.last() == Some(&piece))
            .count();
        assert_eq!(
            count(&doc, &["stack", name]),
            tops,
            "stacks topped by {name}"
        );
    }
    // A height badge (circle and number) on every stack of 2 or 3.
    let tall = stacks.iter().filter(|(_, s)| s.len() >= 2).count();
    assert_eq!(count(&doc, &["height"]), 2 * tall);
}

#[test]
fn svg_of_the_start_shows_every_named_cell_and_piece() {
    let p = Pos::start(Variant::Standard, 0);
    let svg = p.svg(None);
    check_stacks(&p, &svg);
    let (doc, title) = check_root(&svg);
    assert_eq!(title, "AlmaTafl (standard): invaders to move");
    assert_eq!(count(&doc, &["cell"]), 73);
    assert_eq!(count(&doc, &["cell", "escape"]), 12);
    assert_eq!(count(&doc, &["cell", "throne"]), 1);
    assert_eq!(count(&doc, &["piece", "invader"]), 24);
    assert_eq!(count(&doc, &["piece", "defender"]), 12);
    assert_eq!(count(&doc, &["piece", "king"]), 1);
    assert_eq!(count(&doc, &["last-move"]), 0);
    let texts = texts(&doc);
    for cell in Cell::all() {
        assert!(texts.iter().any(|t| t == cell.as_str()), "{cell} unnamed");
    }
    // Every cell's hexagon is named for a page that turns clicks into moves.
    let cells: Vec<&str> = Cell::all().map(|c| c.as_str()).collect();
    assert_eq!(names(&doc), cells);
    // The throne's hexagon is F6's.
    let throne = with_classes(&doc, &["cell", "throne"])[0];
    assert!(throne.descendants().any(|n| n.text() == Some("F6: throne")));
}

#[test]
fn svg_draws_stacks_bottom_to_top_and_the_whole_chain() {
    let p = pos("B2=i,C3=d,D5=id,E5=iid,F6=k,F7=i,F9=i d -");
    let m = p.parse_move("F6-F7-F9-D9").unwrap();
    let after = play(&p, "F6-F7-F9-D9");
    let svg = after.svg(Some(&m));
    check_stacks(&after, &svg);
    let (doc, title) = check_root(&svg);
    assert_eq!(
        title,
        "AlmaTafl (standard): game over: defenders won (king escaped)"
    );
    // The diagram's last line too says how it ended, not whose turn it is.
    assert_eq!(
        after.diagram().lines().last(),
        Some("game over: king escaped")
    );
    assert_eq!(count(&doc, &["last-move", "from"]), 1);
    assert_eq!(count(&doc, &["last-move", "to"]), 3);
    assert_eq!(count(&doc, &["last-move", "arrow"]), 1);
    assert!(texts(&doc).iter().any(|t| t == "last move: F6-F7-F9-D9"));
    // E5's stack: invader, invader, defender, drawn in that order, each higher.
    let e5 = with_classes(&doc, &["stack", "defender", "h3"])[0];
    let discs: Vec<_> = e5
        .descendants()
        .filter(|n| {
            n.has_tag_name("circle") && n.attribute("class").is_some_and(|c| c.starts_with("piece"))
        })
        .collect();
    let order: Vec<_> = discs
        .iter()
        .map(|n| n.attribute("class").unwrap())
        .collect();
    assert_eq!(order, ["piece invader", "piece invader", "piece defender"]);
    let ys: Vec<f64> = discs
        .iter()
        .map(|n| n.attribute("cy").unwrap().parse().unwrap())
        .collect();
    assert!(ys[0] > ys[1] && ys[1] > ys[2], "{ys:?}");
    save("almatafl-chain", &svg);
}

#[test]
fn svg_of_a_game_follows_the_position() {
    let mut p = Pos::start(Variant::Standard, 0);
    let mut last = None;
    for k in 0..12 {
        let mut moves = Vec::new();
        p.legal_moves(&mut moves);
        let m = moves[(k * 7) % moves.len()];
        p = p.clone().play(&m).unwrap();
        last = Some(m);
    }
    let svg = p.svg(last.as_ref());
    check_stacks(&p, &svg);
    let (doc, _) = check_root(&svg);
    let cells = last.unwrap().cells().len();
    assert_eq!(
        count(&doc, &["last-move", "from"]) + count(&doc, &["last-move", "to"]),
        cells
    );
    let plain = p.svg(None);
    let (plain, _) = check_root(&plain);
    assert_eq!(count(&plain, &["last-move"]), 0);
    save("almatafl", &svg);
}
