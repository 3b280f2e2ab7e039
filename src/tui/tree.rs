//! The tree pane: items are built per frame only for opened nodes (closed nodes with
//! children get one placeholder), long child lists are grouped by [`BUCKET`], and archive
//! members appear inline under their node once opened in the background.

use super::app::{App, BUCKET, Load, Pane, Tid};
use crate::model::{Document, NodeId};
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use tui_tree_widget::{Tree, TreeItem};

fn label(app: &App, d: usize, doc: &Document, id: NodeId) -> Line<'static> {
    let Some(n) = doc.node(id) else { return Line::from("?") };
    let mut spans = vec![Span::raw(n.key.clone())];
    let mut extra = String::new();
    if !n.key.starts_with(&n.kind) {
        extra.push_str("  ");
        extra.push_str(&n.kind);
    }
    if !n.summary.is_empty() {
        extra.push_str("  ");
        extra.push_str(&n.summary);
    }
    if n.anim.is_some() {
        extra.push_str("  ♪");
    }
    spans.push(Span::styled(extra, app.theme.dim));
    if n.member.is_some() {
        let s = match app.workspace.members.get(&(d, id)) {
            Some(Load::Pending(t)) => format!("  ⧗ opening… {:.1}s", t.elapsed().as_secs_f32()),
            Some(Load::Failed(_)) => "  ✗ failed".to_string(),
            Some(Load::Ready(_)) => String::new(),
            None => "  · not opened".to_string(),
        };
        spans.push(Span::styled(s, app.theme.warn));
    }
    Line::from(spans)
}

fn node_item(app: &App, d: usize, id: NodeId, prefix: &mut Vec<Tid>) -> TreeItem<'static, Tid> {
    let tid = Tid::N(d as u32, id.0);
    let Some(e) = app.workspace.docs.get(d) else { return TreeItem::new_leaf(tid, "?") };
    let doc = e.doc();
    let text = label(app, d, doc, id);
    let Some(n) = doc.node(id) else { return TreeItem::new_leaf(tid, text) };
    let has_children = !n.children.is_empty() || n.member.is_some();
    if !has_children {
        return TreeItem::new_leaf(tid, text);
    }
    prefix.push(tid);
    let open = app.tree.opened().contains(prefix.as_slice());
    let mut kids = Vec::new();
    if open {
        if n.children.len() > BUCKET {
            for (bi, chunk) in n.children.chunks(BUCKET).enumerate() {
                let start = bi * BUCKET;
                let btid = Tid::B(start as u32);
                let kind = chunk.first().and_then(|c| doc.node(*c)).map_or("items", |c| c.kind.as_str());
                let btext = Line::from(vec![
                    Span::raw(format!("{kind} [{start}..{})", start + chunk.len())),
                    Span::styled(format!("  {} of {}", chunk.len(), n.children.len()), app.theme.dim),
                ]);
                prefix.push(btid);
                let bopen = app.tree.opened().contains(prefix.as_slice());
                let bkids: Vec<_> = if bopen {
                    chunk.iter().map(|c| node_item(app, d, *c, prefix)).collect()
                } else {
                    vec![TreeItem::new_leaf(Tid::Ph, "…")]
                };
                prefix.pop();
                kids.push(TreeItem::new(btid, btext, bkids).unwrap_or_else(|_| TreeItem::new_leaf(btid, "?")));
            }
        } else {
            kids.extend(n.children.iter().map(|c| node_item(app, d, *c, prefix)));
        }
        if n.member.is_some() {
            match app.workspace.members.get(&(d, id)) {
                Some(Load::Ready(md)) => kids.push(node_item(app, *md, NodeId::ROOT, prefix)),
                Some(Load::Pending(t)) => kids.push(TreeItem::new_leaf(
                    Tid::Ph,
                    Line::styled(format!("opening member… {:.1}s", t.elapsed().as_secs_f32()), app.theme.warn),
                )),
                Some(Load::Failed(e)) => {
                    kids.push(TreeItem::new_leaf(Tid::Ph, Line::styled(format!("✗ {e}"), app.theme.error)))
                }
                None => kids.push(TreeItem::new_leaf(Tid::Ph, "…")),
            }
        }
    } else {
        kids.push(TreeItem::new_leaf(Tid::Ph, "…"));
    }
    prefix.pop();
    TreeItem::new(tid, text.clone(), kids).unwrap_or_else(|_| TreeItem::new_leaf(tid, text))
}

/// The items to show: the first document's root, with opened parts expanded.
pub fn items(app: &App) -> Vec<TreeItem<'static, Tid>> {
    vec![node_item(app, 0, NodeId::ROOT, &mut Vec::new())]
}

/// Draw the tree pane.
pub fn render(app: &mut App, f: &mut Frame, area: Rect) {
    let items = items(app);
    let block = super::panes::block(app, Pane::Tree, "Tree".to_string());
    let hl = if app.focus == Pane::Tree { app.theme.selected } else { Style::new().add_modifier(Modifier::REVERSED) };
    let tree = match Tree::new(&items) {
        Ok(t) => t
            .block(block)
            .highlight_style(hl)
            .node_closed_symbol("▸ ")
            .node_open_symbol("▾ ")
            .node_no_children_symbol("  "),
        Err(_) => return,
    };
    f.render_stateful_widget(tree, area, &mut app.tree);
}
