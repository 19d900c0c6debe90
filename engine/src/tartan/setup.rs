//! Building positions from structured fields, with validation that lists
//! every problem; the start position.

use super::board::{bits, Geometry, NONE};
use super::{movegen, zobrist, Cell, Phase, Tartan, Variant, QUIET_TURNS_DRAW, REPETITION, TOKENS};
use crate::game::{Game, Player, SetupError};
use crate::played::Played;

/// A stack of one player's tokens on a cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stack {
    /// Its cell.
    pub cell: Cell,
    /// Whose tokens.
    pub owner: Player,
    /// Tokens: 1 Family, 2 Horde, 3 Army, 4 Cathedral.
    pub height: u8,
}

/// The structured fields of a game in progress (position and repetition
/// history). [`Tartan::from_setup`] validates them: each cell once, no stack
/// on a Loch, heights 1 to 4, at most 12 tokens a player on the board and off
/// it together; during placement no Bishop, only Families none next to
/// another, nothing captured, some player still able to place, and the side
/// to move one the turn order allows; during play both Bishops on the board,
/// off the Lochs (both may still stand on the central one) and on different
/// cells, at most 15 quiet turns, and after a coronation the loser to move;
/// no history hash more than twice.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    /// The phase.
    pub phase: Phase,
    /// The stacks (each cell at most once).
    pub stacks: Vec<Stack>,
    /// Red's and blue's Bishop (none during placement).
    pub bishops: [Option<Cell>; 2],
    /// Tokens each player holds off the board: still to place, or the reserve.
    pub tokens: [u8; 2],
    /// Turns of play in a row without a capture or a union.
    pub quiet_turns: u8,
    /// The player to move.
    pub side_to_move: Player,
    /// Hashes of the earlier positions since the last irreversible move (any order).
    pub history: Vec<u64>,
}

/// The start: the placement phase, red to place, every token off the board.
pub(crate) fn start(variant: Variant) -> Tartan {
    assemble(
        variant,
        Phase::Placement,
        [0; 64],
        0,
        0,
        [NONE; 2],
        [TOKENS; 2],
        0,
        Player::One,
    )
}

/// Builds a position from checked parts (the hash from scratch).
#[allow(clippy::too_many_arguments)]
pub(crate) fn assemble(
    variant: Variant,
    phase: Phase,
    height: [u8; 64],
    units: u64,
    blue: u64,
    bishops: [u8; 2],
    tokens: [u8; 2],
    counter: u8,
    side: Player,
) -> Tartan {
    let mut hash = 0;
    for c in bits(units) {
        let owner = usize::from(blue & (1 << c) != 0);
        hash ^= zobrist::stack(c, owner, height[c]);
    }
    for (p, &b) in bishops.iter().enumerate() {
        if b != NONE {
            hash ^= zobrist::bishop(b as usize, p);
        }
        hash ^= zobrist::tokens(p, tokens[p]);
    }
    if side == Player::Two {
        hash ^= zobrist::SIDE;
    }
    if phase == Phase::Placement {
        hash ^= zobrist::PLACEMENT;
    }
    Tartan {
        variant,
        phase,
        side,
        height,
        units,
        blue,
        bishops,
        tokens,
        counter,
        hash,
    }
}

fn name(p: Player) -> &'static str {
    Tartan::player_name(p)
}

/// Checks a setup and builds the game in progress.
pub(crate) fn build(variant: Variant, setup: &Setup) -> Result<Played<Tartan>, SetupError> {
    let geo = variant.geometry();
    let mut problems = Vec::new();
    let mut height = [0u8; 64];
    let (mut units, mut blue) = (0u64, 0u64);
    let mut on_board = [0u32; 2];
    for s in &setup.stacks {
        let i = s.cell.index();
        if units & (1 << i) != 0 {
            problems.push(format!("{} is listed more than once", s.cell));
            continue;
        }
        if geo.lochs & (1 << i) != 0 {
            problems.push(format!("a stack stands on the Loch {}", s.cell));
        }
        if !(1..=4).contains(&s.height) {
            problems.push(format!(
                "the stack on {} has {} tokens; a unit has 1 to 4",
                s.cell, s.height
            ));
            continue;
        }
        units |= 1 << i;
        if s.owner == Player::Two {
            blue |= 1 << i;
        }
        height[i] = s.height;
        on_board[s.owner.index()] += u32::from(s.height);
    }
    for p in [Player::One, Player::Two] {
        let total = on_board[p.index()] + u32::from(setup.tokens[p.index()]);
        if total > u32::from(TOKENS) {
            problems.push(format!(
                "{} has {total} tokens on and off the board; a player has {TOKENS}",
                name(p)
            ));
        }
    }
    let bishops = setup.bishops.map(|b| b.map_or(NONE, |c| c.0));
    match setup.phase {
        Phase::Placement => {
            placement_problems(geo, setup, units, &height, &on_board, &mut problems)
        }
        Phase::Play => play_problems(geo, setup, &bishops, &mut problems),
    }
    problems.extend(REPETITION.history_problems(&setup.history));
    SetupError::check(problems)?;
    let tokens = setup.tokens;
    let pos = assemble(
        variant,
        setup.phase,
        height,
        units,
        blue,
        bishops,
        tokens,
        setup.quiet_turns,
        setup.side_to_move,
    );
    if let Some((winner, _)) = rules_winner(&pos) {
        if pos.side != winner.opponent() {
            return Err(SetupError {
                problems: vec![format!(
                    "{}'s Bishop stands on a {} Cathedral, so {} just moved and {} is to move",
                    name(winner),
                    name(winner),
                    name(winner),
                    name(winner.opponent())
                )],
            });
        }
    }
    Ok(Played::from_parts(pos, setup.history.clone()))
}

