//! Static evaluation: material, captures possible next move (so that a
//! search ending just before a capture still sees it), the king's escape
//! routes and freedom, black pressure around the king and on the cells
//! guarding the escapes. Black facing an open line to an escape must answer
//! it (no standing pat at the horizon); its moves onto the line are hinted.

use std::ops::ControlFlow;

use super::bits::{above_of, below_of, left_of, right_of, Bits, NEIGHBOURS, NONE};
use super::cells::Cell;
use super::cells::{cells, has, CellSet, DIRS, SIZE};
use super::movegen::{for_each_step_to, reach};
use super::rules;
use super::variant::{KingCapture, Rules, Variant, THRONE};
use super::{Move, Piece, Tablut};
use crate::eval::{weights, Evaluator, Weights};
use crate::search::WinCurve;
use crate::Game;
use crate::Player;

/// Cells where black pieces block the way to the escapes.
const EDGE_GUARDS: CellSet = cells(&["b3", "c2", "g2", "h3", "b7", "c8", "g8", "h7"]);
const CORNER_GUARDS: CellSet = cells(&[
    "b2", "h2", "b8", "h8", "a2", "b1", "h1", "i2", "a8", "b9", "h9", "i8",
]);

weights! {
    /// Tablut's evaluation for the searchers: material, captures possible
    /// next move, the king's escape routes and freedom, black pressure around
    /// the king and on the escape guards. Its fields are its weights.
    pub struct Evaluation {
        /// A white soldier on the board.
        white_soldier = 180,
        /// A black soldier on the board.
        black_soldier = 100,
        /// The side to move can capture the king next move.
        king_capture_next = 1500,
        /// The king could be captured next move, but white is to move.
        king_threatened = 120,
        /// Share (in tenths) of a soldier's value the side to move wins when
        /// it can capture one, and the opponent loses when two of its
        /// soldiers hang.
        capture_next_tenths = 7,
        /// One open line from the king to an escape cell (an immediate threat).
        one_route = 180,
        /// Two or more open lines (usually decisive).
        two_routes = 600,
        /// Per cell the king can reach from which an escape line is open.
        route_next = 30,
        /// Per cell the king can move to.
        king_mobility = 4,
        /// Per step the king is from the nearest escape.
        king_distance = 10,
        /// A black piece orthogonally next to the king.
        black_next_to_king = 35,
        /// An empty throne or camp orthogonally next to the king.
        hostile_next_to_king = 15,
        /// A black piece diagonally next to the king.
        black_diagonal_to_king = 8,
        /// A black piece on a cell guarding the escapes.
        black_on_guard = 14,
        /// The king one black piece away from being captured.
        king_one_from_capture = 90,
        /// The king two black pieces away from being captured.
        king_two_from_capture = 25,
    }
}

impl Evaluator<Tablut> for Evaluation {
    const HINTS: bool = true;
    const WEIGHTS: &'static [(&'static str, i32)] = <Self as Weights>::DEFAULTS;

    fn set_weight(&mut self, name: &str, value: i32) -> bool {
        self.set(name, value)
    }

    /// Centi-units from the side to move's view.
    fn evaluate(&self, pos: &Tablut) -> i32 {
        let white = white_view(self, pos);
        if pos.side == Player::Two {
            white
        } else {
            -white
        }
    }

    /// The king's escape first, then the king's capture, then black's moves
    /// onto an open line of the king (blocks), then soldier captures: one
    /// point per piece taken.
    fn move_hint(&self, pos: &Tablut, mv: &Move) -> i32 {
        let Move::Step { from, to } = *mv else {
            return 0;
        };
        let rules = pos.variant.rules();
        if pos.king == from.index() as u8 && has(rules.escapes, to.index()) {
            return 1000;
        }
        let capture = if rules::prey_next_to(pos, to.index()) {
            let after = pos.play_unchecked(mv);
            if after.king_index().is_none() {
                return 500;
            }
            i32::from(pos.count - after.count)
        } else {
            0
        };
        if pos.side == Player::One && blocks_escape(pos, rules, to.index()) {
            return 400 + capture;
        }
        capture
    }

    /// Only the steps onto the cells a rated move can end on (next to prey,
    /// escapes, the king's open lines) are rated.
    fn hinted_moves<F: FnMut(Move, i32)>(&self, pos: &Tablut, mut f: F) {
        let _ = for_each_step_to(pos, hint_targets(pos), &mut |mv| {
            let hint = self.move_hint(pos, &mv);
            if hint > 0 {
                f(mv, hint);
            }
            ControlFlow::Continue(())
        });
    }

    /// Black to move while the king has an open line to an escape: it must
    /// block it (or capture the king), as standing pat would miss the escape.
    fn must_answer(&self, pos: &Tablut) -> bool {
        pos.side == Player::One
            && pos.king_index().is_some_and(|k| {
                let rules = pos.variant.rules();
                let (kr, kc) = ((k / SIZE) as isize, (k % SIZE) as isize);
                DIRS.into_iter()
                    .any(|dir| king_ray(pos, rules, kr, kc, dir, |_, _| {}))
            })
    }
}

