//! Refereed games between two players of a game with hidden information:
//! each player sees only its view ([`HiddenInformation::view`]), but for a
//! [`Seer`], which measurements use to price what the view hides.

use crate::game::{Game, GameResult, Player};
use crate::information::HiddenInformation;
use crate::played::Played;

/// A player: given its view (it is to move), its move.
pub type Agent<'a, S> =
    dyn FnMut(&<S as HiddenInformation>::View) -> Option<<S as Game>::Move> + 'a;

/// Counts of a match between two players.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MatchResult {
    /// Games won by the first player given.
    pub a_wins: u32,
    /// Games won by the second player given.
    pub b_wins: u32,
    /// Drawn games.
    pub draws: u32,
}

/// A player given the referee's whole state instead of its view: only for
/// measuring what the hidden part is worth (a clairvoyant ceiling).
pub type Seer<'a, S> = dyn FnMut(&Played<S>) -> Option<<S as Game>::Move> + 'a;

/// Plays two games per seed (each player once as `One`) from the variant's
/// start dealt with that seed, and counts the results.
pub fn play_match<S: HiddenInformation>(
    variant: S::Variant,
    seeds: &[u64],
    a: &mut Agent<S>,
    b: &mut Agent<S>,
) -> MatchResult {
    seeded_match(
        variant,
        seeds,
        &mut |s: &Played<S>| a(&view_of(s)),
        &mut |s| b(&view_of(s)),
    )
}

/// [`play_match`] with player `a` seeing the whole state ([`Seer`]).
pub fn play_match_seeing<S: HiddenInformation>(
    variant: S::Variant,
    seeds: &[u64],
    a: &mut Seer<S>,
    b: &mut Agent<S>,
) -> MatchResult {
    seeded_match(variant, seeds, a, &mut |s: &Played<S>| b(&view_of(s)))
}

/// The view of the side to move in `s`, which a view's player is handed.
fn view_of<S: HiddenInformation>(s: &Played<S>) -> S::View {
    s.position().view(s.side_to_move())
}

/// Plays one refereed game from `start`; a player returning no move or an
/// illegal one loses. The result from `One`'s side.
fn referee<S: HiddenInformation>(
    start: Played<S>,
    one: &mut Seer<S>,
    two: &mut Seer<S>,
) -> GameResult {
    let mut s = start;
    loop {
        if let Some(o) = s.outcome() {
            return o.result;
        }
        let p = s.side_to_move();
        let mv = if p == Player::One { one(&s) } else { two(&s) };
        let Some(mv) = mv else {
            return GameResult::Win(p.opponent());
        };
        match s.play(&mv) {
            Ok(n) => s = n,
            Err(_) => return GameResult::Win(p.opponent()),
        }
    }
}

/// Two games per seed, `a` as `One` first, counted from `a`'s side.
fn seeded_match<S: HiddenInformation>(
    variant: S::Variant,
    seeds: &[u64],
    a: &mut Seer<S>,
    b: &mut Seer<S>,
) -> MatchResult {
    let mut r = MatchResult::default();
    for &seed in seeds {
        for a_first in [true, false] {
            let start = Played::<S>::start(variant, seed);
            let res = if a_first {
                referee(start, a, b)
            } else {
                referee(start, b, a)
            };
            let a_player = if a_first { Player::One } else { Player::Two };
            match res {
                GameResult::Draw => r.draws += 1,
                GameResult::Win(p) if p == a_player => r.a_wins += 1,
                GameResult::Win(_) => r.b_wins += 1,
            }
        }
    }
    r
}
