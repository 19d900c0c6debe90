//! `caber`: play, analyse and check games through Caber's gRPC service.
//!
//! Every command goes through the generated gRPC client: to a running
//! `caberd` with `--server`, otherwise to the same service started in-process.

mod args;
mod challenge_protocol;
mod chart;
mod client;
mod clock;
mod commands;
mod elo;
mod engines;
mod json;
mod lines;
mod output;
mod process_group;
mod progress;
mod prompter;
mod puzzles;
mod replies;
mod sides;
mod uci_process;
mod words;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

use args::{Common, SearchArgs};

/// mimalloc, as in `caberd`: decoding replies is mostly small allocations.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Caber: rules and AI for Tablut and other games, through the caber.v1 gRPC API.
#[derive(Parser, Debug)]
#[command(name = "caber", version, about)]
struct Cli {
    #[command(flatten)]
    common: Common,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// List the games, their variants and notation help.
    Games,
    /// Show the start position, or the one --position gives (after --moves).
    New,
    /// List the legal moves.
    Legal,
    /// Play a move and show the new position and what happened.
    Apply {
        /// The move, in the game's text notation.
        #[arg(value_name = "MOVE")]
        mv: String,
    },
    /// Evaluate the position: static, or searched with --depth/--nodes/--movetime.
    Eval(SearchArgs),
    /// Search for the best move (default budget: 1 s).
    Best(SearchArgs),
    /// Stream search progress, then the final report (default budget: 1 s).
    Analyze {
        #[command(flatten)]
        search: SearchArgs,
        /// Number of principal variations.
        #[arg(long, default_value_t = 1)]
        multipv: u32,
        /// Progress report interval in milliseconds.
        #[arg(long, default_value_t = 500)]
        interval: u32,
    },
    /// A player's view of a referee's full state (schotten-totten): its own
    /// hand, the opponent's hand size, deck sizes.
    View {
        /// Whose view, as the game names the side (default: the side to move).
        #[arg(long, default_value = "", hide_default_value = true)]
        player: String,
    },
    /// Play a match between two players of any game (engine specs: random,
    /// uct-baseline, a searcher such as alphabeta:depth=4 or ismcts:nodes=1000,
    /// default (the game's default searcher), cmd=TEMPLATE for another
    /// engine run per move, or uci=COMMAND for an engine that speaks the
    /// protocol of `caber engine`), each opening twice with the seats swapped; prints results per
    /// seat, the score with its Elo difference, an SPRT verdict with --sprt,
    /// and writes every game as a record.
    Match {
        /// Player A.
        #[arg(long, default_value = "default")]
        a: String,
        /// Player B.
        #[arg(long, default_value = "random")]
        b: String,
        /// Games to play (two per opening).
        #[arg(long, default_value_t = 10)]
        games: u32,
        /// Budget per move in milliseconds of a searcher given no limit.
        #[arg(long, default_value_t = 1000)]
        movetime: u32,
        /// Threads of each searcher whose spec gives no `threads=`.
        #[arg(long, default_value_t = 1)]
        threads_per_engine: u32,
        /// Games played at once.
        #[arg(long, default_value_t = 1)]
        concurrency: usize,
        /// Stop once a sequential test decides between elo0 and elo1 (e.g. 0,10).
        #[arg(long, value_name = "ELO0,ELO1", value_parser = parse_sprt)]
        sprt: Option<(f64, f64)>,
        /// Uniformly random plies from the start of each opening.
        #[arg(long, default_value_t = 4)]
        opening_plies: u32,
        /// Opening positions, one per line, instead of random plies.
        #[arg(long, value_name = "FILE")]
        openings: Option<PathBuf>,
        /// Directory for the games' records (default: caber-match-GAME-TIME).
        #[arg(long, value_name = "DIR", conflicts_with = "no_records")]
        records: Option<PathBuf>,
        /// Write no records (e.g. on a read-only filesystem, as in the Job of
        /// deploy/k8s/jobs).
        #[arg(long)]
        no_records: bool,
    },
    /// Count leaf nodes of the move tree (checks move generation).
    Perft {
        /// Plies to go down.
        #[arg(long)]
        depth: u32,
        /// Also count per legal move.
        #[arg(long)]
        divide: bool,
    },
    /// Review a recorded game (docs/RECORDS.md): every move judged by the
    /// win probability it lost, a summary per player, and with --chart an
    /// evaluation chart (SVG); probabilities and scores are the view of the
    /// game's White (Tablut's white, else the first-listed side).
    Review {
        /// The game record.
        #[arg(value_name = "GAMEFILE")]
        file: PathBuf,
        /// The search of each position (default: 1 s each).
        #[command(flatten)]
        search: SearchArgs,
        /// Also write the evaluation chart to this SVG file.
        #[arg(long, value_name = "FILE.svg")]
        chart: Option<PathBuf>,
        /// Also write the record again to OUT (in the current format), each
        /// move with its evaluation ([%eval], White's view) and a judged move
        /// with its mark, loss and better move, as comments that review and
        /// puzzle generate read.
        #[arg(long, value_name = "OUT")]
        annotate: Option<PathBuf>,
    },
    /// A UCI-style engine loop on standard input and output for GUIs,
    /// tournament managers and scripts: uci, isready, setoption (Game,
    /// Variant, Searcher, Seed, MultiPV, Threads), ucinewgame, position
    /// startpos|fen TEXT [moves ...], go (movetime, depth, nodes, infinite,
    /// wtime/btime/winc/binc/movestogo), stop, quit (docs/ENGINE.md).
    Engine,
    /// Play against the engine in the terminal: type moves (Tab completes
    /// them; arrows edit and recall), or `moves`, `history`, `eval`, `hint`,
    /// `undo`, `resign`, `quit` (or `exit`: the game left unfinished); each
    /// move's events are printed (in Schotten Totten the card you drew), the
    /// last move shown under the diagram; the end says who won; the game
    /// record is saved at the end.
    Play {
        /// Your side as the game names it, e.g. white (`caber games` lists
        /// the players and who moves first); default: the side to move.
        #[arg(long, default_value = "", hide_default_value = true)]
        side: String,
        /// The engine's search of each move (default: 1 s).
        #[command(flatten)]
        search: SearchArgs,
        /// Save the game record to FILE (default: caber-GAME-DATE-TIME.record).
        #[arg(long, value_name = "FILE")]
        record: Option<PathBuf>,
    },
    /// Draw the position (after --moves) as SVG: boards with coordinates,
    /// hex boards as hexes, stacks, cards; the last move marked.
    Render {
        /// The SVG file to write (`-`: standard output).
        #[arg(long, value_name = "FILE")]
        svg: PathBuf,
        /// The move to mark (default: the last of --moves; "" for none).
        #[arg(long, value_name = "MOVE")]
        last: Option<String>,
    },
    /// Play one game of the Tablut Challenge (Ashton rules) as a client of
    /// the competition's server, or referee one between two clients with
    /// `serve` (docs/TABLUT_CHALLENGE.md); write its record. Exit code 0 for
    /// a finished game, 3 when the server breaks the protocol, 4 when the
    /// connection fails, closes or goes silent.
    TablutChallenge(commands::tablut_challenge::ChallengeCommand),
    /// Puzzles (docs/PUZZLES.md): solve a file with the engine, play it in
    /// the terminal, or generate puzzles from games.
    #[command(subcommand)]
    Puzzle(PuzzleCommand),
    /// Load tests.
    #[command(subcommand)]
    Bench(Bench),
}

