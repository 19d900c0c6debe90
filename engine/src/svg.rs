//! SVG diagrams of positions, shared by the games: a small document builder
//! (elements with escaped attributes and text, in drawing order), the
//! colours every game uses, and square-grid and hex-board geometry.
//!
//! Output is deterministic: numbers are written rounded to 0.01, elements in
//! the order drawn. Elements carry `class` attributes naming what they show
//! (`piece black`, `stack red h2`, `last-move`, ...) for tests and CSS;
//! colours are presentation attributes, so the pictures need no stylesheet.

use std::fmt::{Display, Write};

use crate::game::{GameResult, Outcome, Player};

/// Text and outlines.
pub const INK: &str = "#222222";
/// Secondary text (coordinates, cell names).
pub const MUTED: &str = "#5f5f5f";
/// The picture's background.
pub const PAPER: &str = "#ffffff";
/// The last move's marks.
pub const LAST_MOVE: &str = "#e8590c";
/// The fill behind the last move's cells.
pub const LAST_MOVE_FILL: &str = "#ffd43b";

/// `shape` (a cell's outline) as a mark of the last move: class
/// `last-move <role>` (`from`, `to`, ...), a translucent fill and a thick outline.
pub fn last_move_mark(shape: Tag, role: &str) -> Tag {
    shape
        .class(&format!("last-move {role}"))
        .fill(LAST_MOVE_FILL)
        .attr("fill-opacity", "0.45")
        .stroke(LAST_MOVE, 3.0)
}

/// Escapes `&`, `<`, `>`, `"` and `'` for XML text and attribute values.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for ch in text.chars() {
        match ch {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            c => out.push(c),
        }
    }
    out
}

/// A number as written: rounded to 0.01, no trailing zeros, no `-0`.
pub fn num(v: f64) -> String {
    let r = (v * 100.0).round() / 100.0;
    if r == 0.0 {
        "0".to_string()
    } else {
        r.to_string()
    }
}

/// One element to write: its name, attributes and optional text content.
#[derive(Clone, Debug)]
pub struct Tag {
    name: &'static str,
    attrs: String,
    text: Option<String>,
    tooltip: Option<String>,
}

impl Tag {
    /// An element with no attributes.
    pub fn new(name: &'static str) -> Tag {
        Tag {
            name,
            attrs: String::new(),
            text: None,
            tooltip: None,
        }
    }

    /// Adds an attribute; the value is escaped.
    pub fn attr(mut self, name: &str, value: impl Display) -> Tag {
        let _ = write!(self.attrs, " {name}=\"{}\"", escape(&value.to_string()));
        self
    }

    /// Adds a numeric attribute (see [`num`]).
    pub fn num(self, name: &str, value: f64) -> Tag {
        self.attr(name, num(value))
    }

    /// Adds the `class` attribute.
    pub fn class(self, class: &str) -> Tag {
        self.attr("class", class)
    }

    /// Fill colour.
    pub fn fill(self, colour: &str) -> Tag {
        self.attr("fill", colour)
    }

    /// Stroke colour and width.
    pub fn stroke(self, colour: &str, width: f64) -> Tag {
        self.attr("stroke", colour).num("stroke-width", width)
    }

    /// Sets the text content (escaped).
    pub fn text(mut self, text: &str) -> Tag {
        self.text = Some(text.to_string());
        self
    }

    /// Names the element as the game's move notation does (a cell `e4`, a
    /// card `G5`, a stone `@3`): `data-name`, for pages that turn clicks
    /// into moves.
    pub fn names(self, name: &str) -> Tag {
        self.attr("data-name", name)
    }

    /// A `<title>` child: the tooltip browsers show on hover.
    pub fn tooltip(mut self, text: &str) -> Tag {
        self.tooltip = Some(text.to_string());
        self
    }
}

/// A rectangle.
pub fn rect(x: f64, y: f64, w: f64, h: f64) -> Tag {
    Tag::new("rect")
        .num("x", x)
        .num("y", y)
        .num("width", w)
        .num("height", h)
}

