//! The evaluation chart of a review as SVG: one side's win probability (the
//! side that moves first in the variant, named on the chart) after every
//! move, the 50 % line, and the moves judged an inaccuracy, a mistake or a
//! blunder marked (each with its move, loss and the better move as a tooltip).

use std::fmt::Write;

use caber_service::proto;

const WIDTH: f64 = 800.0;
const HEIGHT: f64 = 300.0;
const MARGIN: f64 = 40.0;

/// XML text with `&`, `<`, `>` and quotes escaped.
fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The chart of a review's moves from `viewpoint`'s side (its value and
/// name); `title` heads it.
pub fn svg(title: &str, viewpoint: &(proto::Side, String), moves: &[proto::MoveReview]) -> String {
    let (side, name) = viewpoint;
    let plies = moves.len().max(1) as f64;
    let x = |ply: f64| MARGIN + ply / plies * (WIDTH - 2.0 * MARGIN);
    let y = |win: f64| MARGIN + (1.0 - win) * (HEIGHT - 2.0 * MARGIN);
    // The side's win probability before the first move and after each.
    let side_win = |m: &proto::MoveReview, after: bool| {
        let w = if after { m.win_after } else { m.win_before };
        if m.mover == *side as i32 {
            w
        } else {
            1.0 - w
        }
    };
    let mut points = Vec::new();
    if let Some(m) = moves.first() {
        points.push((0.0, side_win(m, false)));
    }
    for m in moves {
        points.push((f64::from(m.ply), side_win(m, true)));
    }
    let mut out = String::new();
    let _ = writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" width="{WIDTH}" height="{HEIGHT}" font-family="sans-serif" font-size="12">"#
    );
    let _ = writeln!(out, "<title>{}</title>", escape(title));
    let _ = writeln!(
        out,
        r##"<rect width="{WIDTH}" height="{HEIGHT}" fill="#fff"/>"##
    );
    let _ = writeln!(
        out,
        r##"<rect class="plot" x="{MARGIN}" y="{MARGIN}" width="{}" height="{}" fill="#f4f4f4" stroke="#999"/>"##,
        WIDTH - 2.0 * MARGIN,
        HEIGHT - 2.0 * MARGIN
    );
    let _ = writeln!(
        out,
        r##"<line class="even" x1="{MARGIN}" y1="{0}" x2="{1}" y2="{0}" stroke="#999" stroke-dasharray="4 4"/>"##,
        y(0.5),
        WIDTH - MARGIN
    );
    for (label, win) in [("100%", 1.0), ("50%", 0.5), ("0%", 0.0)] {
        let _ = writeln!(
            out,
            r#"<text class="axis" x="{}" y="{}" text-anchor="end">{label}</text>"#,
            MARGIN - 4.0,
            y(win) + 4.0
        );
    }
    // Ticks at moves: ply p is move (p + 1) / 2 of the side that moved,
    // labelled at the first side's plies (1, 3, 5, ...: moves 1, 2, 3, ...).
    let moves_count = moves.len().div_ceil(2);
    let step = moves_count.div_ceil(10).max(1);
    for number in (1..=moves_count).step_by(step) {
        let ply = 2 * number - 1;
        let _ = writeln!(
            out,
            r#"<text class="tick" x="{:.1}" y="{}" text-anchor="middle">{number}</text>"#,
            x(ply as f64),
            HEIGHT - MARGIN + 14.0
        );
    }
    let _ = writeln!(
        out,
        r#"<text class="axis" x="{}" y="{}" text-anchor="middle">move (one ply of each side; the review's lines number plies)</text>"#,
        WIDTH / 2.0,
        HEIGHT - 8.0
    );
    let _ = writeln!(
        out,
        r#"<text class="title" x="{MARGIN}" y="14" font-weight="bold">{}</text>"#,
        escape(title)
    );
    let _ = writeln!(
        out,
        r#"<text class="legend" x="{MARGIN}" y="30">{} win probability after each move; marks: inaccuracy (yellow), mistake (orange), blunder (red)</text>"#,
        escape(name)
    );
    let path: Vec<String> = points
        .iter()
        .map(|&(ply, win)| format!("{:.1},{:.1}", x(ply), y(win)))
        .collect();
    if let (Some(&(first, _)), Some(&(last, _))) = (points.first(), points.last()) {
        // The side's share filled under the curve, the other's above, as
        // Lichess fills its chart.
        let _ = writeln!(
            out,
            r##"<polygon class="area" points="{:.1},{:.1} {} {:.1},{:.1}" fill="#c9d6e8"/>"##,
            x(first),
            y(0.0),
            path.join(" "),
            x(last),
            y(0.0)
        );
    }
    let _ = writeln!(
        out,
        r##"<polyline class="win" points="{}" fill="none" stroke="#235" stroke-width="2"/>"##,
        path.join(" ")
    );
    for m in moves {
        let (class, colour) = match m.judgement() {
            proto::Judgement::Inaccuracy => ("inaccuracy", "#e6c200"),
            proto::Judgement::Mistake => ("mistake", "#f08000"),
            proto::Judgement::Blunder => ("blunder", "#d00000"),
            _ => continue,
        };
        let played = m.played.as_ref().map_or("", |p| p.text.as_str());
        let best = m.best.as_ref().map_or("", |b| b.text.as_str());
        let _ = writeln!(
            out,
            r#"<circle class="{class}" cx="{:.1}" cy="{:.1}" r="5" fill="{colour}"><title>{}. {} {}: {class} (-{:.2}), best {}</title></circle>"#,
            x(f64::from(m.ply)),
            y(side_win(m, true)),
            m.ply,
            escape(&m.mover_name),
            escape(played),
            m.loss,
            escape(best)
        );
    }
    out.push_str("</svg>\n");
    out
}