/// What `caber puzzle` does.
#[derive(Subcommand, Debug)]
enum PuzzleCommand {
    /// The puzzle sets shipped in caber: each one's game and variant,
    /// puzzles, ratings and themes.
    List,
    /// The engine solves each puzzle of SET: solved/total, time, and where
    /// it disagrees with the set (then exit code 2).
    Solve {
        /// A shipped set (`caber puzzle list`) or a puzzle file (JSON
        /// Lines); without it, the shipped set of --game and --variant.
        set: Option<String>,
    },
    /// Play the puzzles of SET in the terminal: type moves (Tab
    /// completes), `hint`, `undo`, `solution` or `quit`; each puzzle's
    /// themes are shown once it is over, a score at the end.
    Play {
        /// A shipped set (`caber puzzle list`) or a puzzle file (JSON
        /// Lines); without it, the shipped set of --game and --variant.
        set: Option<String>,
        /// Only the puzzle with this id (repeatable).
        #[arg(long = "id", value_name = "ID")]
        ids: Vec<String>,
        /// Only puzzles with this theme.
        #[arg(long)]
        theme: Option<String>,
        /// Only puzzles rated at least this.
        #[arg(long, value_name = "RATING")]
        min_rating: Option<u32>,
        /// Only puzzles rated at most this.
        #[arg(long, value_name = "RATING")]
        max_rating: Option<u32>,
        /// In a shuffled order (by --seed) instead of the file's.
        #[arg(long)]
        shuffle: bool,
    },
    /// Mine self-play games of --game/--variant (or the game records given
    /// with --from) for positions with a forced win and exactly one winning
    /// first move (in a win in one, several that play the same piece or
    /// card, all accepted); write them as puzzle lines.
    Generate {
        /// Puzzles to find.
        #[arg(long, default_value_t = 10)]
        count: usize,
        /// Longest win looked for, in the winner's moves (1..=4).
        #[arg(long, default_value_t = 2)]
        max_moves: u32,
        /// Game records to mine instead of self-play games.
        #[arg(long, value_name = "GAMEFILE", num_args = 1..)]
        from: Vec<PathBuf>,
        /// Nodes of each self-play move's search.
        #[arg(long, default_value_t = 2000)]
        nodes: u64,
        /// Most self-play games.
        #[arg(long, default_value_t = 200)]
        games: u32,
        /// Write the puzzles to FILE (default: standard output).
        #[arg(long, value_name = "FILE")]
        out: Option<PathBuf>,
    },
}