/// A circle.
pub fn circle(cx: f64, cy: f64, r: f64) -> Tag {
    Tag::new("circle").num("cx", cx).num("cy", cy).num("r", r)
}

/// A straight line from `a` to `b`.
pub fn line(a: (f64, f64), b: (f64, f64)) -> Tag {
    Tag::new("line")
        .num("x1", a.0)
        .num("y1", a.1)
        .num("x2", b.0)
        .num("y2", b.1)
}

/// A closed polygon through `points`.
pub fn polygon(points: &[(f64, f64)]) -> Tag {
    Tag::new("polygon").attr("points", point_list(points))
}

/// A line of `size`-pixel text; `anchor` is `start`, `middle` or `end` at
/// `x`, and `y` is the middle of the letters (portable: no baseline attributes).
pub fn text(x: f64, y: f64, size: f64, anchor: &str, content: &str) -> Tag {
    Tag::new("text")
        .num("x", x)
        .num("y", y + 0.35 * size)
        .num("font-size", size)
        .attr("text-anchor", anchor)
        .text(content)
}

fn point_list(points: &[(f64, f64)]) -> String {
    points
        .iter()
        .map(|&(x, y)| format!("{},{}", num(x), num(y)))
        .collect::<Vec<_>>()
        .join(" ")
}

/// An SVG document being written; later elements are drawn on top.
#[derive(Debug)]
pub struct Svg {
    width: f64,
    height: f64,
    title: String,
    body: String,
    open: Vec<&'static str>,
}

impl Svg {
    /// A `width` x `height` picture (pixels, also its viewBox) titled `title`,
    /// on a white background.
    pub fn new(width: f64, height: f64, title: &str) -> Svg {
        let mut svg = Svg {
            width,
            height,
            title: title.to_string(),
            body: String::new(),
            open: Vec::new(),
        };
        svg.add(
            rect(0.0, 0.0, width, height)
                .class("background")
                .fill(PAPER),
        );
        svg
    }

    fn indent(&mut self) {
        for _ in 0..=self.open.len() {
            self.body.push_str("  ");
        }
    }

    /// Writes an element.
    pub fn add(&mut self, tag: Tag) {
        self.indent();
        let _ = write!(self.body, "<{}{}", tag.name, tag.attrs);
        if tag.text.is_none() && tag.tooltip.is_none() {
            self.body.push_str("/>\n");
            return;
        }
        self.body.push('>');
        if let Some(t) = &tag.tooltip {
            let _ = write!(self.body, "<title>{}</title>", escape(t));
        }
        if let Some(t) = &tag.text {
            self.body.push_str(&escape(t));
        }
        let _ = writeln!(self.body, "</{}>", tag.name);
    }

    /// Opens an element (a group `g`) that holds the elements written until
    /// [`Svg::close`]; its tooltip is written, its text is not.
    pub fn open(&mut self, tag: Tag) {
        self.indent();
        let _ = writeln!(self.body, "<{}{}>", tag.name, tag.attrs);
        if let Some(t) = &tag.tooltip {
            self.indent();
            let _ = writeln!(self.body, "  <title>{}</title>", escape(t));
        }
        self.open.push(tag.name);
    }

    /// Closes the element opened last.
    pub fn close(&mut self) {
        if let Some(name) = self.open.pop() {
            self.indent();
            let _ = writeln!(self.body, "</{name}>");
        }
    }

