//! What both threat searches (VCF and VCT) share: the solver around a rule, and what it keeps
//! between calls: the node budget, the positions that failed (threats are often played in another
//! order to reach the same position), and one candidate buffer per remaining depth.

use std::marker::PhantomData;
use std::time::Instant;

use super::budget::NodeBudget;
use super::position::Position;

/// Failed positions remembered, in slots chosen by hash.
const CACHE_SIZE: usize = 1 << 14;

/// One threat search: which threats the attacker may make, and how the defender answers.
pub(crate) trait ThreatRule {
    /// The clock is read every `CLOCK_MASK + 1` nodes.
    const CLOCK_MASK: u64;
    /// Tells the attacker's colour apart in the cache: the same stones with the other side to
    /// move is a different question. Each rule has its own, so their entries never meet.
    const ATTACKER_SALT: [u64; 2];

    /// The attacker (the side to move) wins within `depth` threats: pushes the winning line in
    /// reverse onto `line` when it returns true.
    fn attack(
        memory: &mut ThreatMemory,
        pos: &mut Position,
        depth: u8,
        line: &mut Vec<usize>,
    ) -> bool;
}

/// A threat search by rule `R`, with what it keeps between calls.
pub(crate) struct ThreatSolver<R> {
    memory: ThreatMemory,
    rule: PhantomData<R>,
}

impl<R: ThreatRule> ThreatSolver<R> {
    pub(crate) fn new() -> Self {
        ThreatSolver {
            memory: ThreatMemory::new(R::CLOCK_MASK, R::ATTACKER_SALT),
            rule: PhantomData,
        }
    }

    /// Nodes visited over every call so far.
    pub(crate) fn nodes(&self) -> u64 {
        self.memory.budget.nodes()
    }

    /// Whether the side to move wins within `depth` threats, looking at no more than
    /// `node_limit` positions before `deadline`. On success returns the winning line in playing
    /// order (what it holds is the rule's to say); `None` means no win was found within the
    /// limits.
    pub(crate) fn solve(
        &mut self,
        pos: &mut Position,
        depth: u8,
        node_limit: u64,
        deadline: Instant,
    ) -> Option<Vec<usize>> {
        if !self.memory.budget.start(node_limit, deadline) {
            return None;
        }
        let mut line = Vec::new();
        R::attack(&mut self.memory, pos, depth, &mut line).then(|| {
            line.reverse();
            line
        })
    }
}

/// A candidate point: its pattern class, its value and the point.
pub(crate) type Candidate = (u8, i32, usize);

/// What a threat search keeps between calls.
pub(crate) struct ThreatMemory {
    pub(crate) budget: NodeBudget,
    /// (hash of position and attacker, depth that failed) per slot.
    failed: Vec<(u64, u8)>,
    attacker_salt: [u64; 2],
    buffers: Vec<Vec<Candidate>>,
}

impl ThreatMemory {
    fn new(clock_mask: u64, attacker_salt: [u64; 2]) -> Self {
        ThreatMemory {
            budget: NodeBudget::new(clock_mask),
            failed: vec![(0, 0); CACHE_SIZE],
            attacker_salt,
            buffers: (0..=u8::MAX).map(|_| Vec::new()).collect(),
        }
    }

    /// The cache key of `pos` with `attacker` to move.
    pub(crate) fn key(&self, pos: &Position, attacker: usize) -> u64 {
        pos.hash() ^ self.attacker_salt[attacker]
    }

    /// Whether the position `key` already failed with at least `depth` left.
    pub(crate) fn failed_before(&self, key: u64, depth: u8) -> bool {
        let (known, failed_at) = self.failed[slot(key)];
        known == key && failed_at >= depth
    }

    pub(crate) fn remember_failure(&mut self, key: u64, depth: u8) {
        self.failed[slot(key)] = (key, depth);
    }

    /// The empty candidate buffer of `depth`; hand it back with [`ThreatMemory::put_buffer`].
    pub(crate) fn take_buffer(&mut self, depth: u8) -> Vec<Candidate> {
        let mut buffer = std::mem::take(&mut self.buffers[usize::from(depth)]);
        buffer.clear();
        buffer
    }

    pub(crate) fn put_buffer(&mut self, depth: u8, buffer: Vec<Candidate>) {
        self.buffers[usize::from(depth)] = buffer;
    }
}

fn slot(key: u64) -> usize {
    (key as usize) & (CACHE_SIZE - 1)
}
