//! The evaluation chart of a review as SVG: one side's win probability (the
//! game's White, `GameInfo.white`, named on the chart) after every ply as
//! that side valued it (in a game with hidden information, from what
//! it knew: its own searches only), the 50 % line, and the moves judged an
//! inaccuracy, a mistake or a blunder marked (each with its move, loss and
//! the better move as a tooltip). Every fall of the curve is a marked move
//! or is drawn as noise: on the side's own moves, a grey dashed step from
//! its value of the position to its value of its best move (two searches
//! disagreeing, not the move), the rest being the move's loss (whiskers of
//! ± a sampled loss's noise); on the other side's moves, a fall the other
//! side's review does not explain (the side's estimate was off) is grey
//! dashed too.

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

/// `side`'s value of each position, as (ply, win probability): where it
/// moves, its own search of the position (the review's score before its
/// move), then its best move's value at the same ply, then the position
/// after its move by its own search of it; after the other side's move,
/// only the side's next search or, at the end, the outcome.
fn curve(side: proto::Side, moves: &[proto::MoveReview]) -> Vec<(f64, f64)> {
    let mut points = Vec::new();
    for (k, m) in moves.iter().enumerate() {
        let at = k as f64;
        if m.mover == side as i32 {
            if let Some(score) = &m.before {
                points.push((at, score.win_probability));
            }
            points.push((at, m.win_before));
            points.push((at + 1.0, m.win_after));
        } else if k + 1 == moves.len() && [0.0, 0.5, 1.0].contains(&m.win_after) {
            // The end of the game: its outcome, whoever values it.
            points.push((at + 1.0, 1.0 - m.win_after));
        }
    }
    points.dedup_by(|b, a| a.0 == b.0 && (a.1 - b.1).abs() < 1e-9);
    points
}

/// The chart of a review's moves from `viewpoint`'s side (its value and
/// name); `title` heads it; `inaccuracy` is the review's least loss of a
/// judged move.
pub fn svg(
    title: &str,
    viewpoint: &(proto::Side, String),
    moves: &[proto::MoveReview],
    inaccuracy: f64,
) -> String {
    let (side, name) = viewpoint;
    let plies = moves.len().max(1) as f64;
    let x = |ply: f64| MARGIN + ply / plies * (WIDTH - 2.0 * MARGIN);
    let y = |win: f64| MARGIN + (1.0 - win) * (HEIGHT - 2.0 * MARGIN);
    // The side's win probability at every ply, as it valued it.
    let points = curve(*side, moves);
    // Where a move's mark goes: the curve after it, else the mover's value.
    let after = |m: &proto::MoveReview| {
        let ply = f64::from(m.ply);
        match points.iter().rev().find(|p| p.0 == ply) {
            Some(&(_, win)) => win,
            None if m.mover == *side as i32 => m.win_after,
            None => 1.0 - m.win_after,
        }
    };
    // Falls no marked move explains, drawn as noise: (x0, x1, from, to, why).
    let mut steps = Vec::new();
    for pair in points.windows(2) {
        let ((x0, from), (x1, to)) = (pair[0], pair[1]);
        // At one ply: the side's value of a position against its best move's.
        let own = x0 == x1;
        let unexplained = !own && from - to >= inaccuracy && {
            let m = &moves[x0 as usize];
            let marked = !matches!(
                m.judgement(),
                proto::Judgement::Good | proto::Judgement::Unspecified
            );
            m.mover != *side as i32 && !marked
        };
        if (own && (from - to).abs() >= 1e-9) || unexplained {
            let why = if own {
                "two of its searches, not a move"
            } else {
                "the other side's move, better than it expected"
            };
            steps.push((x0, x1, from, to, why));
        }
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
        r#"<text class="legend" x="{MARGIN}" y="30">{}'s win probability as it valued each position; grey: its searches disagree (noise, not a move); ± noise; marks: inaccuracy, mistake, blunder</text>"#,
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
    for &(x0, x1, from, to, why) in &steps {
        let _ = writeln!(
            out,
            r##"<line class="noise" x1="{:.1}" y1="{:.1}" x2="{:.1}" y2="{:.1}" stroke="#999" stroke-width="3" stroke-dasharray="3 2"><title>{name} valued it {from:.2}, then {to:.2}: {why}</title></line>"##,
            x(x0),
            y(from),
            x(x1),
            y(to),
            name = escape(name),
        );
    }
    for m in moves
        .iter()
        .filter(|m| m.noise >= 0.005 && m.mover == *side as i32)
    {
        let (cx, cy) = (x(f64::from(m.ply)), m.win_after);
        let _ = writeln!(
            out,
            r##"<line class="error" x1="{cx:.1}" y1="{:.1}" x2="{cx:.1}" y2="{:.1}" stroke="#235" stroke-width="1"><title>±{:.2}</title></line>"##,
            y((cy + m.noise).min(1.0)),
            y((cy - m.noise).max(0.0)),
            m.noise
        );
    }
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
            y(after(m)),
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

#[cfg(test)]
mod tests {
    use super::*;

    fn played(
        ply: u32,
        mover: proto::Side,
        before: f64,
        best: f64,
        after: f64,
    ) -> proto::MoveReview {
        proto::MoveReview {
            ply,
            mover: mover as i32,
            before: Some(proto::Score {
                win_probability: before,
                ..Default::default()
            }),
            win_before: best,
            win_after: after,
            loss: (best - after).max(0.0),
            ..Default::default()
        }
    }

    /// The curve is one side's values only: its search of each position it
    /// moves in, its best move's value, its value after its move; the other
    /// side's moves appear only as what the side's next search says.
    #[test]
    fn the_curve_is_one_sides_values_and_unexplained_falls_are_noise() {
        use proto::Side::{One, Two};
        let moves = [
            played(1, One, 0.50, 0.55, 0.55),
            // The other side's own view: not on the curve.
            played(2, Two, 0.30, 0.70, 0.70),
            // One's next search: 0.30, a fall of 0.25 on a good move of Two's.
            played(3, One, 0.30, 0.30, 0.28),
            played(4, Two, 0.70, 1.0, 1.0),
        ];
        assert_eq!(
            curve(One, &moves),
            [
                (0.0, 0.50),
                (0.0, 0.55),
                (1.0, 0.55),
                (2.0, 0.30),
                (3.0, 0.28),
                (4.0, 0.0)
            ]
        );
        // The falls drawn as noise with `inaccuracy` the review's threshold.
        let noise = |inaccuracy| -> Vec<String> {
            let svg = svg("t", &(One, "first".into()), &moves, inaccuracy);
            let doc = roxmltree::Document::parse(&svg).unwrap();
            doc.descendants()
                .filter(|n| n.attribute("class") == Some("noise"))
                .map(|n| {
                    n.descendants()
                        .find_map(|t| t.text())
                        .unwrap_or_default()
                        .to_string()
                })
                .collect()
        };
        assert_eq!(
            noise(0.10),
            [
                "first valued it 0.50, then 0.55: two of its searches, not a move",
                "first valued it 0.55, then 0.30: the other side's move, better than it expected",
                "first valued it 0.28, then 0.00: the other side's move, better than it expected",
            ]
        );
        // A review that judged only losses of 0.26 and more would not have
        // marked the fall of 0.25; the fall of 0.28 it would.
        assert_eq!(
            noise(0.26),
            [
                "first valued it 0.50, then 0.55: two of its searches, not a move",
                "first valued it 0.28, then 0.00: the other side's move, better than it expected",
            ]
        );
    }
}
