//! Schotten Totten strength measurement: ISMCTS against the greedy and the
//! random reference players, two games per seed (both seats), seeded.
//!
//! ```text
//! cargo run --release -p caber-engine --example st_match -- \
//!     --variant classic --games 100 --iterations 2000 --opponent greedy
//! ```
//!
//! Options: `--variant classic|tactics|expert` (default classic), `--games N`
//! (even, default 100), `--iterations N` per move (default 2000) or
//! `--movetime MS` per move instead, `--opponent greedy|random|both`
//! (default both), `--seed S` (first deal seed, default 0), and
//! `--clairvoyant`: the same search and policy shown the referee's full
//! state (both hands, both decks in order) instead of the player's view, a
//! ceiling for what knowing more could gain; or `--sees-hand`: the
//! player's view with the opponent's hand shown (the decks still unknown),
//! a ceiling for what inferring that hand from its plays could gain. Prints
//! wins/losses/draws of ISMCTS and the time per move.

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use caber_engine::game::{Outcome, PlayError, Player};
use caber_engine::information::InformationSet;
use caber_engine::matches::play_match_seeing;
use caber_engine::played::Played;
use caber_engine::schotten_totten::players::{greedy_player, ismcts_player, random_player};
use caber_engine::schotten_totten::search::Policy;
use caber_engine::schotten_totten::{FullState, Move, Variant, View, ViewHand};
use caber_engine::search::ismcts::{self, Ismcts};
use caber_engine::search::{Limits, Searcher};
use rand::Rng;
use rand_chacha::rand_core::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// A clairvoyant player's knowledge: the referee's full state, so every
/// deal the search samples is the true one.
#[derive(Clone, Debug)]
struct Clairvoyant(Played<FullState>);

impl InformationSet for Clairvoyant {
    type Move = Move;
    type State = FullState;

    fn viewer(&self) -> Player {
        self.0.side_to_move()
    }

    fn side_to_move(&self) -> Player {
        self.0.side_to_move()
    }

    fn outcome(&self) -> Option<Outcome> {
        self.0.outcome()
    }

    fn viewer_moves(&self, out: &mut Vec<Move>) {
        self.0.legal_moves(out)
    }

    fn play(self, mv: &Move) -> Result<Self, PlayError<Self>> {
        self.0.play(mv).map(Clairvoyant).map_err(|e| PlayError {
            error: e.error,
            position: Clairvoyant(e.position),
        })
    }

    fn determinize<R: Rng>(&self, _rng: &mut R) -> Played<FullState> {
        self.0.clone()
    }
}

/// Schotten Totten's policy for the clairvoyant root: the same candidates,
/// priors, rollouts and leaf values as the player's.
struct SeeingPolicy;

impl ismcts::Policy<Clairvoyant> for SeeingPolicy {
    fn root_candidates(&self, root: &Clairvoyant) -> Vec<Move> {
        ismcts::Policy::<View>::candidates(&Policy, root.0.position())
    }

    fn candidates(&self, state: &FullState) -> Vec<Move> {
        ismcts::Policy::<View>::candidates(&Policy, state)
    }

    fn priors(&self, state: &FullState, moves: &[Move], out: &mut Vec<f64>) {
        ismcts::Policy::<View>::priors(&Policy, state, moves, out)
    }

    fn rollout_move(&self, state: &FullState, rng: &mut ChaCha8Rng) -> Option<Move> {
        ismcts::Policy::<View>::rollout_move(&Policy, state, rng)
    }

    fn leaf_value(&self, state: &FullState) -> f64 {
        ismcts::Policy::<View>::leaf_value(&Policy, state)
    }
}

