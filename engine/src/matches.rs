//! Refereed games between two players of a game with hidden information:
//! each player sees only its view ([`HiddenInformation::view`]).

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

/// Plays one refereed game from `start`; a player returning no move or an
/// illegal one loses. The result from `One`'s side.
pub fn play_game<S: HiddenInformation>(
    start: Played<S>,
    one: &mut Agent<S>,
    two: &mut Agent<S>,
) -> GameResult {
    let mut s = start;
    loop {
        if let Some(o) = s.outcome() {
            return o.result;
        }
        let p = s.side_to_move();
        let view = s.position().view(p);
        let mv = if p == Player::One {
            one(&view)
        } else {
            two(&view)
        };
        let Some(mv) = mv else {
            return GameResult::Win(p.opponent());
        };
        match s.play(&mv) {
            Ok(n) => s = n,
            Err(_) => return GameResult::Win(p.opponent()),
        }
    }
}

/// Plays two games per seed (each player once as `One`) from the variant's
/// start dealt with that seed, and counts the results.
pub fn play_match<S: HiddenInformation>(
    variant: S::Variant,
    seeds: &[u64],
    a: &mut Agent<S>,
    b: &mut Agent<S>,
) -> MatchResult {
    let mut r = MatchResult::default();
    for &seed in seeds {
        for a_first in [true, false] {
            let start = Played::<S>::start(variant, seed);
            let res = if a_first {
                play_game(start, a, b)
            } else {
                play_game(start, b, a)
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