    /// An arrow along `points` (at least two), its head on the last point.
    pub fn arrow(&mut self, class: &str, points: &[(f64, f64)], colour: &str, width: f64) {
        let &[.., before, tip] = points else {
            return;
        };
        let (dx, dy) = (tip.0 - before.0, tip.1 - before.1);
        let len = (dx * dx + dy * dy).sqrt().max(1e-9);
        let (ux, uy) = (dx / len, dy / len);
        let head = 3.2 * width;
        let base = (tip.0 - ux * head, tip.1 - uy * head);
        let mut shaft = points[..points.len() - 1].to_vec();
        shaft.push(base);
        self.open(Tag::new("g").class(class).attr("opacity", "0.8"));
        self.add(
            Tag::new("polyline")
                .attr("points", point_list(&shaft))
                .fill("none")
                .stroke(colour, width)
                .attr("stroke-linecap", "round")
                .attr("stroke-linejoin", "round"),
        );
        let side = 0.55 * head;
        self.add(
            polygon(&[
                tip,
                (base.0 - uy * side, base.1 + ux * side),
                (base.0 + uy * side, base.1 - ux * side),
            ])
            .fill(colour),
        );
        self.close();
    }

    /// The finished document.
    pub fn finish(mut self) -> String {
        while !self.open.is_empty() {
            self.close();
        }
        let (w, h) = (num(self.width), num(self.height));
        format!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {w} {h}\" width=\"{w}\" \
             height=\"{h}\" font-family=\"DejaVu Sans, Verdana, Arial, sans-serif\">\n  \
             <title>{}</title>\n{}</svg>\n",
            escape(&self.title),
            self.body
        )
    }
}

/// The turn line of a title or caption: `"black to move"`, or the end of the
/// game (`"game over: white won (king escaped)"`), players named by `name`.
pub fn turn_line(
    to_move: Player,
    outcome: Option<&Outcome>,
    name: fn(Player) -> &'static str,
) -> String {
    match outcome {
        None => format!("{} to move", name(to_move)),
        Some(o) => match o.result {
            GameResult::Win(p) => format!("game over: {} won ({})", name(p), o.reason),
            GameResult::Draw => format!("game over: draw ({})", o.reason),
        },
    }
}

/// The centres of `height` discs stacked bottom to top on (`x`, `y`): each
/// one `step` pixels above the one under it, the stack centred on `y`.
pub fn stacked(x: f64, y: f64, height: usize, step: f64) -> impl Iterator<Item = (f64, f64)> {
    let mid = (height as f64 - 1.0) / 2.0;
    (0..height).map(move |k| (x, y + (mid - k as f64) * step))
}

/// A square board of `cell`-pixel squares whose top-left corner is at (`x0`, `y0`).
#[derive(Clone, Copy, Debug)]
pub struct SquareGrid {
    /// Side of a square.
    pub cell: f64,
    /// Left edge of the board.
    pub x0: f64,
    /// Top edge of the board.
    pub y0: f64,
}

impl SquareGrid {
    /// The top-left corner of the square in column `col` and row `row` (0-based, row 0 on top).
    pub fn corner(&self, col: usize, row: usize) -> (f64, f64) {
        (
            self.x0 + col as f64 * self.cell,
            self.y0 + row as f64 * self.cell,
        )
    }

    /// The centre of a square.
    pub fn centre(&self, col: usize, row: usize) -> (f64, f64) {
        let (x, y) = self.corner(col, row);
        (x + self.cell / 2.0, y + self.cell / 2.0)
    }

    /// The square as a rectangle, `inset` pixels inside its edges.
    pub fn square(&self, col: usize, row: usize, inset: f64) -> Tag {
        let (x, y) = self.corner(col, row);
        rect(
            x + inset,
            y + inset,
            self.cell - 2.0 * inset,
            self.cell - 2.0 * inset,
        )
    }
}

/// A hex board of pointy-top hexagons in axial coordinates: cell (c, r)
/// neighbours (c ± 1, r), (c, r ± 1), (c + 1, r + 1) and (c − 1, r − 1), as
/// AlmaTafl and Tartan number them. Row r is drawn at height 1.5·size·r and
/// a cell at √3·size·(c − r/2) across, so neighbours share an edge.
#[derive(Clone, Copy, Debug)]
pub struct HexLayout {
    /// A hexagon's circumradius.
    pub size: f64,
    x0: f64,
    y0: f64,
    /// Width of the board's bounding box, margins included.
    pub width: f64,
    /// Height of the board's bounding box, margins included.
    pub height: f64,
}