/// The side to move's view with the opponent's whole hand known.
fn seeing_hand(s: &FullState) -> View {
    let me = s.board().to_move;
    let opp = me.opponent();
    let mut setup = s.view(me).setup();
    setup.hands[opp.index()] = ViewHand {
        known: s.hand(opp),
        unknown: 0,
    };
    View::from_setup(s.board().variant, &setup).expect("a view the referee's state allows")
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let opt = |name: &str, default: &str| -> String {
        args.iter()
            .position(|a| a == name)
            .and_then(|i| args.get(i + 1).cloned())
            .unwrap_or_else(|| default.to_string())
    };
    let variant = match opt("--variant", "classic").as_str() {
        "classic" => Variant::Classic,
        "tactics" => Variant::Tactics,
        "expert" => Variant::Expert,
        v => {
            eprintln!("unknown variant {v}: classic, tactics or expert");
            std::process::exit(2);
        }
    };
    let number = |name: &str, default: &str| -> u64 {
        opt(name, default).parse().unwrap_or_else(|_| {
            eprintln!("{name} needs a number");
            std::process::exit(2);
        })
    };
    let games = number("--games", "100");
    let iterations = number("--iterations", "2000");
    let movetime = args
        .iter()
        .any(|a| a == "--movetime")
        .then(|| Duration::from_millis(number("--movetime", "1000")));
    let clairvoyant = args.iter().any(|a| a == "--clairvoyant");
    let sees_hand = args.iter().any(|a| a == "--sees-hand");
    let first_seed = number("--seed", "0");
    let opponents: &[&str] = match opt("--opponent", "both").as_str() {
        "greedy" => &["greedy"],
        "random" => &["random"],
        "both" => &["greedy", "random"],
        o => {
            eprintln!("unknown opponent {o}: greedy, random or both");
            std::process::exit(2);
        }
    };
    let budget = match movetime {
        Some(t) => format!("{} ms", t.as_millis()),
        None => format!("{iterations} iterations"),
    };
    let name = if clairvoyant {
        "clairvoyant ismcts"
    } else if sees_hand {
        "hand-seeing ismcts"
    } else {
        "ismcts"
    };
    let seeds: Vec<u64> = (first_seed..first_seed + games.div_ceil(2)).collect();
    let stop = AtomicBool::new(false);
    for &opponent in opponents {
        let mut moves = 0u64;
        let mut thinking = Duration::ZERO;
        let mut search_seed = 0u64;
        let mut limits = || {
            search_seed += 1;
            Limits {
                nodes: movetime.is_none().then_some(iterations),
                movetime,
                seed: search_seed,
                ..Default::default()
            }
        };
        let mut timed = |search: &mut dyn FnMut() -> Option<Move>| {
            let t = Instant::now();
            let m = search();
            thinking += t.elapsed();
            moves += 1;
            m
        };
        let mut ai = |s: &Played<FullState>| {
            let limits = limits();
            timed(&mut || {
                if clairvoyant {
                    let root = Clairvoyant(s.clone());
                    let report =
                        Ismcts::new(SeeingPolicy).search(&root, &limits, &stop, &mut |_| {});
                    report.best_move().copied()
                } else if sees_hand {
                    ismcts_player(&seeing_hand(s.position()), &limits)
                } else {
                    ismcts_player(&s.position().view(s.side_to_move()), &limits)
                }
            })
        };
        let mut rng = ChaCha8Rng::seed_from_u64(first_seed ^ 0x5eed);
        let r = match opponent {
            "greedy" => {
                play_match_seeing::<FullState>(variant, &seeds, &mut ai, &mut greedy_player)
            }
            _ => play_match_seeing::<FullState>(variant, &seeds, &mut ai, &mut |v| {
                random_player(v, &mut rng)
            }),
        };
        let n = r.a_wins + r.b_wins + r.draws;
        println!(
            "{variant:?} {name} ({budget}) vs {opponent}: {}-{}-{} (W-L-D) of {n} games, {:.1}% wins, {:.1} ms/move",
            r.a_wins,
            r.b_wins,
            r.draws,
            100.0 * r.a_wins as f64 / n.max(1) as f64,
            thinking.as_secs_f64() * 1000.0 / moves.max(1) as f64,
        );
    }
}