/// Every cell a move [`Evaluation::move_hint`] rates above 0 can end on (and
/// more): the cells next to a piece the side to move may capture, for white
/// the escapes, for black the king's open lines to an escape.
fn hint_targets(pos: &Tablut) -> Bits {
    let rules = pos.variant.rules();
    let king = pos.king_index();
    let prey = match (pos.side, king) {
        (Player::One, Some(k)) => pos.white() | 1 << k,
        (Player::One, None) => pos.white(),
        (Player::Two, _) => pos.black(),
    };
    let mut targets = above_of(prey) | below_of(prey) | left_of(prey) | right_of(prey);
    match (pos.side, king) {
        (Player::Two, _) => targets |= rules.escapes,
        (Player::One, Some(k)) => {
            let (kr, kc) = ((k / SIZE) as isize, (k % SIZE) as isize);
            for (dc, dr) in DIRS {
                if king_ray(pos, rules, kr, kc, (dc, dr), |_, _| {}) {
                    let (mut r, mut c) = (kr + dr, kc + dc);
                    while on_board(r, c) {
                        targets |= 1 << (r as usize * SIZE + c as usize);
                        r += dr;
                        c += dc;
                    }
                }
            }
        }
        (Player::One, None) => {}
    }
    targets
}

/// Whether a black piece arriving on `to` would stand on one of the king's
/// open lines to an escape (between the king and the escape, or on it).
fn blocks_escape(pos: &Tablut, rules: &Rules, to: usize) -> bool {
    let Some(k) = pos.king_index() else {
        return false;
    };
    let (kr, kc) = ((k / SIZE) as isize, (k % SIZE) as isize);
    let (tr, tc) = ((to / SIZE) as isize, (to % SIZE) as isize);
    if (kr != tr && kc != tc) || k == to {
        return false;
    }
    let dir = ((tc - kc).signum(), (tr - kr).signum());
    king_ray(pos, rules, kr, kc, dir, |_, _| {})
}

fn white_view(w: &Evaluation, pos: &Tablut) -> i32 {
    let rules = pos.variant.rules();
    let (black, white) = (pos.black(), pos.white());
    let mut score = 0;
    score += w.white_soldier * white.count_ones() as i32;
    score -= w.black_soldier * black.count_ones() as i32;
    score -= w.black_on_guard * (black & guards(pos.variant)).count_ones() as i32;
    let Some(k) = pos.king_index() else {
        return score - 10 * w.two_routes;
    };
    let (kr, kc) = ((k / SIZE) as isize, (k % SIZE) as isize);
    // Pressure around the king.
    for dr in -1..=1isize {
        for dc in -1..=1isize {
            let (r, c) = (kr + dr, kc + dc);
            if (dr, dc) == (0, 0) || !on_board(r, c) {
                continue;
            }
            let i = (r * SIZE as isize + c) as usize;
            let orthogonal = dr == 0 || dc == 0;
            match pos.at(i) {
                Some(Piece::Black) if orthogonal => score -= w.black_next_to_king,
                Some(Piece::Black) => score -= w.black_diagonal_to_king,
                None if orthogonal && (i == THRONE || has(rules.camps, i)) => {
                    score -= w.hostile_next_to_king
                }
                _ => {}
            }
        }
    }
    score += threats(w, pos, rules, k, black, white);
    score -= match missing_attackers(pos, rules, k) {
        1 => w.king_one_from_capture,
        2 => w.king_two_from_capture,
        _ => 0,
    };
    // Routes and mobility.
    let mut routes = 0;
    let mut next_routes = 0;
    let mut mobility = 0;
    for dir in DIRS {
        let escapes = king_ray(pos, rules, kr, kc, dir, |r, c| {
            mobility += 1;
            if open_routes(pos, rules, r, c, dir) > 0 {
                next_routes += 1;
            }
        });
        if escapes {
            routes += 1;
        }
    }
    score += match routes {
        0 => 0,
        1 => w.one_route,
        _ => w.two_routes,
    };
    score += w.route_next * next_routes.min(6);
    score += w.king_mobility * mobility;
    score -= w.king_distance * i32::from(rules.escape_distance[k]);
    score
}