impl HexLayout {
    /// The layout fitting `cells` (column, row) with `margin` pixels around
    /// the hexagons, its box's top-left corner at (0, 0).
    pub fn fit(
        size: f64,
        margin: f64,
        cells: impl IntoIterator<Item = (usize, usize)>,
    ) -> HexLayout {
        let raw = |c: usize, r: usize| {
            let (c, r) = (c as f64, r as f64);
            (3f64.sqrt() * size * (c - r / 2.0), 1.5 * size * r)
        };
        let (mut lo, mut hi) = ((f64::MAX, f64::MAX), (f64::MIN, f64::MIN));
        for (c, r) in cells {
            let (x, y) = raw(c, r);
            lo = (lo.0.min(x), lo.1.min(y));
            hi = (hi.0.max(x), hi.1.max(y));
        }
        if lo.0 > hi.0 {
            (lo, hi) = ((0.0, 0.0), (0.0, 0.0));
        }
        let half_w = 3f64.sqrt() / 2.0 * size;
        HexLayout {
            size,
            x0: margin + half_w - lo.0,
            y0: margin + size - lo.1,
            width: hi.0 - lo.0 + 2.0 * (half_w + margin),
            height: hi.1 - lo.1 + 2.0 * (size + margin),
        }
    }

    /// The centre of cell (c, r).
    pub fn centre(&self, c: usize, r: usize) -> (f64, f64) {
        let (cf, rf) = (c as f64, r as f64);
        (
            self.x0 + 3f64.sqrt() * self.size * (cf - rf / 2.0),
            self.y0 + 1.5 * self.size * rf,
        )
    }

    /// The hexagon of cell (c, r), `inset` pixels smaller than the cell.
    pub fn hexagon(&self, c: usize, r: usize, inset: f64) -> Tag {
        let (x, y) = self.centre(c, r);
        polygon(&hexagon_points(x, y, self.size - inset))
    }
}

