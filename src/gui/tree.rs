//! The moves of a page's game as a tree: the main line, and the variations a person starts by
//! playing a move from an earlier position. Node 0 is the start position; every other node is a
//! move, written when it is added. A node's first child continues its line; the others are
//! variations. A removed node keeps its number (numbers are never reused within a tree).

use super::{record, view};
use crate::board::Position;
use crate::core::{Color, Move};
use crate::variants::Variant;
use serde_json::{json, Value};

/// One move of the tree (or the start, node 0).
#[derive(Clone, Debug)]
pub struct Node {
    /// The move; `None` for the start.
    pub mv: Option<Move>,
    /// The node it was played from (the start is its own parent).
    pub parent: usize,
    /// The moves played from here; the first continues the line.
    pub children: Vec<usize>,
    /// Its text, from the position it was played in (`record::ply_text`).
    pub text: String,
    /// Its coordinate text (`docs/protocol.md`).
    pub uci: String,
    /// The side that played it (for the start: the side to move).
    pub side: Color,
    /// Plies from the start (the start: 0).
    pub ply: usize,
    /// The players' plies before it counted from the game's first, as PGN numbers them (a third
    /// party's plies are not counted).
    pub number_ply: u32,
    /// The position after it was played, from White's side, once a search has scored it.
    pub eval: Option<Value>,
    /// Still in the tree.
    alive: bool,
}

/// The game's moves from its start position.
#[derive(Clone)]
pub struct Tree {
    start: Position,
    nodes: Vec<Node>,
}

/// The ply number PGN gives the first move from `start`: 0 when White moves first from move 1.
pub fn first_number_ply(start: &Position) -> u32 {
    2 * (start.fullmove() as u32).saturating_sub(1) + u32::from(start.turn() == Color::Black)
}

impl Tree {
    /// Only the start position.
    pub fn new(start: Position) -> Tree {
        let root = Node {
            mv: None,
            parent: 0,
            children: Vec::new(),
            text: String::new(),
            uci: String::new(),
            side: start.turn(),
            ply: 0,
            number_ply: first_number_ply(&start),
            eval: None,
            alive: true,
        };
        Tree {
            start,
            nodes: vec![root],
        }
    }

    /// The start position.
    pub fn start(&self) -> &Position {
        &self.start
    }

    /// Node `id`; it must have been returned by this tree.
    pub fn node(&self, id: usize) -> &Node {
        &self.nodes[id]
    }

    /// Node `id` to change its score.
    pub fn node_mut(&mut self, id: usize) -> &mut Node {
        &mut self.nodes[id]
    }

    /// Whether `id` names a node still in the tree.
    pub fn contains(&self, id: usize) -> bool {
        self.nodes.get(id).is_some_and(|n| n.alive)
    }

    /// The node for `m` played at `parent` (whose position is `pos`): the one already there, or
    /// a new one after the others (the first continues the line, later ones are variations).
    pub fn add(&mut self, v: &dyn Variant, pos: &Position, parent: usize, m: Move) -> usize {
        if let Some(&id) = self.nodes[parent]
            .children
            .iter()
            .find(|&&c| self.nodes[c].mv == Some(m))
        {
            return id;
        }
        let before = &self.nodes[parent];
        let counted = before.mv.is_some() && before.side != Color::Neutral;
        let number_ply = before.number_ply + u32::from(counted);
        let id = self.nodes.len();
        self.nodes.push(Node {
            mv: Some(m),
            parent,
            children: Vec::new(),
            text: record::ply_text(v, pos, m),
            uci: record::coordinate_text(v, m),
            side: pos.turn(),
            ply: before.ply + 1,
            number_ply,
            eval: None,
            alive: true,
        });
        self.nodes[parent].children.push(id);
        id
    }

    /// Takes node `id` and everything played after it out of the tree; returns its parent.
    pub fn remove(&mut self, id: usize) -> usize {
        if id == 0 || !self.contains(id) {
            return 0;
        }
        let parent = self.nodes[id].parent;
        self.nodes[parent].children.retain(|&c| c != id);
        let mut stack = vec![id];
        while let Some(n) = stack.pop() {
            self.nodes[n].alive = false;
            stack.extend(self.nodes[n].children.iter().copied());
        }
        parent
    }

    /// The nodes from the start (left out) to `id`, in order.
    pub fn path(&self, id: usize) -> Vec<usize> {
        let mut out = Vec::new();
        let mut n = id;
        while n != 0 {
            out.push(n);
            n = self.nodes[n].parent;
        }
        out.reverse();
        out
    }

    /// The moves from the start to `id`.
    pub fn moves(&self, id: usize) -> Vec<Move> {
        self.path(id)
            .into_iter()
            .filter_map(|n| self.nodes[n].mv)
            .collect()
    }

    /// The start and the main line after it: each node's first child, to the end.
    pub fn main_line(&self) -> Vec<usize> {
        let mut out = vec![0];
        let mut n = 0;
        while let Some(&c) = self.nodes[n].children.first() {
            out.push(c);
            n = c;
        }
        out
    }

    /// The tree for the page: every node (`null` for one taken out) with its children.
    pub fn json(&self) -> Value {
        let nodes: Vec<Value> = self
            .nodes
            .iter()
            .map(|n| {
                if !n.alive {
                    return Value::Null;
                }
                json!({
                    "parent": n.parent,
                    "children": n.children,
                    "text": n.text,
                    "uci": n.uci,
                    "side": view::side_code(n.side).to_string(),
                    "ply": n.ply,
                    "number_ply": n.number_ply,
                    "eval": n.eval,
                })
            })
            .collect();
        Value::from(nodes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variants;

    #[test]
    fn a_move_from_an_earlier_position_starts_a_variation() {
        let v = variants::by_name("chess").unwrap();
        let start = v.start_position();
        let mut tree = Tree::new(start.clone());
        let mv = |pos: &Position, text: &str| {
            crate::notation::parse_move(v, pos, crate::notation::Dialect::Uci, text).unwrap()
        };
        let e4 = mv(&start, "e2e4");
        let a = tree.add(v, &start, 0, e4);
        assert_eq!(
            tree.add(v, &start, 0, e4),
            a,
            "the same move is the same node"
        );
        let after = v.play(&start, e4);
        let e5 = tree.add(v, &after, a, mv(&after, "e7e5"));
        let c5 = tree.add(v, &after, a, mv(&after, "c7c5"));
        assert_eq!(tree.node(a).children, vec![e5, c5]);
        assert_eq!(tree.main_line(), vec![0, a, e5]);
        assert_eq!(tree.path(c5), vec![a, c5]);
        assert_eq!(tree.node(c5).number_ply, 1);
        assert_eq!(tree.remove(e5), a);
        assert_eq!(tree.main_line(), vec![0, a, c5]);
        assert!(!tree.contains(e5));
        assert_eq!(tree.remove(a), 0);
        assert!(!tree.contains(c5));
        assert_eq!(tree.main_line(), vec![0]);
    }
}
