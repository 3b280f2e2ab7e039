//! `animscope man`: the one manual page, whole. clap_mangen writes the title, name,
//! synopsis, description and global options; this module adds a section per verb (its
//! usage and every option), the node addresses and exit codes as roff lists rather than
//! preformatted text (which `man` would refill into broken lines), the TUI's keys from the
//! default keymap, and the environment. No other page is referred to: none is generated.

use std::io::Write;

/// Text for a roff line: backslashes escaped, a leading `.` or `'` (a request) defused.
fn esc(s: &str) -> String {
    let t = s.replace('\\', "\\e");
    if t.starts_with('.') || t.starts_with('\'') { format!("\\&{t}") } else { t }
}

/// An option's name as roff: bold, its minus signs as minus signs (`\-`).
fn flag(s: &str) -> String {
    format!("\\fB{}\\fR", esc(s).replace('-', "\\-"))
}

/// One argument's `.TP` entry: `-s, --long VALUE` or `NAME`, then its help.
fn arg_entry(a: &clap::Arg, out: &mut dyn Write) -> std::io::Result<()> {
    let values = || -> String {
        a.get_value_names().map_or_else(
            || a.get_id().as_str().to_uppercase(),
            |v| v.iter().map(ToString::to_string).collect::<Vec<_>>().join(" "),
        )
    };
    let takes_value = a.get_action().takes_values();
    let mut head = Vec::new();
    if let Some(s) = a.get_short() {
        head.push(flag(&format!("-{s}")));
    }
    if let Some(l) = a.get_long() {
        head.push(flag(&format!("--{l}")));
    }
    let head = if head.is_empty() {
        // a positional argument
        format!("\\fI{}\\fR", esc(&values()))
    } else if takes_value {
        format!("{} \\fI{}\\fR", head.join(", "), esc(&values()))
    } else {
        head.join(", ")
    };
    writeln!(out, ".TP\n{head}")?;
    let help = a.get_long_help().or(a.get_help()).map(ToString::to_string).unwrap_or_default();
    let mut help = help.split_whitespace().collect::<Vec<_>>().join(" ");
    let defaults: Vec<String> = a.get_default_values().iter().map(|v| v.to_string_lossy().into_owned()).collect();
    if takes_value && !defaults.is_empty() && !a.is_hide_default_value_set() {
        help.push_str(&format!(" [default: {}]", defaults.join(", ")));
    }
    let possible: Vec<String> =
        a.get_possible_values().iter().filter(|p| !p.is_hide_set()).map(|p| p.get_name().to_string()).collect();
    if takes_value && !possible.is_empty() && !help.contains(&possible.join(", ")) {
        help.push_str(&format!(" [possible values: {}]", possible.join(", ")));
    }
    writeln!(out, "{}", esc(&help))
}

/// A section per visible verb: what it does, its usage, its own options (the global ones
/// are listed once, under OPTIONS).
fn commands(cmd: &clap::Command, out: &mut dyn Write) -> std::io::Result<()> {
    writeln!(out, ".SH COMMANDS")?;
    for sub in cmd.get_subcommands().filter(|s| !s.is_hide_set() && s.get_name() != "help") {
        let name = sub.get_name();
        writeln!(out, ".SS \"animscope {name}\"")?;
        let about = sub.get_long_about().or(sub.get_about()).map(ToString::to_string).unwrap_or_default();
        for para in about.split("\n\n") {
            writeln!(out, ".PP\n{}", esc(&para.split_whitespace().collect::<Vec<_>>().join(" ")))?;
        }
        let usage = sub.clone().bin_name(format!("animscope {name}")).render_usage().to_string();
        let usage = usage.trim().strip_prefix("Usage:").unwrap_or(&usage).trim().to_string();
        writeln!(out, ".PP\n\\fBUsage:\\fR {}", esc(&usage).replace('-', "\\-"))?;
        for a in sub.get_arguments().filter(|a| !a.is_hide_set() && !a.is_global_set()) {
            if matches!(a.get_id().as_str(), "help" | "version") {
                continue;
            }
            arg_entry(a, out)?;
        }
    }
    Ok(())
}

/// NODE ADDRESSES and EXIT STATUS as roff lists (what `--help` prints after the options).
fn addresses(out: &mut dyn Write) -> std::io::Result<()> {
    writeln!(out, ".SH \"NODE ADDRESSES\"")?;
    writeln!(out, ".PP\nVerbs that take a NODE accept any of:")?;
    for (form, text) in super::ADDRESS_FORMS {
        writeln!(out, ".TP\n\\fI{}\\fR\n{}", esc(form), esc(text))?;
    }
    writeln!(out, ".SH \"EXIT STATUS\"")?;
    for (code, text) in super::EXIT_CODES {
        writeln!(out, ".TP\n\\fB{code}\\fR\n{}", esc(text))?;
    }
    Ok(())
}

/// The TUI's keys, from the default keymap (the same table as the help overlay and the
/// README): one entry per action, its key sequences and what it does.
fn tui_keys(out: &mut dyn Write) -> std::io::Result<()> {
    use crate::tui::keymap::Keymap;
    writeln!(out, ".SH \"TUI KEYS\"")?;
    writeln!(
        out,
        ".PP\n{}",
        esc("animscope [FILE] opens the TUI. The keys of the default keymap follow; `?` in the TUI lists the \
             active ones. --keymap FILE, or keymap.toml under $XDG_CONFIG_HOME/animscope, patches them; \
             the vim and emacs keymaps ship with the program (base = \"vim\").")
    )?;
    let km = match Keymap::shipped("default") {
        Ok(km) => km,
        Err(e) => return writeln!(out, ".PP\n(the default keymap does not load: {})", esc(&e)),
    };
    for (keys, desc) in crate::tui::help::action_rows(&km) {
        let keys: Vec<String> = keys.iter().map(|k| format!("\\fB{}\\fR", esc(k).replace('-', "\\-"))).collect();
        writeln!(out, ".TP\n{}\n{}", keys.join(", "), esc(desc))?;
    }
    Ok(())
}

fn environment(out: &mut dyn Write) -> std::io::Result<()> {
    writeln!(out, ".SH ENVIRONMENT")?;
    for (name, text) in [
        (
            "NO_COLOR",
            "Set (to anything): a colourless theme in the TUI (curves told apart by markers) and in hex dumps.",
        ),
        ("XDG_CONFIG_HOME", "Where animscope/keymap.toml is looked for (default ~/.config)."),
        ("XDG_STATE_HOME", "Where bookmarks are kept (default ~/.local/state)."),
    ] {
        writeln!(out, ".TP\n\\fB{name}\\fR\n{}", esc(text))?;
    }
    Ok(())
}

/// Write the page (roff) to `out`.
pub fn render(out: &mut dyn Write) -> std::io::Result<()> {
    // without the after-help text: it is written below as lists
    let cmd = super::user_command().after_help("");
    let man = clap_mangen::Man::new(cmd.clone());
    let mut page = Vec::new();
    man.render_title(&mut page)?;
    man.render_name_section(&mut page)?;
    man.render_synopsis_section(&mut page)?;
    man.render_description_section(&mut page)?;
    man.render_options_section(&mut page)?;
    commands(&cmd, &mut page)?;
    addresses(&mut page)?;
    tui_keys(&mut page)?;
    environment(&mut page)?;
    man.render_version_section(&mut page)?;
    out.write_all(&page)
}
