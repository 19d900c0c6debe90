//! The SVG diagram of a position: the star of hexagons with the cell names,
//! escape spots and throne, the stacks bottom to top, and the last move.

use super::{AlmaTafl, Cell, Move, Piece};
use crate::game::{Game, Outcome};
use crate::svg::{self, circle, polygon, rect, text, HexLayout, Svg, Tag};

const SIZE: f64 = 30.0;
const LINE: f64 = 18.0;

const PLAIN: &str = "#efe0c2";
const ESCAPE_FILL: &str = "#a9d18e";
const THRONE_FILL: &str = "#c9a0dc";
const EDGE: &str = "#8a7050";

/// Fill and outline of a piece's disc.
fn colours(piece: Piece) -> (&'static str, &'static str) {
    match piece {
        Piece::Invader => ("#262626", "#c8c8c8"),
        Piece::Defender => ("#fbfbf8", "#3a3a3a"),
        Piece::King => ("#e6bc2a", "#6b5200"),
    }
}

fn piece_name(piece: Piece) -> &'static str {
    match piece {
        Piece::Invader => "invader",
        Piece::Defender => "defender",
        Piece::King => "king",
    }
}

/// See `Played<AlmaTafl>::svg`.
pub(crate) fn draw(
    pos: &AlmaTafl,
    outcome: Option<&Outcome>,
    last: Option<(&Move, String)>,
) -> String {
    let layout = HexLayout::fit(SIZE, 8.0, Cell::all().map(Cell::coords));
    let at = |cell: Cell| {
        let (c, r) = cell.coords();
        layout.centre(c, r)
    };
    let turn = svg::turn_line(pos.side, outcome, AlmaTafl::player_name);
    let bottom = layout.height;
    let mut svg = Svg::new(
        layout.width,
        bottom + 3.0 * LINE + 8.0,
        &format!("AlmaTafl (standard): {turn}"),
    );
    for cell in Cell::all() {
        let (c, r) = cell.coords();
        let (kind, fill) = if cell.is_escape() {
            ("escape", ESCAPE_FILL)
        } else if cell.is_throne() {
            ("throne", THRONE_FILL)
        } else {
            ("plain", PLAIN)
        };
        svg.add(
            layout
                .hexagon(c, r, 0.5)
                .class(&format!("cell {kind}"))
                .fill(fill)
                .stroke(EDGE, 1.0)
                .names(&cell.to_string())
                .tooltip(&format!("{cell}: {kind}")),
        );
    }
    let chain = last.as_ref().map(|(m, _)| m.cells()).unwrap_or_default();
    for (k, &cell) in chain.iter().enumerate() {
        let (c, r) = cell.coords();
        let end = if k == 0 { "from" } else { "to" };
        svg.add(svg::last_move_mark(layout.hexagon(c, r, 3.0), end));
    }
    for cell in Cell::all() {
        let (x, y) = at(cell);
        svg.add(
            text(x, y - 0.62 * SIZE, 8.5, "middle", cell.as_str())
                .class("cell-name")
                .fill(svg::MUTED),
        );
    }
    for (cell, pieces) in pos.stacks() {
        draw_stack(&mut svg, at(cell), cell, &pieces);
    }
    if chain.len() >= 2 {
        let points: Vec<_> = chain.iter().map(|&c| at(c)).collect();
        svg.arrow("last-move arrow", &points, svg::LAST_MOVE, 4.0);
    }
    let mut y = bottom + 4.0;
    svg.add(
        text(12.0, y, 14.0, "start", &turn)
            .class("status")
            .fill(svg::INK),
    );
    if let Some((_, move_text)) = &last {
        y += LINE;
        svg.add(
            text(12.0, y, 13.0, "start", &format!("last move: {move_text}"))
                .class("status last")
                .fill(svg::INK),
        );
    }
    legend(&mut svg, bottom + 2.0 * LINE + 6.0);
    svg.finish()
}

/// One disc per piece, bottom first, the height in a badge from 2 up.
fn draw_stack(svg: &mut Svg, (x, y): (f64, f64), cell: Cell, pieces: &[Piece]) {
    let h = pieces.len();
    let top = pieces.last().copied().unwrap_or(Piece::Invader);
    let names: Vec<&str> = pieces.iter().map(|&p| piece_name(p)).collect();
    svg.open(
        Tag::new("g")
            .class(&format!("stack {} h{h}", piece_name(top)))
            .tooltip(&format!("{cell}: {} (bottom to top)", names.join(", "))),
    );
    let radius = 0.36 * SIZE;
    for (&piece, (px, py)) in pieces.iter().zip(svg::stacked(x, y + 3.0, h, 0.2 * SIZE)) {
        let (fill, edge) = colours(piece);
        let class = format!("piece {}", piece_name(piece));
        if piece == Piece::King {
            svg.open(Tag::new("g").class(&class));
            svg.add(circle(px, py, radius).fill(fill).stroke(edge, 1.5));
            let crown: Vec<(f64, f64)> = [
                (-6.0, 4.0),
                (-7.0, -4.0),
                (-3.0, 0.0),
                (0.0, -6.0),
                (3.0, 0.0),
                (7.0, -4.0),
                (6.0, 4.0),
            ]
            .iter()
            .map(|&(dx, dy)| (px + dx, py + dy))
            .collect();
            svg.add(polygon(&crown).fill("#fff6d0").stroke(edge, 1.0));
            svg.close();
        } else {
            svg.add(
                circle(px, py, radius)
                    .class(&class)
                    .fill(fill)
                    .stroke(edge, 1.5),
            );
        }
    }
    if h >= 2 {
        let (bx, by) = (x + 0.5 * SIZE, y + 0.42 * SIZE);
        svg.add(
            circle(bx, by, 7.0)
                .class("height")
                .fill("#ffffff")
                .stroke(svg::INK, 1.0),
        );
        svg.add(
            text(bx, by, 10.0, "middle", &h.to_string())
                .class("height")
                .fill(svg::INK)
                .attr("font-weight", "bold"),
        );
    }
    svg.close();
}

/// The colour key of the cells and pieces.
fn legend(svg: &mut Svg, y: f64) {
    let mut x = 12.0;
    for (name, fill, edge) in [("escape", ESCAPE_FILL, EDGE), ("throne", THRONE_FILL, EDGE)] {
        svg.add(
            rect(x, y - 6.0, 12.0, 12.0)
                .class("legend")
                .fill(fill)
                .stroke(edge, 1.0),
        );
        svg.add(
            text(x + 16.0, y, 12.0, "start", name)
                .class("legend")
                .fill(svg::INK),
        );
        x += 24.0 + 7.5 * name.len() as f64;
    }
    for piece in [Piece::Invader, Piece::Defender, Piece::King] {
        let (fill, edge) = colours(piece);
        svg.add(
            circle(x + 6.0, y, 6.0)
                .class("legend")
                .fill(fill)
                .stroke(edge, 1.0),
        );
        let name = piece_name(piece);
        svg.add(
            text(x + 16.0, y, 12.0, "start", name)
                .class("legend")
                .fill(svg::INK),
        );
        x += 24.0 + 7.5 * name.len() as f64;
    }
}
