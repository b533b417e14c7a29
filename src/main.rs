//! The `menagerie` binary: subcommands for perft and the variant list; with no subcommand it
//! speaks UCI or XBoard/CECP on stdin, whichever the first command names.

use clap::{Parser, Subcommand};
use menagerie::notation::{move_text, Dialect};
use menagerie::variants;
use std::io::IsTerminal;
use std::process::ExitCode;

/// Deepest perft the CLI accepts.
const MAX_PERFT_DEPTH: u32 = 20;

#[derive(Parser)]
#[command(name = "menagerie", version, about = "A chess-variant engine")]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Count the leaf nodes of the legal move tree.
    Perft {
        /// Variant name (see `menagerie variants`).
        #[arg(long, default_value = "chess")]
        variant: String,
        /// Start position; the variant's start position when omitted.
        #[arg(long)]
        fen: Option<String>,
        /// Depth in plies.
        #[arg(long)]
        depth: u32,
        /// Print the count below each root move.
        #[arg(long)]
        divide: bool,
        /// Threads that split the root moves.
        #[arg(long, default_value_t = 1)]
        threads: usize,
    },
    /// List the variants with board size and a description.
    Variants,
    /// Search fixed positions to a fixed depth; the node count is the search's checksum.
    Bench {
        /// Variant name; every variant when omitted.
        #[arg(long)]
        variant: Option<String>,
        /// Search threads.
        #[arg(long, default_value_t = 1)]
        threads: usize,
        /// Depth in plies.
        #[arg(long, default_value_t = menagerie::bench::DEFAULT_DEPTH)]
        depth: u32,
    },
}

fn bench(variant: Option<&str>, threads: usize, depth: u32) -> Result<(), String> {
    let list: Vec<&'static dyn menagerie::variants::Variant> = match variant {
        Some(name) => vec![variants::by_name(name).map_err(|e| e.to_string())?],
        None => variants::all().to_vec(),
    };
    if !(1..=64).contains(&depth) {
        return Err(format!("depth must be between 1 and 64, not {depth}"));
    }
    if !(1..=256).contains(&threads) {
        return Err(format!("threads must be between 1 and 256, not {threads}"));
    }
    let mut nodes = 0u64;
    let mut time = std::time::Duration::ZERO;
    for v in list {
        let r = menagerie::bench::run(v, depth, threads, |i, fen, n, t| {
            eprintln!(
                "{} position {}: {n} nodes, {} ms ({fen})",
                v.name(),
                i + 1,
                t.as_millis()
            )
        });
        nodes += r.nodes;
        time += r.time;
    }
    println!("Nodes searched: {nodes}");
    println!(
        "Nodes/second: {}",
        (nodes as u128 * 1000 / time.as_millis().max(1)) as u64
    );
    Ok(())
}

fn perft(
    variant: &str,
    fen: Option<&str>,
    depth: u32,
    divide: bool,
    threads: usize,
) -> Result<(), String> {
    let v = variants::by_name(variant).map_err(|e| e.to_string())?;
    if depth > MAX_PERFT_DEPTH {
        return Err(format!(
            "depth {depth} is too deep (at most {MAX_PERFT_DEPTH})"
        ));
    }
    if threads == 0 || threads > 256 {
        return Err(format!("threads must be between 1 and 256, not {threads}"));
    }
    let pos = match fen {
        Some(f) => v.parse_fen(f).map_err(|e| e.to_string())?,
        None => v.start_position(),
    };
    if depth == 0 {
        println!("Nodes searched: 1");
        return Ok(());
    }
    let bar = std::io::stderr().is_terminal().then(|| {
        let mut moves = menagerie::core::MoveList::new();
        v.legal_moves(&pos, &mut moves);
        let bar = indicatif::ProgressBar::new(moves.len() as u64);
        bar.set_style(
            indicatif::ProgressStyle::with_template(
                "perft {bar:40} {pos}/{len} root moves, {elapsed}",
            )
            .expect("valid template"),
        );
        bar
    });
    let progress = |n: usize| {
        if let Some(b) = &bar {
            b.set_position(n as u64);
        }
    };
    let counts = menagerie::perft::divide(v, &pos, depth, threads, &progress);
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    if divide {
        for (m, n) in &counts {
            println!("{}: {n}", move_text(v.rules(), Dialect::Uci, *m));
        }
        println!();
    }
    println!(
        "Nodes searched: {}",
        counts.iter().map(|(_, n)| n).sum::<u64>()
    );
    Ok(())
}

fn list_variants() {
    for v in variants::all() {
        let g = v.rules().geometry();
        println!(
            "{:<16} {:>2}x{:<2}  {}",
            v.name(),
            g.files(),
            g.ranks(),
            v.description()
        );
    }
}

fn main() -> ExitCode {
    // Log lines start with '#': XBoard reads the engine's stderr as protocol lines and ignores those.
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
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
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
            return ExitCode::from(2);
        }
    };
    let result = match cli.command {
        Some(Command::Perft {
            variant,
            fen,
            depth,
            divide,
            threads,
        }) => perft(&variant, fen.as_deref(), depth, divide, threads),
        Some(Command::Bench {
            variant,
            threads,
            depth,
        }) => bench(variant.as_deref(), threads, depth),
        Some(Command::Variants) => {
            list_variants();
            Ok(())
        }
        None => {
            menagerie::protocol::run();
            Ok(())
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(msg) => {
            eprintln!("error: {msg}");
            ExitCode::FAILURE
        }
    }
}