fn rules_winner(pos: &Tartan) -> Option<(Player, &'static str)> {
    pos.decided().and_then(|o| match o.result {
        crate::GameResult::Win(p) => Some((p, o.reason)),
        crate::GameResult::Draw => None,
    })
}

fn placement_problems(
    geo: &Geometry,
    setup: &Setup,
    units: u64,
    height: &[u8; 64],
    on_board: &[u32; 2],
    problems: &mut Vec<String>,
) {
    if setup.bishops.iter().any(Option::is_some) {
        problems.push("the Bishops come onto the board only when the placement is over".into());
    }
    if setup.quiet_turns != 0 {
        problems.push("quiet turns count only in play; during placement the counter is 0".into());
    }
    for c in bits(units) {
        if height[c] != 1 {
            problems.push(format!(
                "{} holds {} tokens; during placement every unit is a Family",
                Cell(c as u8),
                height[c]
            ));
        }
        if geo.nbr_mask[c] & units != 0 {
            let n = bits(geo.nbr_mask[c] & units).next().unwrap_or(c);
            if n > c {
                problems.push(format!(
                    "the Families on {} and {} are next to each other; placements are never",
                    Cell(c as u8),
                    Cell(n as u8)
                ));
            }
        }
    }
    for p in [Player::One, Player::Two] {
        let total = on_board[p.index()] + u32::from(setup.tokens[p.index()]);
        if total < u32::from(TOKENS) {
            problems.push(format!(
                "{} has {total} tokens on and off the board; nothing is captured during placement",
                name(p)
            ));
        }
    }
    let free = movegen::free_cells(geo, units);
    let can = |p: Player| setup.tokens[p.index()] > 0 && free != 0;
    if !can(Player::One) && !can(Player::Two) {
        problems.push(
            "nobody can place a Family any more, so the placement is over (the phase is play)"
                .into(),
        );
    }
    if setup.tokens.iter().all(|&t| t > 0) {
        let placed = setup.tokens.map(|t| TOKENS - t.min(TOKENS));
        let expected = if placed[0] == placed[1] {
            Some(Player::One)
        } else if placed[0] == placed[1] + 1 {
            Some(Player::Two)
        } else {
            None
        };
        match expected {
            None => problems.push(format!(
                "red has placed {} and blue {}: they take turns, red first",
                placed[0], placed[1]
            )),
            Some(p) if p != setup.side_to_move => problems.push(format!(
                "red has placed {} and blue {}, so {} is to place",
                placed[0],
                placed[1],
                name(p)
            )),
            Some(_) => {}
        }
    }
}

fn play_problems(geo: &Geometry, setup: &Setup, bishops: &[u8; 2], problems: &mut Vec<String>) {
    for (p, b) in [Player::One, Player::Two].into_iter().zip(bishops) {
        if *b == NONE {
            problems.push(format!(
                "{}'s Bishop is not on the board during play",
                name(p)
            ));
        } else if geo.lochs & (1 << b) != 0 && *b != geo.central {
            problems.push(format!(
                "{}'s Bishop stands on the Loch {}; a Bishop never goes onto a Loch",
                name(p),
                Cell(*b)
            ));
        }
    }
    if bishops[0] != NONE && bishops[0] == bishops[1] && bishops[0] != geo.central {
        problems.push(format!(
            "both Bishops stand on {}; a Bishop never goes onto the other",
            Cell(bishops[0])
        ));
    }
    if setup.quiet_turns > QUIET_TURNS_DRAW {
        problems.push(format!(
            "{} quiet turns; the game is drawn at {QUIET_TURNS_DRAW}",
            setup.quiet_turns
        ));
    }
}
