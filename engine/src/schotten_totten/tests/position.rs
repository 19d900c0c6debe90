//! [`Position`]: a full state and a view answer alike for the viewer.

use std::sync::atomic::AtomicBool;

use super::*;
use crate::playable::{PerftError, Playable};
use crate::schotten_totten::Position;
use crate::search::{Limits, Searchable};

#[test]
fn full_state_and_view_answer_alike() {
    let full = Position::Full(FullState::start(Variant::Tactics, 11));
    let view = Position::View(full.view_of(Some(ONE)).unwrap());
    assert!(view.notation().starts_with("view:1"));
    let moves = |p: &Position| {
        let mut v = Vec::new();
        p.legal_moves(&mut v);
        v
    };
    assert_eq!(moves(&view), moves(&full));
    let never = AtomicBool::new(false);
    assert_eq!(view.perft(1, &never), Err(PerftError::Undefined));
    assert_eq!(view.perft_divide(1, &never), Err(PerftError::Undefined));
    let limits = Limits {
        nodes: Some(300),
        seed: 5,
        ..Limits::default()
    };
    let stop = AtomicBool::new(false);
    let search = |p: &Position| {
        let mut s = (Position::searchers()[0].build)(&[]);
        s.search(&p.search_root(), &limits, &stop, &mut |_| {})
    };
    let (a, b) = (search(&full), search(&view));
    assert!(a.best_move().is_some());
    assert_eq!(a.lines, b.lines);
    let mv = *a.best_move().unwrap();
    let after_view = view.apply(&mv).unwrap().position;
    let after_full = full.apply(&mv).unwrap().position;
    assert_eq!(after_view.side_to_move(), after_full.side_to_move());
    let err = after_view.apply(&moves(&after_full)[0]).unwrap_err();
    assert!(err.to_string().contains("not the viewer's"), "{err}");
    assert!(view.view_of(None).is_err());
    let Position::View(v) = &view else {
        unreachable!()
    };
    assert_eq!(v.viewer(), ONE);
}