/// What `caber bench` can load.
#[derive(Subcommand, Debug)]
enum Bench {
    /// Calls one RPC as fast as possible with --concurrency workers for
    /// --seconds, and the health Check (a no-op baseline) the same way, the
    /// two taking turns; reports throughput, p50/p99 latency, errors and the
    /// ratio.
    Service {
        /// The RPC to load.
        #[arg(long, value_enum, default_value = "legal-moves")]
        rpc: commands::bench::Rpc,
        /// The no-op baseline, run the same way (health-check: the cheapest
        /// call there is; list-games: an API call without a position).
        #[arg(long, value_enum, default_value = "health-check")]
        baseline: commands::bench::Rpc,
        /// Calls in flight at once, one connection each.
        #[arg(long, default_value_t = 8)]
        concurrency: usize,
        /// Time given to each of the two (baseline and RPC), in seconds.
        #[arg(long, default_value_t = 5.0)]
        seconds: f64,
        /// Slices of --seconds/rounds in which baseline and RPC take turns
        /// (baseline first), so that a change in a shared machine's load
        /// during the run weighs on both alike.
        #[arg(long, default_value_t = 5)]
        rounds: usize,
        /// The server's process id (on this machine): its resident memory is
        /// sampled before, between the rounds and after, and its CPU time per
        /// call is reported with the client's.
        #[arg(long, alias = "rss-pid")]
        server_pid: Option<u32>,
    },
    /// Hostile and careless clients against a running caberd (a plaintext
    /// port): stalled streams, a flood of silent connections, reviews
    /// nobody reads, deadlines with this machine's cores busy, and mutated
    /// requests of every RPC and game; each scenario's figures and checks
    /// (docs/SERVICE.md, "Reliability suite"). Exit code 2 if a check fails.
    Reliability {
        /// The server's process id on this machine: its resident memory is
        /// read from /proc.
        #[arg(long)]
        server_pid: Option<u32>,
        /// The server's metrics URL (http://HOST:PORT/metrics): its
        /// resident memory is read there when --server-pid is not given.
        #[arg(long, value_name = "URL")]
        metrics: Option<String>,
        /// The most resident memory the server may reach, in MB.
        #[arg(long, default_value_t = 200)]
        max_rss_mb: u64,
        /// The server's --idle-timeout-ms: silent connections must be closed
        /// within it (and 5 s).
        #[arg(long, default_value_t = 10_000)]
        idle_timeout_ms: u64,
        /// Stalled streams in each attack.
        #[arg(long, default_value_t = 2000)]
        streams: usize,
        /// Silent connections in the flood (at most this process's open-files
        /// limit less 100).
        #[arg(long, default_value_t = 2000)]
        connections: usize,
        /// Busy threads on this machine during the deadline scenario
        /// (default: one per core; 0 when the server runs elsewhere).
        #[arg(long)]
        saturate: Option<usize>,
        /// Mutated requests per RPC and game.
        #[arg(long, default_value_t = 20)]
        mutations: usize,
        /// Connections that each make one call and then stay idle.
        #[arg(long, default_value_t = 1000)]
        held: usize,
        /// The server's --max-connection-idle-ms: connections idle after
        /// their call must be closed within it (and 5 s).
        #[arg(long, default_value_t = 300_000)]
        max_connection_idle_ms: u64,
        /// Seconds each of the two Monte Carlo searches of search-memory runs.
        #[arg(long, default_value_t = 60)]
        search_seconds: u64,
        /// Connections of kept-tables, each searching with a table of its own.
        #[arg(long, default_value_t = 20)]
        kept_connections: usize,
    },
    /// Uniformly random full games from the position the options give (the
    /// start of --game/--variant by default) on one thread of the server (the
    /// in-process engine without --server), by the Playouts RPC: games per
    /// second, moves per second, mean game length.
    Playouts {
        /// How long to play, in seconds.
        #[arg(long, default_value_t = 5.0)]
        seconds: f64,
    },
}

