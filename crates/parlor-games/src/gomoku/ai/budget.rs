//! The node and time allowance of one threat-search call (VCF, VCT).

use std::time::Instant;

pub(crate) struct NodeBudget {
    /// The clock is read when `nodes & clock_mask == 0`: reading it at every node would cost more
    /// than the node itself.
    clock_mask: u64,
    deadline: Instant,
    /// Nodes counted since the solver was made (the statistic reported in the analysis).
    nodes: u64,
    /// `nodes` at which the current call stops.
    limit: u64,
    /// The current call ran out of nodes or time.
    exhausted: bool,
}

impl NodeBudget {
    pub(crate) fn new(clock_mask: u64) -> Self {
        NodeBudget {
            clock_mask,
            deadline: Instant::now(),
            nodes: 0,
            limit: 0,
            exhausted: false,
        }
    }

    pub(crate) fn nodes(&self) -> u64 {
        self.nodes
    }

    pub(crate) fn exhausted(&self) -> bool {
        self.exhausted
    }

    /// Opens a call allowed `limit` more nodes until `deadline`; false if the deadline has passed.
    pub(crate) fn start(&mut self, limit: u64, deadline: Instant) -> bool {
        if Instant::now() >= deadline {
            return false;
        }
        self.deadline = deadline;
        self.limit = self.nodes.saturating_add(limit);
        self.exhausted = false;
        true
    }

    /// Counts one node; true once the call has run out of nodes or time (and from then on).
    pub(crate) fn spend(&mut self) -> bool {
        if !self.exhausted {
            self.nodes += 1;
            self.exhausted = self.nodes >= self.limit
                || (self.nodes & self.clock_mask == 0 && Instant::now() >= self.deadline);
        }
        self.exhausted
    }
}
