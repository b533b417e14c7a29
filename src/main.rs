//! The `menagerie` binary: subcommands for perft, bench, matches and the variant list; with no
//! subcommand it speaks UCI or XBoard/CECP on stdin, whichever the first command names. This file
//! only parses the arguments; each subcommand is a function of `menagerie::cli`.

use clap::{Parser, Subcommand};
use menagerie::cli;
use std::process::ExitCode;

#[derive(Parser)]
#[command(name = "menagerie", version, about = "A chess-variant engine")]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

// Built once per run, so the size of the largest variant does not matter.
#[allow(clippy::large_enum_variant)]
#[derive(Subcommand)]
enum Command {
    /// Count the leaf nodes of the legal move tree, or check a perft file with --suite.
    Perft {
        /// Variant name (see `menagerie variants`); chess when omitted, or with --suite the
        /// file's name (`chess.perft` is chess).
        #[arg(long)]
        variant: Option<String>,
        /// Start position; the variant's start position when omitted.
        #[arg(long)]
        fen: Option<String>,
        /// Depth in plies.
        #[arg(long, required_unless_present = "suite")]
        depth: Option<u32>,
        /// Print each root move's count as soon as it is known (with several threads, in the
        /// order the moves finish).
        #[arg(long)]
        divide: bool,
        /// Threads that split the root moves.
        #[arg(long, default_value_t = 1)]
        threads: usize,
        /// Run a perft file (format in perft/README.md): PASS or FAIL for each count, a summary,
        /// and a non-zero exit if any count fails.
        #[arg(long, value_name = "FILE", conflicts_with_all = ["fen", "depth", "divide"])]
        suite: Option<std::path::PathBuf>,
        /// With --suite, skip the counts above N nodes.
        #[arg(long, value_name = "N", requires = "suite")]
        max_nodes: Option<u64>,
    },
    /// List the variants with board size and a description.
    Variants,
    /// Replay every game of a PGN file with our rules (coordinate moves or SAN as GUIs write it).
    PgnCheck {
        /// The PGN file.
        file: std::path::PathBuf,
        /// Variant, when games have no Variant tag.
        #[arg(long, default_value = "chess")]
        variant: String,
        /// Square numbering of the moves: uci (ranks from 1; our SAN, coordinates, SAN as GUIs write it) or cecp (XBoard: ranks from 0 on ten ranks).
        #[arg(long, default_value = "uci")]
        dialect: String,
    },
    /// Write a book of varied, balanced openings for a game (EPD and PGN).
    Bookgen(cli::BookgenArgs),
    /// Play engine-vs-engine games (cutechess-cli style options).
    Match(cli::MatchArgs),
    /// Serve a board for every game in the browser, on 127.0.0.1 unless told otherwise.
    Gui {
        /// Port to listen on; 0 lets the system choose.
        #[arg(long, default_value_t = 0)]
        port: u16,
        /// Address to listen on (anything but loopback lets other machines play).
        #[arg(long, default_value = "127.0.0.1")]
        address: std::net::IpAddr,
        /// Do not open the system's browser; only print the URL.
        #[arg(long)]
        no_open: bool,
        /// Seconds after which a page's socket that sends nothing (not even the answer to a
        /// ping) is closed, freeing its game slot.
        #[arg(long, default_value_t = 60, value_parser = clap::value_parser!(u64).range(1..=86_400))]
        idle_timeout: u64,
    },
    /// Search fixed positions to a fixed depth; the node count is the search's checksum.
    Bench {
        /// Variant name; every variant when omitted.
        #[arg(long)]
        variant: Option<String>,
        /// Search threads.
        #[arg(long, default_value_t = 1)]
        threads: usize,
        /// Depth in plies; each variant's own bench depth when omitted.
        #[arg(long)]
        depth: Option<u32>,
    },
}

fn main() -> ExitCode {
    init_logging();
    let cli = match parse() {
        Ok(cli) => cli,
        Err(code) => return code,
    };
    match run(cli.command) {
        Ok(()) => ExitCode::SUCCESS,
        Err(msg) => {
            eprintln!("error: {msg}");
            ExitCode::FAILURE
        }
    }
}

/// Log lines start with '#': XBoard reads the engine's stderr as protocol lines and ignores those.
fn init_logging() {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .format(|buf, record| {
            use std::io::Write;
            writeln!(
                buf,
                "# {} {}: {}",
                record.level(),
                record.target(),
                record.args()
            )
        })
        .init();
}

/// The parsed arguments; on help or version, that text and success; on an error, one line and
/// exit code 2.
fn parse() -> Result<Cli, ExitCode> {
    use clap::{CommandFactory, FromArgMatches};
    let args = match cli::cutechess_args(std::env::args_os().collect()) {
        Ok(args) => args,
        Err(line) => {
            eprintln!("{line}");
            return Err(ExitCode::from(2));
        }
    };
    let parsed = Cli::command().try_get_matches_from(args).and_then(|m| {
        let mut cli = Cli::from_arg_matches(&m)?;
        if let (Some(Command::Match(a)), Some(sub)) =
            (&mut cli.command, m.subcommand_matches("match"))
        {
            a.group_engines(sub);
        }
        Ok(cli)
    });
    parsed.map_err(|e| {
        use clap::error::ErrorKind;
        if matches!(
            e.kind(),
            ErrorKind::DisplayHelp
                | ErrorKind::DisplayVersion
                | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
        ) {
            let _ = e.print();
            return ExitCode::SUCCESS;
        }
        // One line: clap's first line says what is wrong, and when it ends in a colon the
        // next lines name the arguments.
        let text = e.render().to_string();
        let mut lines = text.lines();
        let mut line = lines.next().unwrap_or("error: bad arguments").to_string();
        if line.ends_with(':') {
            let names: Vec<&str> = lines.map(str::trim).take_while(|l| !l.is_empty()).collect();
            line = format!("{} {}", line, names.join(", "));
        }
        eprintln!("{line}");
        ExitCode::from(2)
    })
}

/// Runs the subcommand; with none, the protocol loop on stdin.
fn run(command: Option<Command>) -> Result<(), String> {
    match command {
        Some(Command::Perft {
            variant,
            fen,
            depth,
            divide,
            threads,
            suite,
            max_nodes,
        }) => match (suite, depth) {
            (Some(file), _) => cli::perft_suite(&file, variant.as_deref(), max_nodes, threads),
            (None, Some(depth)) => {
                cli::perft(variant.as_deref(), fen.as_deref(), depth, divide, threads)
            }
            (None, None) => Err("perft needs --depth or --suite".into()),
        },
        Some(Command::Bench {
            variant,
            threads,
            depth,
        }) => cli::bench(variant.as_deref(), threads, depth),
        Some(Command::Match(args)) => cli::run_match(&args),
        Some(Command::Bookgen(args)) => cli::bookgen(&args),
        Some(Command::PgnCheck {
            file,
            variant,
            dialect,
        }) => cli::pgn_check(&file, &variant, &dialect),
        Some(Command::Gui {
            port,
            address,
            no_open,
            idle_timeout,
        }) => menagerie::gui::run(&menagerie::gui::Options {
            address,
            port,
            open: !no_open,
            idle_timeout: std::time::Duration::from_secs(idle_timeout),
        }),
        Some(Command::Variants) => {
            cli::list_variants();
            Ok(())
        }
        None => {
            menagerie::protocol::run();
            Ok(())
        }
    }
}