/// Captures possible next move, from white's view: the side to move is
/// expected to make its best one; of the other side's, it parries one.
/// `black` and `white` are the soldiers of `pos`.
fn threats(
    w: &Evaluation,
    pos: &Tablut,
    rules: &Rules,
    king: usize,
    black: Bits,
    white: Bits,
) -> i32 {
    let black_reach = reach(pos, Player::One, false);
    let white_reach = reach(pos, Player::Two, rules.king_armed);
    let white_anvils =
        white | rules.hostile_to_black | if rules.king_armed { 1 << king } else { 0 };
    let black_anvils = black | rules.hostile_to_white;
    let empty = !(black | white | 1 << king);
    let hanging_white = hanging(white, black_anvils, black_reach & empty);
    let hanging_black = hanging(black, white_anvils, white_reach & empty);
    let king_hangs = missing_attackers_within(pos, rules, king, black_reach);
    let capture = |hanging: u32, value: i32| {
        if hanging > 0 {
            value * w.capture_next_tenths / 10
        } else {
            0
        }
    };
    let second = |hanging: u32, value: i32| {
        if hanging > 1 {
            value * w.capture_next_tenths / 20
        } else {
            0
        }
    };
    match pos.side {
        Player::One if king_hangs => -w.king_capture_next,
        Player::One => {
            -capture(hanging_white, w.white_soldier) + second(hanging_black, w.black_soldier)
        }
        Player::Two => {
            capture(hanging_black, w.black_soldier)
                - second(hanging_white, w.white_soldier)
                - if king_hangs { w.king_threatened } else { 0 }
        }
    }
}

/// How many of `soldiers` one enemy move could capture: a neighbour on one
/// side is an anvil, the cell on the other side in `empty_reachable`.
fn hanging(soldiers: Bits, anvils: Bits, empty_reachable: Bits) -> u32 {
    let (a, e) = (anvils, empty_reachable);
    let open = (below_of(a) & above_of(e))
        | (above_of(a) & below_of(e))
        | (right_of(a) & left_of(e))
        | (left_of(a) & right_of(e));
    (soldiers & open).count_ones()
}

/// Whether one black move to a cell of `reachable` could capture the king.
fn missing_attackers_within(pos: &Tablut, rules: &Rules, king: usize, reachable: Bits) -> bool {
    let n = NEIGHBOURS[king];
    let black = |c: u8| c != NONE && pos.is_black(usize::from(c));
    let empty_reachable =
        |c: u8| c != NONE && pos.at(usize::from(c)).is_none() && reachable >> c & 1 == 1;
    let near_throne = king == THRONE || n.iter().any(|&c| usize::from(c) == THRONE);
    // The one neighbour still missing, if exactly one is.
    let one_missing = |counts: &dyn Fn(u8) -> bool| {
        let mut missing = n.iter().copied().filter(|&c| !counts(c));
        match (missing.next(), missing.next()) {
            (Some(c), None) => empty_reachable(c),
            _ => false,
        }
    };
    match rules.king_capture {
        KingCapture::Surround { special } => {
            one_missing(&|c| c == NONE || black(c) || has(special, usize::from(c)))
        }
        KingCapture::ThroneOrCustodial { .. } if near_throne => {
            one_missing(&|c| black(c) || usize::from(c) == THRONE)
        }
        KingCapture::ThroneOrCustodial { anvils } => {
            let anvil = |c: u8| black(c) || (c != NONE && has(anvils, usize::from(c)));
            (anvil(n[0]) && empty_reachable(n[1]))
                || (anvil(n[1]) && empty_reachable(n[0]))
                || (anvil(n[2]) && empty_reachable(n[3]))
                || (anvil(n[3]) && empty_reachable(n[2]))
        }
    }
}

