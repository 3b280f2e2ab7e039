//! A document's walk trace: the walker's decisions in order. Most steps are kept as
//! written; a step that only says "this node is here, the next one follows" can be kept
//! as the node's id alone and put into words when shown ([`Walk::push_node`]): an archive
//! of 315,000 members then holds 16 bytes per step instead of two strings.

use super::{NodeId, Span, WalkStep};

/// One entry: a step as written, or one made from its node when shown.
#[derive(Debug, Clone, PartialEq)]
enum Slot {
    Written(Box<WalkStep>),
    OfNode(NodeId),
}

/// The walk trace of a document (see the module docs). Read it through
/// [`super::Document::walk_step`] and [`super::Document::walk_steps`], which put node
/// steps into words.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Walk {
    slots: Vec<Slot>,
}

impl From<Vec<WalkStep>> for Walk {
    fn from(steps: Vec<WalkStep>) -> Self {
        Walk { slots: steps.into_iter().map(|s| Slot::Written(Box::new(s))).collect() }
    }
}

impl Walk {
    /// Append a step as written.
    pub fn push(&mut self, step: WalkStep) {
        self.slots.push(Slot::Written(Box::new(step)));
    }

    /// Append a step made from node `id` when shown: the format's
    /// [`super::Expand::walk_step`] says it in words; it covers the node's span and goes
    /// on to the node's end (unless that is the end of the data).
    pub fn push_node(&mut self, id: NodeId) {
        self.slots.push(Slot::OfNode(id));
    }

    /// Room for `n` more steps.
    pub fn reserve(&mut self, n: usize) {
        self.slots.reserve(n);
    }

    /// Number of steps.
    pub fn len(&self) -> usize {
        self.slots.len()
    }

    /// True without steps.
    pub fn is_empty(&self) -> bool {
        self.slots.is_empty()
    }

    /// Keep the first `len` steps.
    pub fn truncate(&mut self, len: usize) {
        self.slots.truncate(len);
    }

    /// Keep only the steps whose node (None: a step without one) `keep` accepts.
    pub fn retain_by_node(&mut self, mut keep: impl FnMut(Option<NodeId>) -> bool) {
        self.slots.retain(|s| {
            keep(match s {
                Slot::Written(s) => s.node,
                Slot::OfNode(id) => Some(*id),
            })
        });
    }

    /// Drop the last step.
    pub fn pop(&mut self) {
        self.slots.pop();
    }

    /// The node of the last step, if it has one.
    pub fn last_node(&self) -> Option<NodeId> {
        match self.slots.last()? {
            Slot::Written(s) => s.node,
            Slot::OfNode(id) => Some(*id),
        }
    }

    /// Step `i` as written, or the node it is made from.
    pub(super) fn entry(&self, i: usize) -> Option<Result<&WalkStep, NodeId>> {
        Some(match self.slots.get(i)? {
            Slot::Written(s) => Ok(s),
            Slot::OfNode(id) => Err(*id),
        })
    }
}

/// The step of a node kept as [`Walk::push_node`] when the format cannot say more: the
/// node's kind and key.
pub(super) fn plain_node_step(id: NodeId, kind: &str, key: &str, span: Span, len: u64) -> WalkStep {
    WalkStep {
        span,
        what: format!("{kind} {key}"),
        detail: String::new(),
        next: (span.end < len).then_some(span.end),
        node: Some(id),
    }
}
