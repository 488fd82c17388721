//! The command-line reference of the book (`docs/book/src/reference/cli.md`), generated from
//! clap's model of a command line: each command's usage, description and arguments, and its
//! subcommands after it. The page holds it between a [`begin`] line and the marker pages' end
//! line (the rest is written by hand); `gen-cli/tests/book.rs` fails when it is stale and
//! `KUBEGEN_BLESS=1 cargo test -p gen-cli --test book` rewrites it.

use clap::{Arg, Command};

use crate::markers::page::row;

/// The line that starts the generated reference of the command line `name`.
pub fn begin(name: &str) -> String {
    format!(
        "<!-- \"{name}\": generated from clap by KUBEGEN_BLESS=1 cargo test -p gen-cli --test book -->"
    )
}

/// `command` and every subcommand under it, as Markdown sections (`##` for the first level,
/// `###` below), each with its usage, its description and a table of its arguments.
pub fn markdown(command: &Command) -> String {
    let mut command = command.clone();
    command.build();
    let mut out = String::new();
    section(&command, 2, &mut out);
    out
}

/// The section of `command`, then its subcommands'.
fn section(command: &Command, level: usize, out: &mut String) {
    let name = command
        .get_bin_name()
        .unwrap_or(command.get_name())
        .to_string();
    out.push_str(&format!("{} `{name}`\n\n", "#".repeat(level.min(4))));
    if let Some(about) = command.get_long_about().or(command.get_about()) {
        out.push_str(&format!("{}\n\n", prose(&about.to_string())));
    }
    let usage = command.clone().render_usage().to_string();
    out.push_str(&format!("```text\n{}\n```\n\n", usage.trim_end()));
    out.push_str(&arguments(command, level == 2));
    if let Some(after) = command.get_after_help() {
        out.push_str(&format!(
            "```text\n{}\n```\n\n",
            after.to_string().trim_end()
        ));
    }
    for sub in command.get_subcommands().filter(|s| !s.is_hide_set()) {
        if sub.get_name() != "help" {
            section(sub, level + 1, out);
        }
    }
}

/// The table of `command`'s arguments (the hidden ones left out, global ones only at the
/// `root`), or nothing when it has none.
pub fn arguments(command: &Command, root: bool) -> String {
    let args: Vec<&Arg> = command
        .get_arguments()
        .filter(|a| !a.is_hide_set() && (root || !a.is_global_set()))
        .filter(|a| !matches!(a.get_id().as_str(), "help" | "version"))
        .collect();
    if args.is_empty() {
        return String::new();
    }
    let mut out = row(["argument", "default", "what"].map(String::from));
    out.push_str(&row(["---", "---", "---"].map(String::from)));
    for arg in args {
        out.push_str(&row([form(arg), default(arg), help(arg)]));
    }
    out + "\n"
}

/// How the argument is written: `-p, --package <NAME>`, or `<FILE>` for a positional one.
fn form(arg: &Arg) -> String {
    let value = arg
        .get_value_names()
        .and_then(|names| names.first())
        .map(|name| name.to_string())
        .unwrap_or_else(|| arg.get_id().as_str().to_string());
    let takes_value = arg.get_action().takes_values();
    if arg.is_positional() {
        let repeat = if arg.get_num_args().is_some_and(|n| n.max_values() > 1) {
            "..."
        } else {
            ""
        };
        return format!("`<{value}>{repeat}`");
    }
    let mut names = Vec::new();
    if let Some(short) = arg.get_short() {
        names.push(format!("-{short}"));
    }
    if let Some(long) = arg.get_long() {
        names.push(format!("--{long}"));
    }
    let mut out = names.join(", ");
    if takes_value {
        out += &format!(" <{value}>");
    }
    format!("`{out}`")
}

/// The argument's default, its environment variable and its possible values.
fn default(arg: &Arg) -> String {
    let mut parts = Vec::new();
    let defaults: Vec<String> = arg
        .get_default_values()
        .iter()
        .map(|v| v.to_string_lossy().into_owned())
        .collect();
    if !defaults.is_empty() && arg.get_action().takes_values() {
        parts.push(format!("`{}`", defaults.join(",")));
    }
    if let Some(env) = arg.get_env() {
        parts.push(format!("env `{}`", env.to_string_lossy()));
    }
    let values: Vec<String> = arg
        .get_possible_values()
        .iter()
        .filter(|v| !v.is_hide_set())
        .map(|v| format!("`{}`", v.get_name()))
        .collect();
    if !values.is_empty()
        && !matches!(values[..], [ref t, ref f] if t == "`true`" && f == "`false`")
    {
        parts.push(format!("one of {}", values.join(", ")));
    }
    parts.join("; ")
}

/// The argument's help, on one line.
fn help(arg: &Arg) -> String {
    arg.get_long_help()
        .or(arg.get_help())
        .map(|h| prose(&h.to_string()))
        .unwrap_or_default()
}

/// Help text as Markdown on one line: lines joined, ended as a sentence (clap drops the period
/// of a one-line help), `<` and `>` outside code spans escaped (else they would read as HTML
/// tags).
fn prose(text: &str) -> String {
    let mut joined = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if !joined.is_empty() && !joined.ends_with(['.', ':', '!', '?']) {
        joined.push('.');
    }
    let mut out = String::new();
    for (i, piece) in joined.split('`').enumerate() {
        if i > 0 {
            out.push('`');
        }
        if i % 2 == 0 {
            out.push_str(&piece.replace('<', "&lt;").replace('>', "&gt;"));
        } else {
            out.push_str(piece);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_command_gets_its_usage_arguments_and_subcommands() {
        let command = Command::new("tool")
            .about("Does <things>.")
            .arg(
                Arg::new("out")
                    .long("out")
                    .short('o')
                    .value_name("DIR")
                    .default_value("config"),
            )
            .arg(Arg::new("secret").long("secret").hide(true))
            .subcommand(
                Command::new("run")
                    .about("Runs `<it>`.")
                    .arg(Arg::new("file")),
            );
        let page = markdown(&command);
        assert!(
            page.starts_with("## `tool`\n\nDoes &lt;things&gt;.\n\n```text\nUsage: tool"),
            "{page}"
        );
        assert_eq!(prose("Only these\n members"), "Only these members.");
        assert!(page.contains("| `-o, --out <DIR>` | `config` |"), "{page}");
        assert!(!page.contains("secret"), "{page}");
        assert!(page.contains("### `tool run`\n\nRuns `<it>`."), "{page}");
        assert!(page.contains("| `<file>` |"), "{page}");
        assert_eq!(arguments(&Command::new("none"), true), "");
    }
}