/// How many more black pieces the king's capture needs (per the variant's rule).
fn missing_attackers(pos: &Tablut, rules: &Rules, king: usize) -> u32 {
    let king = Cell::at(king);
    let black = |c: Cell| pos.at(c.index()) == Some(Piece::Black);
    let near_throne = king.index() == THRONE
        || DIRS
            .iter()
            .any(|&(dc, dr)| king.step(dc, dr).is_some_and(|n| n.index() == THRONE));
    let count_missing = |special: CellSet, off_board: bool| {
        DIRS.iter()
            .filter(|&&(dc, dr)| match king.step(dc, dr) {
                None => !off_board,
                Some(n) => !(black(n) || has(special, n.index())),
            })
            .count() as u32
    };
    match rules.king_capture {
        KingCapture::Surround { special } => count_missing(special, true),
        KingCapture::ThroneOrCustodial { .. } if near_throne => count_missing(1 << THRONE, false),
        KingCapture::ThroneOrCustodial { anvils } => {
            let side = |dc: isize, dr: isize| {
                king.step(dc, dr)
                    .is_some_and(|n| black(n) || has(anvils, n.index()))
            };
            let vertical = 2 - side(0, -1) as u32 - side(0, 1) as u32;
            let horizontal = 2 - side(-1, 0) as u32 - side(1, 0) as u32;
            vertical.min(horizontal)
        }
    }
}

fn guards(variant: Variant) -> CellSet {
    match variant {
        Variant::BgaCorners => CORNER_GUARDS,
        _ => EDGE_GUARDS,
    }
}

fn on_board(r: isize, c: isize) -> bool {
    (0..SIZE as isize).contains(&r) && (0..SIZE as isize).contains(&c)
}

/// Whether the king may pass or stop on cell `i` (it is empty).
fn king_may_stop(pos: &Tablut, rules: &Rules, i: usize) -> bool {
    pos.at(i).is_none() && !has(rules.camps, i) && (i != THRONE || rules.king_reenters_throne)
}

/// Open lines to an escape cell from (r, c), not counting the way back.
fn open_routes(pos: &Tablut, rules: &Rules, r0: isize, c0: isize, came: (isize, isize)) -> u32 {
    let back = (-came.0, -came.1);
    DIRS.into_iter()
        .filter(|&dir| dir != back && king_ray(pos, rules, r0, c0, dir, |_, _| {}))
        .count() as u32
}

/// Walks from (r0, c0) in direction `dir` over the cells the king may cross,
/// calling `free` on each that is not an escape cell; whether it reaches one.
fn king_ray(
    pos: &Tablut,
    rules: &Rules,
    r0: isize,
    c0: isize,
    (dc, dr): (isize, isize),
    mut free: impl FnMut(isize, isize),
) -> bool {
    let (mut r, mut c) = (r0 + dr, c0 + dc);
    while on_board(r, c) {
        let i = (r * SIZE as isize + c) as usize;
        if !king_may_stop(pos, rules, i) {
            return false;
        }
        if has(rules.escapes, i) {
            return true;
        }
        free(r, c);
        r += dr;
        c += dc;
    }
    false
}

/// How the evaluation reads as a win probability in `variant`: fitted by
/// `scripts/calibrate.py` to the default searcher's self-play (100 ms a
/// move) whose records are in `docs/games/calibration/` (the fits and
/// their checks: docs/MEASUREMENTS.md; `.ci/calibration_test.py` fits
/// them again). The offset is white's (Player Two's).
pub(crate) fn win_curve(variant: Variant) -> WinCurve {
    match variant {
        Variant::Ashton => WinCurve::new(209.0, 173.0),
        Variant::Bga => WinCurve::new(316.0, 286.0),
        Variant::BgaCorners | Variant::Linnaeus => WinCurve::UNFITTED,
    }
}

