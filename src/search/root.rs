//! The root: iterative deepening, one MultiPV line after another within each iteration, with
//! aspiration windows around the last score, and the decision when to stop.

use super::alphabeta::NodeKind;
use super::time::Trend;
use super::tt::{Bound, TtEntry};
use super::worker::Worker;
use super::{to_tt, Info, Iteration, Score, SearchResult, INFINITY, MATE, MATE_BOUND, MAX_PLY};
use crate::board::Position;
use crate::core::{Move, MoveList};
use std::sync::atomic::Ordering;

/// Half width of the first aspiration window, in centipawns.
const ASPIRATION_WINDOW: i32 = 30;
/// Depth from which aspiration windows are used.
const ASPIRATION_DEPTH: u32 = 4;

impl Worker<'_> {
    /// Deepens the search of `root` one iteration at a time until a limit is reached or the
    /// search is stopped. Each iteration starts one ply deeper than the deepest any thread has
    /// finished, and a thread gives up an iteration once another has finished its depth; the
    /// main thread reports every finished iteration to `on_info`, in order of depth, and answers
    /// with the deepest.
    pub(super) fn run(&mut self, root: &Position, on_info: &mut dyn FnMut(&Info)) -> SearchResult {
        let limits = self.shared.limits;
        let mut root_moves = self.root_moves(root);
        let mut result = SearchResult::default();
        if root_moves.is_empty() {
            return result;
        }
        // Until the first iteration ends, any legal move is better than none.
        result.best = Some(root_moves[0]);
        let max_depth = limits
            .depth
            .unwrap_or(MAX_PLY as u32 - 1)
            .clamp(1, MAX_PLY as u32 - 1);
        let lines = limits.multipv.clamp(1, root_moves.len());
        let mut last_iteration_nodes = 0;
        let mut last_score: i32 = 0;
        // Iterations taken in (and reported, on the main thread) so far.
        let mut taken = 0;
        // The depth and nodes of the iteration this thread has just finished itself, and whether
        // it was limited by its depth.
        let mut own: Option<(u32, u64, bool)> = None;
        let mut trend = Trend::default();
        loop {
            // Step 1. Take in the iterations finished since the last look, by any thread: report
            // them, keep the deepest's best line and search its best move first.
            let before = taken;
            self.take_in(&mut taken, &mut result, &mut root_moves, on_info);
            if taken > before {
                last_score = result.score;
                trend.record(result.best, result.score);
            }
            if self.is_main() && taken > before {
                // Step 2. A tree that stopped growing, where no score depended on the depth, is
                // resolved to the end (every line ends by a rule): deeper iterations would only
                // repeat it. An infinite search (analysis, a ponder) goes on deepening and
                // reporting until told to stop, as a client that waits for a depth expects.
                match own {
                    Some((depth, grown, limited)) if depth == taken => {
                        let resolved = !limited && grown == last_iteration_nodes;
                        if depth > 1 && resolved && !self.unbounded() {
                            break;
                        }
                        last_iteration_nodes = grown;
                    }
                    _ => last_iteration_nodes = u64::MAX,
                }
                // Step 3. Stop when the iteration used enough of the time, or a wanted mate is
                // found.
                if self.iterations_done(taken, result.score, trend.scale()) {
                    break;
                }
            }
            let depth = taken + 1;
            if depth > max_depth {
                break;
            }
            // Step 4. Search the lines, each with an aspiration window.
            let nodes_before = self.nodes;
            self.depth_limited = false;
            own = None;
            let mut found =
                self.search_lines(root, depth, &root_moves, lines, last_score, taken == 0);
            if self.overtaken && !self.shared.control.stopped() {
                // Another thread finished this depth first: its iteration is taken in above.
                self.aborted = false;
                self.overtaken = false;
                continue;
            }
            if found.is_empty() {
                break;
            }
            // Step 5. Record the iteration; one stopped part way counts with the lines it
            // finished (in the first iteration, the first line's partial answer beats none).
            found.sort_by_key(|(score, _)| -score);
            self.shared.complete(Iteration {
                depth,
                seldepth: self.seldepth as u32,
                lines: found,
            });
            if self.aborted {
                break;
            }
            own = Some((depth, self.nodes - nodes_before, self.depth_limited));
        }
        // Iterations other threads finished meanwhile are deeper still.
        self.take_in(&mut taken, &mut result, &mut root_moves, on_info);
        self.publish();
        result.nodes = self.shared.nodes.load(Ordering::Relaxed);
        result
    }

    /// Takes in the iterations finished after the first `taken`: the main thread reports them
    /// to `on_info`; `result` becomes the deepest's answer, and its best move moves to the front
    /// of `root_moves`.
    fn take_in(
        &self,
        taken: &mut u32,
        result: &mut SearchResult,
        root_moves: &mut [Move],
        on_info: &mut dyn FnMut(&Info),
    ) {
        let new: Vec<Iteration> = {
            let done = self.shared.iterations.lock().expect("iterations lock");
            done.get(*taken as usize..).unwrap_or_default().to_vec()
        };
        for it in &new {
            if self.is_main() {
                self.report(it.depth, it.seldepth, &it.lines, on_info);
            }
            *result = answer(it.depth, &it.lines);
            *taken = it.depth;
        }
        if let Some(best) = result.best.filter(|_| !new.is_empty()) {
            if let Some(i) = root_moves.iter().position(|&m| m == best) {
                root_moves[..=i].rotate_right(1);
            }
        }
    }

    /// The legal moves of the root that the limits let the search play.
    fn root_moves(&self, root: &Position) -> Vec<Move> {
        let limits = self.shared.limits;
        let mut moves = MoveList::new();
        self.shared.variant.legal_moves(root, &mut moves);
        moves
            .iter()
            .copied()
            .filter(|m| limits.searchmoves.is_empty() || limits.searchmoves.contains(m))
            .filter(|m| !limits.exclude.contains(m))
            .collect()
    }

    /// One iteration's `lines` best lines, each the best of the moves the earlier ones do not
    /// start with, as (score, line). A search stopped part way keeps the lines it finished, and
    /// a first line whose move was proven better than the one searched first
    /// (`RootAnswer::overturned`); with `keep_partial` (no iteration finished yet), also the
    /// first line's partial answer.
    fn search_lines(
        &mut self,
        root: &Position,
        depth: u32,
        root_moves: &[Move],
        lines: usize,
        last_score: i32,
        keep_partial: bool,
    ) -> Vec<(i32, Vec<Move>)> {
        let mut found: Vec<(i32, Vec<Move>)> = Vec::new();
        for line in 0..lines {
            let candidates: Vec<Move> = root_moves
                .iter()
                .copied()
                .filter(|m| !found.iter().any(|(_, pv)| pv[0] == *m))
                .collect();
            // Aspiration: search a narrow window around the last score first, and widen it on
            // failure.
            let answer = if depth >= ASPIRATION_DEPTH && lines == 1 && last_score.abs() < MATE_BOUND
            {
                self.aspiration(root, depth, &candidates, last_score)
            } else {
                self.root(root, depth, &candidates, -INFINITY, INFINITY)
            };
            let kept = line == 0 && !answer.pv.is_empty() && (keep_partial || answer.overturned);
            if self.aborted && !kept {
                break;
            }
            found.push((answer.score, answer.pv));
        }
        found
    }

    /// Sends one iteration's lines, best first, to `on_info`.
    fn report(
        &self,
        depth: u32,
        seldepth: u32,
        found: &[(i32, Vec<Move>)],
        on_info: &mut dyn FnMut(&Info),
    ) {
        let hashfull = self.shared.tt.hashfull();
        for (i, (score, pv)) in found.iter().enumerate() {
            let info = Info {
                depth,
                seldepth,
                multipv: i + 1,
                score: *score,
                nodes: self.total_nodes(),
                time: self.shared.control.elapsed(),
                pv: pv.clone(),
                hashfull,
            };
            on_info(&info);
        }
    }

    /// Whether the main thread should start no further iteration after one to `depth` that
    /// scored `score`: a wanted mate is found, the iteration used enough of the time, or a mate
    /// is found that deeper iterations would not shorten. `time_scale` scales the soft limit by
    /// the iterations' trend.
    fn iterations_done(&self, depth: u32, score: i32, time_scale: f64) -> bool {
        let limits = self.shared.limits;
        if let Some(n) = limits.mate {
            if let Score::Mate(m) = Score::from_internal(score) {
                if m > 0 && m as u32 <= n {
                    return true;
                }
            }
        }
        if !self.unbounded()
            && self
                .shared
                .budget
                .soft_exceeded(self.shared.control.elapsed(), time_scale)
        {
            return true;
        }
        // A mate found with twice its length in depth is taken as the shortest: pruning may
        // hide a shorter one from shallower iterations.
        score.abs() >= MATE_BOUND
            && 2 * (MATE - score.abs()) <= depth as i32
            && limits.depth.is_none()
            && limits.mate.is_none()
            && !self.unbounded()
    }

    /// The root searched with a window around `center`, widened until the score falls inside.
    /// A stopped search that proved nothing new keeps a failure high, by another move than the
    /// first and with the whole window, of an earlier window: that move is proven the better one.
    fn aspiration(
        &mut self,
        pos: &Position,
        depth: u32,
        moves: &[Move],
        center: i32,
    ) -> RootAnswer {
        let mut delta = ASPIRATION_WINDOW;
        let mut overturned_before = None;
        loop {
            let alpha = (center - delta).max(-INFINITY);
            let beta = (center + delta).min(INFINITY);
            let answer = self.root(pos, depth, moves, alpha, beta);
            if self.aborted {
                return match overturned_before {
                    Some(before) if !answer.overturned => before,
                    _ => answer,
                };
            }
            if (answer.score > alpha && answer.score < beta) || delta >= INFINITY {
                return answer;
            }
            if answer.score >= beta && answer.beats_first(moves, alpha) {
                overturned_before = Some(RootAnswer {
                    overturned: true,
                    ..answer
                });
            }
            delta = delta.saturating_mul(4).min(INFINITY);
        }
    }

    /// Searches the root moves in order with a principal variation search; the best score and
    /// its line, of the moves searched in full if the search stopped.
    fn root(
        &mut self,
        pos: &Position,
        depth: u32,
        moves: &[Move],
        mut alpha: i32,
        beta: i32,
    ) -> RootAnswer {
        let alpha_in = alpha;
        let mut best_pv = Vec::new();
        let mut best = -INFINITY;
        // Whether the best score came from a search with the whole window: the first move's,
        // or a later move's search again after it beat alpha in a null window.
        let mut best_in_full = false;
        self.seldepth = 0;
        self.root_depth = depth;
        let variant = self.shared.variant;
        for (i, &m) in moves.iter().enumerate() {
            let child = variant.play(pos, m);
            self.note_played(pos, m, 0);
            self.path.push(pos.hash());
            let check = variant.in_check(&child);
            let d = depth as i32 - 1 + i32::from(check);
            let mut in_full = i == 0;
            let mut score = if i == 0 {
                self.child(pos, &child, d, 0, alpha, beta, NodeKind::Pv, check)
            } else {
                self.child(pos, &child, d, 0, alpha, alpha + 1, NodeKind::Cut, check)
            };
            if i > 0 && score > alpha && score < beta && !self.aborted {
                score = self.child(pos, &child, d, 0, alpha, beta, NodeKind::Pv, check);
                in_full = true;
            }
            self.path.pop();
            if self.aborted {
                break;
            }
            if score > best {
                best = score;
                best_in_full = in_full;
                best_pv = std::iter::once(m)
                    .chain(self.pv[1].iter().copied())
                    .collect();
            }
            if score > alpha {
                alpha = score;
            }
            if alpha >= beta {
                break;
            }
        }
        if !self.aborted && !best_pv.is_empty() {
            let bound = if best >= beta {
                Bound::Lower
            } else {
                Bound::Exact
            };
            self.shared.tt.store(
                pos.hash(),
                TtEntry {
                    mv: best_pv[0],
                    score: to_tt(best, 0),
                    depth: depth as i32,
                    bound,
                },
            );
        }
        // A later move that beat alpha with the whole window, after the first was searched in
        // full, is the better. A null window's failure high alone is not trusted: the search
        // behind it is pruned and reduced as no principal line's is.
        let mut answer = RootAnswer {
            score: best,
            pv: best_pv,
            overturned: false,
            in_full: best_in_full,
        };
        answer.overturned = self.aborted && answer.beats_first(moves, alpha_in);
        answer
    }
}

/// A root search's best score and line; `overturned` when the search stopped part way but had
/// proven the line's move better than the move searched first (`beats_first`): worth playing,
/// though the iteration is not finished. The score of such a line that failed high is a lower
/// bound, reported as a score.
struct RootAnswer {
    score: i32,
    pv: Vec<Move>,
    overturned: bool,
    /// Whether the line's score came from a search with the whole window (not a null window's
    /// failure high alone).
    in_full: bool,
}

impl RootAnswer {
    /// Whether the line's move is not the first of `moves` and beat `alpha` in a search with the
    /// whole window (which comes after the first move's full search).
    fn beats_first(&self, moves: &[Move], alpha: i32) -> bool {
        self.in_full && self.score > alpha && self.pv.first() != moves.first()
    }
}

/// The answer of an iteration to `depth` whose lines are `found`, best first.
fn answer(depth: u32, found: &[(i32, Vec<Move>)]) -> SearchResult {
    let (score, pv) = &found[0];
    SearchResult {
        best: pv.first().copied(),
        ponder: pv.get(1).copied(),
        score: *score,
        depth,
        nodes: 0,
    }
}
