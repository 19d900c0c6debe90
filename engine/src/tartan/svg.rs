//! The SVG diagram of a position: the hexagon of named cells with its Lochs,
//! the units with owner and height, the Bishops and blessings, the tokens
//! off the board and the last move.

use super::{Cell, Move, Phase, Tartan, QUIET_TURNS_DRAW};
use crate::game::{variant_name, Game, Outcome, Player};
use crate::svg::{self, circle, line, polygon, rect, text, HexLayout, Svg, Tag};

const SIZE: f64 = 30.0;
const LINE: f64 = 18.0;

const PLAIN: &str = "#efe6cf";
const LOCH: &str = "#8ec5e8";
const LOCH_EDGE: &str = "#3f7fae";
const EDGE: &str = "#8a7a5a";
const BLESSING: &str = "#e0a800";

/// Fill and outline of a player's tokens and Bishop.
fn colours(player: Player) -> (&'static str, &'static str) {
    match player {
        Player::One => ("#d1352b", "#6e150f"),
        Player::Two => ("#2f63c8", "#132c63"),
    }
}

const UNITS: [&str; 4] = ["Family", "Horde", "Army", "Cathedral"];

/// See `Played<Tartan>::svg`.
pub(crate) fn draw(
    pos: &Tartan,
    outcome: Option<&Outcome>,
    last: Option<(&Move, String)>,
) -> String {
    let geo = pos.variant.geometry();
    let coords = |cell: Cell| {
        let (c, r) = geo.coords[cell.index()];
        (c as usize, r as usize)
    };
    let cells = || (0..geo.cells as u8).map(Cell);
    let layout = HexLayout::fit(SIZE, 8.0, cells().map(coords));
    let at = |cell: Cell| {
        let (c, r) = coords(cell);
        layout.centre(c, r)
    };
    let phase = match pos.phase {
        Phase::Placement => "placement",
        Phase::Play => "play",
    };
    let turn = svg::turn_line(pos.side, outcome, Tartan::player_name);
    let variant = variant_name::<Tartan>(pos.variant);
    let bottom = layout.height;
    let mut svg = Svg::new(
        layout.width.max(470.0),
        bottom + 4.0 + 4.0 * LINE + 12.0,
        &format!("Tartan ({variant}), {phase}: {turn}"),
    );
    for cell in cells() {
        let (c, r) = coords(cell);
        let name = &geo.names[cell.index()];
        let hex = layout.hexagon(c, r, 0.5).names(name).tooltip(name);
        svg.add(if geo.lochs & (1 << cell.0) == 0 {
            hex.class("cell").fill(PLAIN).stroke(EDGE, 1.0)
        } else if cell.0 == geo.central {
            hex.class("cell loch central")
                .fill(LOCH)
                .stroke(LOCH_EDGE, 3.0)
        } else {
            hex.class("cell loch").fill(LOCH).stroke(LOCH_EDGE, 1.5)
        });
    }
    let move_cells = last.as_ref().map(|(m, _)| marked(m)).unwrap_or_default();
    for &(cell, role) in &move_cells {
        let (c, r) = coords(cell);
        svg.add(svg::last_move_mark(layout.hexagon(c, r, 3.0), role));
    }
    for cell in cells() {
        let (x, y) = at(cell);
        svg.add(
            text(x, y - 0.62 * SIZE, 8.5, "middle", &geo.names[cell.index()])
                .class("cell-name")
                .fill(svg::MUTED),
        );
    }
    for stack in pos.stacks() {
        draw_stack(
            &mut svg,
            at(stack.cell),
            stack.owner,
            stack.height,
            pos.blessed(stack.cell),
        );
    }
    for player in [Player::One, Player::Two] {
        let Some(cell) = pos.bishop(player) else {
            continue;
        };
        let (x, y) = at(cell);
        let shared = pos.bishop(player.opponent()) == Some(cell);
        let (bx, by, scale) = if shared {
            let dx = if player == Player::One { -0.3 } else { 0.3 };
            (x + dx * SIZE, y + 2.0, 1.3)
        } else if pos.stack(cell).is_some() {
            (x + 0.5 * SIZE, y - 0.25 * SIZE, 1.1)
        } else {
            (x, y + 2.0, 1.6)
        };
        draw_bishop(&mut svg, (bx, by), scale, player, cell);
    }
    if let Some((Move::Unit(_) | Move::Bishop { .. }, _)) = &last {
        let points: Vec<_> = move_cells.iter().map(|&(c, _)| at(c)).collect();
        svg.arrow("last-move arrow", &points, svg::LAST_MOVE, 4.0);
    }
    let (red, blue) = (pos.tokens(Player::One), pos.tokens(Player::Two));
    let tokens = match pos.phase {
        Phase::Placement => format!("tokens to place: red {red}, blue {blue}"),
        Phase::Play => format!(
            "reserves: red {red}, blue {blue}; quiet turns {} of {QUIET_TURNS_DRAW}",
            pos.counter
        ),
    };
    let mut lines = vec![(turn, "status"), (tokens, "status tokens")];
    if let Some((_, move_text)) = &last {
        lines.push((format!("last move: {move_text}"), "status last"));
    }
    let mut y = bottom + 4.0;
    for (line, class) in lines {
        svg.add(
            text(12.0, y, 13.0, "start", &line)
                .class(class)
                .fill(svg::INK),
        );
        y += LINE;
    }
    legend(&mut svg, y);
    svg.finish()
}