#[cfg(test)]
mod tests {
    use std::ops::ControlFlow;

    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    use super::{hanging, missing_attackers, reach, threats, Bits, NEIGHBOURS, NONE};
    use crate::eval::Evaluator;
    use crate::tablut::tests::rules::{pos, B};
    use crate::tablut::{Cell, Evaluation, Move, Tablut, Variant};
    use crate::{Game, Player};

    /// [`hanging`] soldier by soldier, with the neighbour table.
    fn hanging_one_by_one(soldiers: Bits, anvils: Bits, empty_reachable: Bits) -> u32 {
        (0..81)
            .filter(|&i| soldiers >> i & 1 == 1)
            .filter(|&i| {
                let n = NEIGHBOURS[i];
                let closes = |a: u8, b: u8| {
                    a != NONE && b != NONE && anvils >> a & 1 == 1 && empty_reachable >> b & 1 == 1
                };
                closes(n[0], n[1]) || closes(n[1], n[0]) || closes(n[2], n[3]) || closes(n[3], n[2])
            })
            .count() as u32
    }

    /// Over seeded random games in every variant: [`reach`] is the set of the
    /// destinations of the legal moves (without the king's if asked), and the
    /// bitboard [`hanging`] counts what the one-by-one count does.
    #[test]
    fn reach_and_hanging_agree_with_plain_versions() {
        let mut rng = ChaCha8Rng::seed_from_u64(0x4ea7);
        let mut checked = 0;
        for game in 0..200 {
            let v = [
                Variant::Bga,
                Variant::BgaCorners,
                Variant::Ashton,
                Variant::Linnaeus,
            ][game % 4];
            let mut pos = Tablut::start(v, 0);
            for _ in 0..120 {
                let mut moves = Vec::new();
                let _ = pos.generate(|m| {
                    moves.push(m);
                    ControlFlow::Continue(())
                });
                let king = pos.king_index();
                let (mut all, mut soldiers): (Bits, Bits) = (0, 0);
                for m in &moves {
                    if let Move::Step { from, to } = *m {
                        all |= 1 << to.index();
                        if Some(from.index()) != king {
                            soldiers |= 1 << to.index();
                        }
                    }
                }
                assert_eq!(reach(&pos, pos.side, true), all);
                assert_eq!(reach(&pos, pos.side, false), soldiers);
                let (black, white) = (pos.black(), pos.white());
                let empty = !(black | white | king.map_or(0, |k| 1 << k));
                for (prey, anvils) in [(white, black), (black, white)] {
                    let open = all & empty;
                    assert_eq!(
                        hanging(prey, anvils, open),
                        hanging_one_by_one(prey, anvils, open)
                    );
                }
                checked += 1;
                if moves.is_empty() || pos.decided().is_some() {
                    break;
                }
                pos = pos.play_unchecked(&moves[rng.random_range(0..moves.len())]);
            }
        }
        assert!(checked > 10_000, "{checked}");
    }

    /// Over seeded random games in every variant: the quiescence's hinted
    /// moves are exactly the legal moves rated above 0, in generation order.
    #[test]
    fn hinted_moves_are_the_rated_legal_moves() {
        let mut rng = ChaCha8Rng::seed_from_u64(0x417e);
        let (mut checked, mut hinted) = (0, 0);
        for game in 0..200 {
            let v = [
                Variant::Bga,
                Variant::BgaCorners,
                Variant::Ashton,
                Variant::Linnaeus,
            ][game % 4];
            let mut pos = Tablut::start(v, 0);
            for _ in 0..120 {
                let mut moves = Vec::new();
                let mut rated = Vec::new();
                let _ = pos.generate(|m| {
                    let hint = Evaluation::default().move_hint(&pos, &m);
                    if hint > 0 {
                        rated.push((m, hint));
                    }
                    moves.push(m);
                    ControlFlow::Continue(())
                });
                let mut fast = Vec::new();
                Evaluation::default().hinted_moves(&pos, |m, hint| fast.push((m, hint)));
                assert_eq!(fast, rated, "{pos:?}");
                checked += 1;
                hinted += rated.len();
                if moves.is_empty() || pos.decided().is_some() {
                    break;
                }
                pos = pos.play_unchecked(&moves[rng.random_range(0..moves.len())]);
            }
        }
        assert!(checked > 10_000 && hinted > 10_000, "{checked} {hinted}");
    }