/// The global options a command has no use for, and so refuses rather
/// than ignores: (command path, options, why).
const NOT_TAKEN: &[(&str, &[&str], &str)] = &[
    (
        "games",
        &["variant", "position", "moves", "seed"],
        "it lists every game",
    ),
    (
        "review",
        &["game", "variant", "position", "moves", "seed"],
        "the record names its game, start and moves",
    ),
    (
        "puzzle solve",
        &["position", "moves", "seed"],
        "each puzzle names its game and position; --game and --variant choose a shipped set",
    ),
    (
        "puzzle play",
        &["position", "moves"],
        "each puzzle names its game and position; --game and --variant choose a shipped set",
    ),
    (
        "puzzle list",
        &["game", "variant", "position", "moves", "seed"],
        "it lists every shipped set",
    ),
    (
        "engine",
        &["position", "moves"],
        "positions come by its `position` command",
    ),
    ("play", &["json"], "it is a conversation with a person"),
    (
        "tablut-challenge",
        &["game", "variant", "position", "moves", "seed"],
        "the server's states give the game (Tablut, ashton) and the position",
    ),
    (
        "tablut-challenge serve",
        &["game", "variant", "seed"],
        "the competition plays Tablut, ashton",
    ),
    (
        "puzzle play",
        &["json"],
        "it is a conversation with a person",
    ),
];

/// The command line read: help and version printed (exit 0); an error as
/// text, or as one JSON object with `--json` (exit 2); an option the
/// command would ignore refused.
fn parse_arguments() -> Result<Cli, ExitCode> {
    use clap::parser::ValueSource;
    use clap::{CommandFactory, FromArgMatches};
    let json = std::env::args().any(|a| a == "--json");
    let fail = |message: String| {
        output::error(&anyhow::anyhow!(message), None, json);
        ExitCode::from(2)
    };
    let matches = match Cli::command().try_get_matches() {
        Ok(matches) => matches,
        Err(e) if !e.use_stderr() => {
            // --help, --version.
            let _ = e.print();
            return Err(ExitCode::SUCCESS);
        }
        Err(e) if json => {
            let text = e.render().to_string();
            let first = text.lines().next().unwrap_or_default();
            return Err(fail(first.trim_start_matches("error: ").to_string()));
        }
        Err(e) => {
            let _ = e.print();
            return Err(ExitCode::from(2));
        }
    };
    // The command's path, e.g. "puzzle solve", and its own matches.
    let mut path = Vec::new();
    let mut inner = &matches;
    while let Some((name, sub)) = inner.subcommand() {
        path.push(name);
        inner = sub;
    }
    let path = path.join(" ");
    let given = |id: &str| {
        [&matches, inner].iter().any(|m| {
            m.try_get_raw(id).is_ok() && m.value_source(id) == Some(ValueSource::CommandLine)
        })
    };
    for (command, options, why) in NOT_TAKEN.iter().filter(|(c, ..)| *c == path) {
        if let Some(option) = options.iter().find(|o| given(o)) {
            return Err(fail(format!(
                "--{option}: `caber {command}` does not take it ({why})"
            )));
        }
    }
    Cli::from_arg_matches(&matches).map_err(|e| fail(e.to_string()))
}

