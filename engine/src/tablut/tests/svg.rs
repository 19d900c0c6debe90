//! The SVG diagram: valid XML, coordinates, special cells per variant, one
//! element per piece, the last move marked only when given.

use super::rules::{play, pos, ALL, B};
use super::Pos;
use crate::svg::tests::{check_root, count, names, save, texts, with_classes};
use crate::tablut::{Cell, Piece, Tablut, Variant};

/// The pieces drawn (black, white, king) must be the position's.
fn check_pieces(p: &Pos, svg: &str) {
    let (doc, _) = check_root(svg);
    let have = |piece| p.position().pieces().filter(|&(_, x)| x == piece).count();
    assert_eq!(count(&doc, &["piece", "black"]), have(Piece::Black));
    assert_eq!(count(&doc, &["piece", "white"]), have(Piece::White));
    assert_eq!(count(&doc, &["piece", "king"]), have(Piece::King));
    assert_eq!(count(&doc, &["piece"]), p.position().pieces().count());
}

#[test]
fn svg_of_the_start_shows_coordinates_special_cells_and_pieces() {
    // (variant, camps, escape cells)
    let specials = [
        (Variant::Bga, 16, 20),
        (Variant::BgaCorners, 0, 4),
        (Variant::Ashton, 16, 20),
        (Variant::Linnaeus, 0, 32),
    ];
    for (variant, camps, escapes) in specials {
        let p = Pos::start(variant, 0);
        let svg = p.svg(None);
        let (doc, title) = check_root(&svg);
        let name = crate::game::variant_name::<Tablut>(variant);
        let side = if variant == Variant::Ashton {
            "white"
        } else {
            "black"
        };
        assert_eq!(title, format!("Tablut ({name}): {side} to move"));
        check_pieces(&p, &svg);
        // Every cell is named for a page that turns clicks into moves.
        let cells: Vec<String> = Cell::all().map(|c| c.to_string()).collect();
        assert_eq!(names(&doc), cells);
        assert_eq!(count(&doc, &["piece", "black"]), 16);
        assert_eq!(count(&doc, &["piece", "white"]), 8);
        assert_eq!(count(&doc, &["piece", "king"]), 1);
        assert_eq!(count(&doc, &["cell"]), 81);
        assert_eq!(count(&doc, &["cell", "throne"]), 1, "{variant:?}");
        assert_eq!(count(&doc, &["cell", "camp"]), camps, "{variant:?}");
        assert_eq!(count(&doc, &["cell", "escape"]), escapes, "{variant:?}");
        assert_eq!(count(&doc, &["last-move"]), 0);
        let texts = texts(&doc);
        for label in ["a", "e", "i", "1", "5", "9"] {
            assert!(texts.iter().any(|t| t == label), "{label} missing");
        }
        assert_eq!(svg, p.svg(None), "deterministic");
    }
}

#[test]
fn svg_row_1_is_the_top_row() {
    // The king on e2 is drawn in the second row from the top.
    let p = pos(Variant::Linnaeus, B, "a9", "", "e2");
    let svg = p.svg(None);
    let (doc, _) = check_root(&svg);
    let y = |n: roxmltree::Node| n.attribute("y").unwrap().parse::<f64>().unwrap();
    let labels: Vec<_> = doc
        .descendants()
        .filter(|n| n.attribute("class") == Some("coordinate row"))
        .collect();
    let row = |t: &str| y(*labels.iter().find(|n| n.text() == Some(t)).unwrap());
    assert!(row("1") < row("9"));
    let king = with_classes(&doc, &["piece", "king"])[0];
    let disc = king.children().find(|n| n.has_tag_name("circle")).unwrap();
    let cy: f64 = disc.attribute("cy").unwrap().parse().unwrap();
    assert!(
        (cy - row("2")).abs() < 10.0,
        "king at {cy}, row 2 at {}",
        row("2")
    );
}

#[test]
fn svg_of_a_game_marks_the_last_move_and_follows_captures() {
    for variant in ALL {
        let mut p = Pos::start(variant, 0);
        let mut last = None;
        for _ in 0..6 {
            let mut moves = Vec::new();
            p.legal_moves(&mut moves);
            let m = moves[moves.len() / 3];
            p = p.clone().play(&m).unwrap();
            last = Some(m);
        }
        let svg = p.svg(last.as_ref());
        check_pieces(&p, &svg);
        let (doc, _) = check_root(&svg);
        assert_eq!(count(&doc, &["last-move", "from"]), 1);
        assert_eq!(count(&doc, &["last-move", "to"]), 1);
        assert_eq!(count(&doc, &["last-move", "arrow"]), 1);
        let text = format!("last move: {}", p.move_to_text(&last.unwrap()));
        assert!(texts(&doc).contains(&text), "{text}");
        let plain = p.svg(None);
        let (plain, _) = check_root(&plain);
        assert_eq!(count(&plain, &["last-move"]), 0);
        if variant == Variant::Bga {
            save("tablut", &svg);
        }
    }
    // d7-d3 captures c3: one white soldier fewer.
    let p = pos(Variant::Bga, B, "b3 d7", "c3", "e5");
    let m = p.parse_move("d7-d3").unwrap();
    let after = play(&p, "d7-d3");
    let svg = after.svg(Some(&m));
    check_pieces(&after, &svg);
    let (doc, title) = check_root(&svg);
    assert_eq!(count(&doc, &["piece", "white"]), 0);
    assert_eq!(title, "Tablut (bga): white to move");
}