    fn missing(v: Variant, black: &str, king: &str) -> u32 {
        let p = pos(v, B, black, "", king);
        missing_attackers(p.position(), v.rules(), Cell::parse(king).unwrap().index())
    }

    #[test]
    fn attackers_still_needed_per_variant() {
        assert_eq!(missing(Variant::Bga, "b3 d3 c2", "c3"), 1);
        assert_eq!(missing(Variant::Bga, "b3", "c3"), 3);
        // d2: camps d1 and e2 count for the king in bga.
        assert_eq!(missing(Variant::Bga, "h9", "d2"), 2);
        // bga-corners: the edge counts.
        assert_eq!(missing(Variant::BgaCorners, "a4", "a5"), 2);
        // ashton/linnaeus away from the throne: two opposite.
        assert_eq!(missing(Variant::Ashton, "b3", "c3"), 1);
        assert_eq!(missing(Variant::Ashton, "h9", "c3"), 2);
        assert_eq!(
            missing(Variant::Ashton, "h9", "b4"),
            1,
            "camp a4 is an anvil"
        );
        assert_eq!(missing(Variant::Linnaeus, "h9", "b4"), 2);
        // Next to the throne: the throne plus three black.
        assert_eq!(missing(Variant::Ashton, "d4 f4", "e4"), 1);
        assert_eq!(missing(Variant::Linnaeus, "d4", "e4"), 2);
    }

    fn threat(v: Variant, side: Player, black: &str, white: &str, king: &str) -> i32 {
        let p = pos(v, side, black, white, king);
        let k = Cell::parse(king).unwrap().index();
        let pos = p.position();
        threats(
            &Evaluation::default(),
            pos,
            v.rules(),
            k,
            pos.black(),
            pos.white(),
        )
    }

    /// c3 stands between the black b3 and the empty d3, which d8 reaches down
    /// the d column: black to move takes it (70% of a white soldier, 180),
    /// white to move has one piece to save (nothing counted).
    #[test]
    fn a_hanging_soldier_counts_for_the_side_to_move() {
        let (black, white) = ("b3 d8", "c3");
        assert_eq!(threat(Variant::Linnaeus, B, black, white, "e5"), -126);
        assert_eq!(
            threat(Variant::Linnaeus, Player::Two, black, white, "e5"),
            0
        );
        // With d8 on c8 nothing reaches d3.
        assert_eq!(threat(Variant::Linnaeus, B, "b3 c8", white, "e5"), 0);
    }

    /// Ashton, king on c3 away from the throne: b3 black, h3 slides to d3.
    #[test]
    fn a_king_capture_next_move() {
        let (black, king) = ("b3 h3", "c3");
        assert_eq!(
            threat(Variant::Ashton, B, black, "", king),
            -Evaluation::default().king_capture_next
        );
        assert_eq!(
            threat(Variant::Ashton, Player::Two, black, "", king),
            -Evaluation::default().king_threatened
        );
        // A white soldier on f3 stops the slide.
        assert_eq!(threat(Variant::Ashton, B, black, "f3", king), 0);
    }

    /// Ashton, king on c3 with one open line (b3, a3; c2 and c6 close the
    /// column, g3 the row): black must answer it, and only its moves onto that
    /// line (b1-b3, a1-a3) are hinted as blocks.
    #[test]
    fn black_must_block_an_open_line() {
        let (black, white) = ("c2 b1 a1", "c6 g3");
        let p = pos(Variant::Ashton, B, black, white, "c3");
        assert!(Evaluation::default().must_answer(p.position()));
        let hint =
            |m: &str| Evaluation::default().move_hint(p.position(), &p.parse_move(m).unwrap());
        assert_eq!((hint("b1-b3"), hint("a1-a3")), (400, 400));
        assert_eq!((hint("b1-b2"), hint("a1-a2"), hint("c2-d2")), (0, 0, 0));
        // White to move, or the line closed by a white soldier: nothing to answer.
        let white_to_move = pos(Variant::Ashton, Player::Two, black, white, "c3");
        assert!(!Evaluation::default().must_answer(white_to_move.position()));
        let closed = pos(Variant::Ashton, B, black, "c6 g3 b3", "c3");
        assert!(!Evaluation::default().must_answer(closed.position()));
    }
}