async fn run(cli: Cli) -> anyhow::Result<()> {
    let client = client::connect(&cli.common.target()).await?;
    let mut session = commands::Session::new(client, cli.common);
    match cli.command {
        Command::Games => commands::games::run(&mut session).await,
        Command::New => commands::position::new(&mut session).await,
        Command::Legal => commands::position::legal(&mut session).await,
        Command::Apply { mv } => commands::position::apply(&mut session, &mv).await,
        Command::Eval(search) => commands::search::eval(&mut session, &search).await,
        Command::Best(search) => commands::search::best(&mut session, &search).await,
        Command::Analyze {
            search,
            multipv,
            interval,
        } => commands::search::analyze(&mut session, &search, multipv, interval).await,
        Command::View { player } => commands::view::run(&mut session, &player).await,
        Command::Match {
            a,
            b,
            games,
            movetime,
            threads_per_engine,
            concurrency,
            sprt,
            opening_plies,
            openings,
            records,
            no_records,
        } => {
            let args = commands::matches::MatchArgs {
                a,
                b,
                games,
                movetime,
                threads_per_engine,
                concurrency,
                sprt,
                opening_plies,
                openings,
                records: (!no_records).then_some(records),
            };
            commands::matches::run(&mut session, args).await
        }
        Command::Perft { depth, divide } => commands::perft::run(&mut session, depth, divide).await,
        Command::Engine => commands::engine::run(&mut session).await,
        Command::Play {
            side,
            search,
            record,
        } => {
            let args = commands::play::PlayArgs {
                side,
                search,
                record,
            };
            commands::play::run(&mut session, &args).await
        }
        Command::TablutChallenge(command) => match command.serve {
            Some(commands::tablut_challenge::Serve::Serve(args)) => {
                commands::referee::run(&mut session, &args).await
            }
            None => commands::tablut_challenge::run(&mut session, &command.client).await,
        },
        Command::Render { svg, last } => {
            commands::render::run(&mut session, &svg, last.as_deref()).await
        }
        Command::Puzzle(PuzzleCommand::List) => commands::puzzle::list(session.common.json),
        Command::Puzzle(PuzzleCommand::Solve { set }) => {
            commands::puzzle::solve(&mut session, set.as_deref()).await
        }
        Command::Puzzle(PuzzleCommand::Play {
            set,
            ids,
            theme,
            min_rating,
            max_rating,
            shuffle,
        }) => {
            let selection = commands::puzzle::Selection {
                ids,
                theme,
                min_rating,
                max_rating,
                shuffle: shuffle.then_some(session.common.seed),
            };
            commands::puzzle::play(&mut session, set.as_deref(), &selection).await
        }
        Command::Puzzle(PuzzleCommand::Generate {
            count,
            max_moves,
            from,
            nodes,
            games,
            out,
        }) => {
            let args = commands::puzzle::GenerateArgs {
                count,
                max_moves,
                from,
                nodes,
                out,
                games,
            };
            commands::puzzle::generate(&mut session, &args).await
        }
        Command::Review {
            file,
            search,
            chart,
            annotate,
        } => {
            let outputs = commands::review::ReviewOutputs { chart, annotate };
            commands::review::run(&mut session, &file, &search, &outputs).await
        }
        Command::Bench(Bench::Service {
            rpc,
            baseline,
            concurrency,
            seconds,
            rounds,
            server_pid,
        }) => {
            let plan = commands::bench::BenchSettings {
                target: session.common.target(),
                rpc,
                baseline,
                game: session.common.game.clone(),
                concurrency,
                seconds,
                rounds,
                server_pid,
            };
            commands::bench::service(&plan, session.common.json).await
        }
        Command::Bench(Bench::Reliability {
            server_pid,
            metrics,
            max_rss_mb,
            idle_timeout_ms,
            streams,
            connections,
            saturate,
            mutations,
            held,
            max_connection_idle_ms,
            search_seconds,
            kept_connections,
        }) => {
            let plan = commands::reliability::ReliabilitySettings {
                target: session.common.target(),
                server_pid,
                metrics,
                max_rss_mb,
                idle_timeout: std::time::Duration::from_millis(idle_timeout_ms),
                streams,
                connections,
                saturate: saturate
                    .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())),
                mutations,
                held,
                max_connection_idle: std::time::Duration::from_millis(max_connection_idle_ms),
                search_time: std::time::Duration::from_secs(search_seconds),
                kept_connections,
                seed: session.common.seed,
            };
            commands::reliability::run(&plan, session.common.json).await
        }
        Command::Bench(Bench::Playouts { seconds }) => {
            commands::playouts::run(&mut session, seconds).await
        }
    }
}

#[tokio::main]
async fn main() -> ExitCode {
    let cli = match parse_arguments() {
        Ok(cli) => cli,
        Err(code) => return code,
    };
    let (target, json) = (cli.common.target(), cli.common.json);
    match run(cli).await {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            output::error(&e, client::hint(&e, &target).as_deref(), json);
            match e.downcast_ref::<challenge_protocol::Failure>() {
                Some(challenge_protocol::Failure::Protocol(_)) => ExitCode::from(3),
                Some(challenge_protocol::Failure::Connection(_)) => ExitCode::from(4),
                None => ExitCode::from(2),
            }
        }
    }
}

/// `--sprt ELO0,ELO1`.
fn parse_sprt(text: &str) -> Result<(f64, f64), String> {
    let (a, b) = text
        .split_once(',')
        .ok_or_else(|| format!("{text:?}: expected ELO0,ELO1 such as 0,10"))?;
    let number = |t: &str| {
        t.trim()
            .parse::<f64>()
            .map_err(|_| format!("{t:?} is not a number"))
    };
    let (elo0, elo1) = (number(a)?, number(b)?);
    if elo1 <= elo0 {
        return Err(format!("{text:?}: ELO1 must be above ELO0"));
    }
    Ok((elo0, elo1))
}