/// The corners of a pointy-top hexagon with circumradius `size`, top corner first.
pub fn hexagon_points(cx: f64, cy: f64, size: f64) -> [(f64, f64); 6] {
    std::array::from_fn(|k| {
        let angle = (60.0 * k as f64 - 90.0).to_radians();
        (cx + size * angle.cos(), cy + size * angle.sin())
    })
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// The elements of `doc` whose class list holds every one of `classes`.
    pub(crate) fn with_classes<'a, 'i>(
        doc: &'a roxmltree::Document<'i>,
        classes: &[&str],
    ) -> Vec<roxmltree::Node<'a, 'i>> {
        doc.descendants()
            .filter(|n| {
                n.attribute("class").is_some_and(|c| {
                    let have: Vec<&str> = c.split_whitespace().collect();
                    classes.iter().all(|k| have.contains(k))
                })
            })
            .collect()
    }

    /// How many elements of `doc` have every one of `classes`.
    pub(crate) fn count(doc: &roxmltree::Document, classes: &[&str]) -> usize {
        with_classes(doc, classes).len()
    }

    /// The texts of every `text` element.
    /// The `data-name` of every named element, in document order.
    pub(crate) fn names(doc: &roxmltree::Document) -> Vec<String> {
        doc.descendants()
            .filter_map(|n| n.attribute("data-name"))
            .map(str::to_string)
            .collect()
    }

    pub(crate) fn texts(doc: &roxmltree::Document) -> Vec<String> {
        doc.descendants()
            .filter(|n| n.has_tag_name("text"))
            .map(|n| n.text().unwrap_or("").to_string())
            .collect()
    }

    /// Parses `svg`, checks its root (namespace, viewBox matching width and
    /// height) and that the first child is a non-empty `<title>`; returns the title.
    pub(crate) fn check_root(svg: &str) -> (roxmltree::Document<'_>, String) {
        let doc = roxmltree::Document::parse(svg).unwrap_or_else(|e| panic!("{e}\n{svg}"));
        let root = doc.root_element();
        assert!(root.has_tag_name(("http://www.w3.org/2000/svg", "svg")));
        let (w, h) = (
            root.attribute("width").unwrap(),
            root.attribute("height").unwrap(),
        );
        assert_eq!(
            root.attribute("viewBox"),
            Some(format!("0 0 {w} {h}").as_str())
        );
        assert!(w.parse::<f64>().unwrap() > 100.0 && h.parse::<f64>().unwrap() > 100.0);
        let title = root.first_element_child().expect("a title");
        assert!(title.has_tag_name("title"));
        let title = title.text().unwrap_or("").to_string();
        assert!(!title.is_empty());
        (doc, title)
    }

    /// Writes `svg` to `$CABER_SVG_DIR/<name>.svg` when that variable is set,
    /// to look at the pictures the tests draw.
    pub(crate) fn save(name: &str, svg: &str) {
        if let Some(dir) = std::env::var_os("CABER_SVG_DIR") {
            let dir = std::path::PathBuf::from(dir);
            std::fs::create_dir_all(&dir).expect("create CABER_SVG_DIR");
            std::fs::write(dir.join(format!("{name}.svg")), svg).expect("write the SVG");
        }
    }

    /// Text and attributes are escaped; numbers are rounded; nested groups close.
    #[test]
    fn svg_documents_are_escaped_xml() {
        assert_eq!(
            escape("a<b & \"c\" 'd'>"),
            "a&lt;b &amp; &quot;c&quot; &apos;d&apos;&gt;"
        );
        assert_eq!(num(1.0 / 3.0), "0.33");
        assert_eq!(num(-0.001), "0");
        assert_eq!(num(12.0), "12");
        let mut svg = Svg::new(200.0, 150.0, "x < y & \"z\"");
        svg.open(Tag::new("g").class("outer").tooltip("g & h"));
        svg.open(Tag::new("g").class("inner"));
        svg.add(text(1.0, 2.0, 10.0, "start", "<K>").class("label"));
        svg.arrow("last-move", &[(0.0, 0.0), (50.0, 0.0)], LAST_MOVE, 4.0);
        let out = svg.finish();
        let (doc, title) = check_root(&out);
        assert_eq!(title, "x < y & \"z\"");
        assert_eq!(texts(&doc), ["<K>"]);
        assert_eq!(count(&doc, &["outer"]), 1);
        assert_eq!(count(&doc, &["last-move"]), 1);
    }

    /// Hex neighbours are one hex width apart; corners lie on the circumcircle.
    #[test]
    fn svg_hex_geometry_puts_neighbours_edge_to_edge() {
        let layout = HexLayout::fit(10.0, 5.0, [(0, 0), (1, 0), (1, 1)]);
        let d = |a: (f64, f64), b: (f64, f64)| ((a.0 - b.0).powi(2) + (a.1 - b.1).powi(2)).sqrt();
        let w = 3f64.sqrt() * 10.0;
        for (a, b) in [((0, 0), (1, 0)), ((0, 0), (1, 1)), ((1, 0), (1, 1))] {
            let dist = d(layout.centre(a.0, a.1), layout.centre(b.0, b.1));
            assert!((dist - w).abs() < 1e-9, "{a:?} {b:?}: {dist}");
        }
        let (x, y) = layout.centre(0, 0);
        assert!((x - (5.0 + w / 2.0)).abs() < 1e-9 && (y - 15.0).abs() < 1e-9);
        for p in hexagon_points(x, y, 10.0) {
            assert!((d(p, (x, y)) - 10.0).abs() < 1e-9);
        }
        assert!((layout.width - (2.0 * w + 10.0)).abs() < 1e-9);
    }
}
