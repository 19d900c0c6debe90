//! The alpha-beta searcher on Tablut: escapes in 1 and 2, and stopping an escape.

use std::sync::atomic::AtomicBool;

use super::rules::{play, pos, B, W};
use super::Pos;
use crate::tablut::{Evaluation, Move, Variant};

use crate::game::GameResult;
use crate::search::{
    alphabeta::{AlphaBeta, DEFAULT_TT_MB},
    Limits, Score,
};

fn best(p: &Pos, depth: u32) -> (Move, Score) {
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    let info = AlphaBeta::new(DEFAULT_TT_MB, Evaluation::default()).search(
        p,
        &limits,
        &AtomicBool::new(false),
        &mut |_| {},
    );
    (
        *info.best_move().expect("a move"),
        info.score().expect("a score"),
    )
}

fn white_wins_now(p: &Pos) -> bool {
    let mut moves = Vec::new();
    p.legal_moves(&mut moves);
    moves
        .iter()
        .any(|m| p.play_unchecked(m).outcome().map(|o| o.result) == Some(GameResult::Win(W)))
}

/// After white's move, every black reply loses at once (Tuichi) or leaves white
/// an immediate win.
fn forced_win_next(after_white: &Pos) -> bool {
    let mut replies = Vec::new();
    after_white.legal_moves(&mut replies);
    !replies.is_empty()
        && replies.iter().all(|r| {
            let after = after_white.play_unchecked(r);
            after.outcome().map(|o| o.result) == Some(GameResult::Win(W)) || white_wins_now(&after)
        })
}

#[test]
fn escape_in_one_every_variant() {
    // The king on c4 has exactly one winning move, c4-c1 (other lines blocked;
    // in bga the blockers also keep every other king move below two clear lines).
    for (v, black) in [
        (Variant::Bga, "c7 b2 b3 d3 g7"),
        (Variant::Ashton, "c7 g8"),
        (Variant::Linnaeus, "c7 b4 g4"),
    ] {
        let p = pos(v, W, black, "", "c4");
        let (m, score) = best(&p, 2);
        assert_eq!(p.move_to_text(&m), "c4-c1", "{v:?}");
        assert_eq!(score, Score::Mate(1), "{v:?}");
    }
    let p = pos(Variant::BgaCorners, W, "a6 e8", "", "a4");
    let (m, score) = best(&p, 2);
    assert_eq!(p.move_to_text(&m), "a4-a1");
    assert_eq!(score, Score::Mate(1));
}

#[test]
fn escape_in_two_every_variant() {
    for (v, black, white, king) in [
        // bga: no move wins at once (white soldiers block the Tuichi squares), but
        // the king reaches a square with one clear line black cannot close.
        (Variant::Bga, "h8", "e3 g3 e7 g7 c6", "f4"),
        // bga-corners: b1 or a3 give a line to a corner nobody can block.
        (Variant::BgaCorners, "e1 b7 g3 a6", "", "b3"),
        // ashton and linnaeus: the king forks on c4 (c1 and c9) or g3 (a3 and i3).
        (Variant::Ashton, "a4 i4 g2 g6", "", "g4"),
        (Variant::Linnaeus, "a4 i4 g2 g6", "", "g4"),
    ] {
        let p = pos(v, W, black, white, king);
        assert!(!white_wins_now(&p), "{v:?}: no escape in one");
        let (m, score) = best(&p, 3);
        assert_eq!(score, Score::Mate(3), "{v:?}");
        // Black facing an open line may not stand pat at the horizon: its
        // blocks are searched there, so depth 1 already sees the fork.
        assert_eq!(best(&p, 1).1, Score::Mate(3), "{v:?}: depth 1");
        assert!(
            forced_win_next(&p.play_unchecked(&m)),
            "{v:?}: {} does not force the escape",
            p.move_to_text(&m)
        );
    }
}

#[test]
fn black_blocks_an_escape_in_one() {
    // Only one black move puts a piece on the king's single line to the edge
    // (c3 c2 c1, or a3 a2 for the corner a1), and after it white has no win in one.
    for (v, black, white, king, block, wait) in [
        // bga: white b3 and g3 keep c3 from giving Tuichi once c2 is blocked.
        (Variant::Bga, "c7 a2 g8", "b3 g3", "c4", "a2-c2", "g8-g9"),
        (Variant::Ashton, "c7 a2 g8", "", "c4", "a2-c2", "g8-g9"),
        // linnaeus: b4 and white g4 close row 4 (a4 and i4 are escapes there).
        (Variant::Linnaeus, "c7 a2 b4", "g4", "c4", "a2-c2", "a2-a3"),
        // bga-corners: g4 keeps the king from reaching the i edge with two lines.
        (
            Variant::BgaCorners,
            "a6 c2 e8 g4",
            "",
            "a4",
            "c2-a2",
            "e8-e9",
        ),
    ] {
        let p = pos(v, B, black, white, king);
        assert!(p.outcome().is_none());
        // The threat is real: a waiting move lets the king out.
        assert!(white_wins_now(&play(&p, wait)), "{v:?}");
        let (m, score) = best(&p, 2);
        assert_eq!(p.move_to_text(&m), block, "{v:?}");
        // The block stops the escape next move; a loss, if any, comes later
        // (in bga white then forks with c4-h4, found by the quiescence).
        assert!(
            !matches!(score, Score::Mate(n) if n > -4 && n < 0),
            "{v:?}: {score:?}"
        );
        assert!(!white_wins_now(&play(&p, block)));
    }
}
