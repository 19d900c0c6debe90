//! The SVG diagram of a position: the 9x9 board with its coordinates, the
//! variant's special cells, the pieces and the last move.

use super::cells::{has, Cell, SIZE};
use super::variant::THRONE;
use super::{Move, Piece, Tablut};
use crate::game::{variant_name, Game, Outcome};
use crate::svg::{self, circle, polygon, rect, text, SquareGrid, Svg, Tag};

const CELL: f64 = 44.0;
const MARGIN: f64 = 26.0;
const LINE: f64 = 18.0;

const PLAIN: &str = "#f0dcb4";
const THRONE_FILL: &str = "#c9a0dc";
const CAMP_FILL: &str = "#c49a6c";
const ESCAPE_FILL: &str = "#a9d18e";
const BLACK: &str = "#1e1e1e";
const WHITE: &str = "#fbfbf8";
const GOLD: &str = "#c9a227";

/// See `Played<Tablut>::svg`.
pub(crate) fn draw(
    pos: &Tablut,
    outcome: Option<&Outcome>,
    last: Option<(&Move, String)>,
) -> String {
    let rules = pos.variant.rules();
    let grid = SquareGrid {
        cell: CELL,
        x0: MARGIN,
        y0: MARGIN,
    };
    let board = SIZE as f64 * CELL;
    let bottom = MARGIN + board;
    let turn = svg::turn_line(pos.side, outcome, Tablut::player_name);
    let variant = variant_name::<Tablut>(pos.variant);
    let mut svg = Svg::new(
        board + MARGIN + 10.0,
        bottom + 3.0 * LINE + 12.0,
        &format!("Tablut ({variant}): {turn}"),
    );
    for i in 0..SIZE {
        let (x, y) = grid.centre(i, i);
        let column = char::from(b'a' + i as u8).to_string();
        svg.add(
            text(x, MARGIN / 2.0, 13.0, "middle", &column)
                .class("coordinate column")
                .fill(svg::MUTED),
        );
        svg.add(
            text(MARGIN / 2.0, y, 13.0, "middle", &(i + 1).to_string())
                .class("coordinate row")
                .fill(svg::MUTED),
        );
    }
    for cell in Cell::all() {
        let i = cell.index();
        let (kind, fill) = if i == THRONE {
            ("throne", THRONE_FILL)
        } else if has(rules.camps, i) {
            ("camp", CAMP_FILL)
        } else if has(rules.escapes, i) {
            ("escape", ESCAPE_FILL)
        } else {
            ("plain", PLAIN)
        };
        svg.add(
            grid.square(cell.col(), cell.row(), 0.0)
                .class(&format!("cell {kind}"))
                .fill(fill)
                .stroke("#8a7050", 1.0)
                .names(&cell.to_string())
                .tooltip(&format!("{cell}: {kind}")),
        );
    }
    let step = last.as_ref().and_then(|(m, _)| match m {
        Move::Step { from, to } => Some((*from, *to)),
        Move::Pass => None,
    });
    if let Some((from, to)) = step {
        for (cell, end) in [(from, "from"), (to, "to")] {
            svg.add(svg::last_move_mark(
                grid.square(cell.col(), cell.row(), 2.0),
                end,
            ));
        }
    }
    for (cell, piece) in pos.pieces() {
        draw_piece(&mut svg, grid.centre(cell.col(), cell.row()), cell, piece);
    }
    if let Some((from, to)) = step {
        let ends = [
            grid.centre(from.col(), from.row()),
            grid.centre(to.col(), to.row()),
        ];
        svg.arrow("last-move arrow", &ends, svg::LAST_MOVE, 5.0);
    }
    let mut y = bottom + LINE;
    svg.add(
        text(MARGIN, y, 14.0, "start", &turn)
            .class("status")
            .fill(svg::INK),
    );
    if let Some((_, move_text)) = &last {
        y += LINE;
        svg.add(
            text(MARGIN, y, 13.0, "start", &format!("last move: {move_text}"))
                .class("status last")
                .fill(svg::INK),
        );
    }
    legend(&mut svg, bottom + 3.0 * LINE, rules.camps != 0);
    svg.finish()
}

fn draw_piece(svg: &mut Svg, (x, y): (f64, f64), cell: Cell, piece: Piece) {
    let r = 0.36 * CELL;
    match piece {
        Piece::Black => svg.add(
            circle(x, y, r)
                .class("piece black")
                .fill(BLACK)
                .stroke("#000000", 1.5)
                .tooltip(&format!("{cell}: black soldier")),
        ),
        Piece::White => svg.add(
            circle(x, y, r)
                .class("piece white")
                .fill(WHITE)
                .stroke("#444444", 1.5)
                .tooltip(&format!("{cell}: white soldier")),
        ),
        Piece::King => {
            svg.open(
                Tag::new("g")
                    .class("piece king")
                    .tooltip(&format!("{cell}: king")),
            );
            svg.add(circle(x, y, r + 2.0).fill(WHITE).stroke(GOLD, 4.0));
            let s = CELL / 44.0;
            let crown: Vec<(f64, f64)> = [
                (-10.0, 7.0),
                (-11.0, -7.0),
                (-5.0, -1.0),
                (0.0, -10.0),
                (5.0, -1.0),
                (11.0, -7.0),
                (10.0, 7.0),
            ]
            .iter()
            .map(|&(dx, dy)| (x + dx * s, y + dy * s))
            .collect();
            svg.add(polygon(&crown).fill(GOLD).stroke("#7a5c00", 1.0));
            svg.close();
        }
    }
}

/// The colour key of the special cells the variant has.
fn legend(svg: &mut Svg, y: f64, camps: bool) {
    let mut x = MARGIN;
    let keys = [
        ("throne", THRONE_FILL, true),
        ("camp", CAMP_FILL, camps),
        ("escape", ESCAPE_FILL, true),
    ];
    for (name, fill, shown) in keys {
        if !shown {
            continue;
        }
        svg.add(
            rect(x, y - 6.0, 12.0, 12.0)
                .class("legend")
                .fill(fill)
                .stroke("#8a7050", 1.0),
        );
        svg.add(
            text(x + 16.0, y, 12.0, "start", name)
                .class("legend")
                .fill(svg::INK),
        );
        x += 24.0 + 7.5 * name.len() as f64;
    }
}