/// The cells of a move to mark, with their roles: a placement's cell, a unit's
/// or Bishop's start and landings, a dismantled Horde and its three Families.
fn marked(m: &Move) -> Vec<(Cell, &'static str)> {
    match m {
        Move::Place(cell) => vec![(*cell, "to")],
        Move::Pass => Vec::new(),
        Move::Unit(path) => path
            .cells()
            .enumerate()
            .map(|(k, c)| (c, if k == 0 { "from" } else { "to" }))
            .collect(),
        Move::Bishop { from, to } => vec![(*from, "from"), (*to, "to")],
        Move::Dismantle { horde, cells } => std::iter::once((*horde, "from"))
            .chain(cells.iter().map(|&c| (c, "to")))
            .collect(),
    }
}

/// One disc per token, the height written on the top one; a gold ring when blessed.
fn draw_stack(svg: &mut Svg, (x, y): (f64, f64), owner: Player, height: u8, blessed: bool) {
    let name = Tartan::player_name(owner);
    let h = height as usize;
    let unit = UNITS.get(h.wrapping_sub(1)).copied().unwrap_or("stack");
    let blessing = if blessed { " blessed" } else { "" };
    svg.open(
        Tag::new("g")
            .class(&format!("stack {name} h{h}{blessing}"))
            .tooltip(&format!("{name} {unit} ({h}){blessing}")),
    );
    let (fill, edge) = colours(owner);
    let radius = 0.38 * SIZE;
    let mut top = (x, y);
    for centre in svg::stacked(x, y + 3.0, h, 0.15 * SIZE) {
        svg.add(
            circle(centre.0, centre.1, radius)
                .class(&format!("token {name}"))
                .fill(fill)
                .stroke(edge, 1.5),
        );
        top = centre;
    }
    if blessed {
        svg.add(
            circle(top.0, top.1, radius + 3.5)
                .class("blessing")
                .fill("none")
                .stroke(BLESSING, 3.0),
        );
    }
    svg.add(
        text(top.0, top.1, 13.0, "middle", &h.to_string())
            .class("height")
            .fill("#ffffff")
            .attr("font-weight", "bold"),
    );
    svg.close();
}

/// A mitre in the owner's colour with a white cross.
fn draw_bishop(svg: &mut Svg, (x, y): (f64, f64), scale: f64, owner: Player, cell: Cell) {
    let name = Tartan::player_name(owner);
    let (fill, _) = colours(owner);
    let p = |dx: f64, dy: f64| (x + dx * scale, y + dy * scale);
    svg.open(
        Tag::new("g")
            .class(&format!("bishop {name}"))
            .tooltip(&format!("{name} Bishop on {cell}")),
    );
    svg.add(
        polygon(&[
            p(-6.0, 8.0),
            p(-6.0, -2.0),
            p(0.0, -10.0),
            p(6.0, -2.0),
            p(6.0, 8.0),
        ])
        .fill(fill)
        .stroke(BLESSING, 2.0)
        .attr("stroke-linejoin", "round"),
    );
    svg.add(line(p(0.0, -5.0), p(0.0, 5.0)).stroke("#ffffff", 1.8));
    svg.add(line(p(-3.5, -1.0), p(3.5, -1.0)).stroke("#ffffff", 1.8));
    svg.close();
}

/// The key: Lochs, the players' colours, Bishops and blessings.
fn legend(svg: &mut Svg, y: f64) {
    let mut x = 12.0;
    let label = |svg: &mut Svg, x: &mut f64, name: &str| {
        svg.add(
            text(*x + 16.0, y, 12.0, "start", name)
                .class("legend")
                .fill(svg::INK),
        );
        *x += 26.0 + 7.2 * name.len() as f64;
    };
    svg.add(
        rect(x, y - 6.0, 12.0, 12.0)
            .class("legend")
            .fill(LOCH)
            .stroke(LOCH_EDGE, 1.0),
    );
    label(svg, &mut x, "Loch");
    for player in [Player::One, Player::Two] {
        let (fill, edge) = colours(player);
        svg.add(
            circle(x + 6.0, y, 6.0)
                .class("legend")
                .fill(fill)
                .stroke(edge, 1.0),
        );
        label(svg, &mut x, Tartan::player_name(player));
    }
    svg.add(
        polygon(&[
            (x + 1.0, y + 6.0),
            (x + 1.0, y - 1.0),
            (x + 6.0, y - 7.0),
            (x + 11.0, y - 1.0),
            (x + 11.0, y + 6.0),
        ])
        .class("legend")
        .fill("#777777")
        .stroke(BLESSING, 1.5),
    );
    label(svg, &mut x, "Bishop");
    svg.add(
        circle(x + 6.0, y, 5.5)
            .class("legend")
            .fill("none")
            .stroke(BLESSING, 2.5),
    );
    label(svg, &mut x, "blessed");
    let heights = "height: 1 Family, 2 Horde, 3 Army, 4 Cathedral";
    svg.add(
        text(12.0, y + LINE, 12.0, "start", heights)
            .class("legend")
            .fill(svg::MUTED),
    );
}
