//! The book (`docs/book/`) holds together: every page is in SUMMARY.md and every page it lists
//! exists; every relative link and `#anchor` resolves (from the book's pages, README.md,
//! CONTRIBUTING.md and bench/README.md), as mdBook slugs headings; every Rust block is an
//! `{{#include}}` of a file the workspace builds, with its anchor; the generated reference
//! pages (the command line, the runtime's flags) are fresh. `KUBEGEN_BLESS=1 cargo test -p
//! gen-cli --test book` rewrites the generated pages.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Component, Path, PathBuf};

use clap::{Args, Command, CommandFactory};
use gen_cli::markers::page::replace_section;
use gen_cli::reference::{arguments, begin, markdown};

/// The repository's root.
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

/// The book's pages folder.
fn src() -> PathBuf {
    root().join("docs/book/src")
}

/// Every Markdown file under `dir`, as paths relative to it.
fn pages(dir: &Path) -> BTreeSet<PathBuf> {
    let mut out = BTreeSet::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(folder) = stack.pop() {
        for entry in fs::read_dir(&folder).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "md") {
                out.insert(path.strip_prefix(dir).unwrap().to_path_buf());
            }
        }
    }
    out
}

/// `path` with its `.` and `..` steps resolved, without touching the file system.
fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for part in path.components() {
        match part {
            Component::ParentDir => {
                out.pop();
            }
            Component::CurDir => {}
            other => out.push(other),
        }
    }
    out
}

/// The lines of `text` outside fenced code blocks, with their numbers (from 1).
fn prose_lines(text: &str) -> Vec<(usize, &str)> {
    let mut fenced = false;
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
        } else if !fenced {
            out.push((i + 1, line));
        }
    }
    out
}

/// `line` without its code spans.
fn without_code(line: &str) -> String {
    line.split('`').step_by(2).collect::<Vec<_>>().join(" ")
}

/// The targets of the Markdown links and images of `text`, with their line numbers.
fn links(text: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    for (n, line) in prose_lines(text) {
        let line = without_code(line);
        let mut rest = line.as_str();
        while let Some(at) = rest.find("](") {
            let after = &rest[at + 2..];
            let Some(end) = after.find(')') else { break };
            out.push((n, after[..end].to_string()));
            rest = &after[end..];
        }
    }
    out
}

/// The anchor mdBook gives a heading: its text without Markdown, lower case, spaces as `-`,
/// other punctuation than `-` and `_` left out.
fn slug(heading: &str) -> String {
    let mut text = String::new();
    let mut rest = heading;
    // A link's text stays, its target goes.
    while let Some(open) = rest.find('[') {
        text.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        match (after.find("]("), after.find(')')) {
            (Some(close), Some(end)) if close < end => {
                text.push_str(&after[..close]);
                rest = &after[end + 1..];
            }
            _ => {
                text.push('[');
                rest = after;
            }
        }
    }
    text.push_str(rest);
    text.chars()
        .filter_map(|c| match c {
            c if c.is_alphanumeric() || c == '_' || c == '-' => Some(c.to_lowercase().next()?),
            c if c.is_whitespace() => Some('-'),
            _ => None,
        })
        .collect()
}

/// The anchors of the headings of `text`, numbered as mdBook numbers repeated ones.
fn anchors(text: &str) -> BTreeSet<String> {
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    let mut out = BTreeSet::new();
    for (_, line) in prose_lines(text) {
        let hashes = line.chars().take_while(|&c| c == '#').count();
        if (1..=6).contains(&hashes) && line[hashes..].starts_with(' ') {
            let base = slug(line[hashes..].trim());
            let count = seen.entry(base.clone()).or_default();
            out.insert(match *count {
                0 => base,
                n => format!("{base}-{n}"),
            });
            *count += 1;
        }
    }
    out
}

/// An `{{#include path[:anchor]}}` directive of `line`: the path (relative to the page) and
/// the anchor or line range after it.
fn include(line: &str) -> Option<(String, Option<String>)> {
    let inner = line
        .trim()
        .strip_prefix("{{#include ")?
        .strip_suffix("}}")?;
    Some(match inner.split_once(':') {
        Some((path, anchor)) => (path.to_string(), Some(anchor.to_string())),
        None => (inner.to_string(), None),
    })
}

/// `page`'s text with the Markdown files it includes spliced in (mdBook's `{{#include}}`).
fn expanded(page: &Path) -> String {
    let text = fs::read_to_string(page).unwrap();
    let mut out = String::new();
    for line in text.lines() {
        match include(line) {
            Some((path, None)) if path.ends_with(".md") => {
                let file = page.parent().unwrap().join(&path);
                out.push_str(&fs::read_to_string(&file).unwrap_or_else(|e| {
                    panic!("{}: {{{{#include {path}}}}}: {e}", page.display())
                }));
            }
            _ => out.push_str(line),
        }
        out.push('\n');
    }
    out
}

/// Every file whose links are checked: the book's pages and the repository's guides to it.
fn linked_files() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = pages(&src()).into_iter().map(|p| src().join(p)).collect();
    for file in ["README.md", "CONTRIBUTING.md", "bench/README.md"] {
        files.push(root().join(file));
    }
    files
}

#[test]
fn every_relative_link_and_anchor_resolves() {
    let mut broken = Vec::new();
    let mut checked = 0;
    for file in linked_files() {
        let text = expanded(&file);
        for (line, target) in links(&text) {
            if target.contains("://") || target.starts_with("mailto:") {
                continue;
            }
            let (path, anchor) = match target.split_once('#') {
                Some((path, anchor)) => (path, Some(anchor)),
                None => (target.as_str(), None),
            };
            let at = format!("{}:{line}: `{target}`", file.display());
            let linked = match path {
                "" => file.clone(),
                path => normalize(&file.parent().unwrap().join(path)),
            };
            checked += 1;
            if file.starts_with(src()) && !linked.starts_with(src()) {
                broken.push(format!("{at}: leaves the book (link to GitHub instead)"));
                continue;
            }
            if !linked.exists() {
                broken.push(format!("{at}: no such file"));
                continue;
            }
            if let Some(anchor) = anchor
                && linked.extension().is_some_and(|e| e == "md")
                && !anchors(&expanded(&linked)).contains(anchor)
            {
                broken.push(format!("{at}: no heading with this anchor"));
            }
        }
    }
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
    assert!(checked > 100, "only {checked} links found");
}

#[test]
fn every_rust_block_is_an_include_of_a_file_with_its_anchor() {
    let mut wrong = Vec::new();
    let mut includes = 0;
    for page in pages(&src()) {
        let file = src().join(&page);
        let text = fs::read_to_string(&file).unwrap();
        let mut block: Option<(usize, Vec<&str>)> = None;
        for (i, line) in text.lines().enumerate() {
            let fence = line.trim_start().strip_prefix("```");
            match (&mut block, fence) {
                (None, Some(info)) if info.starts_with("rust") => block = Some((i + 1, vec![])),
                (None, Some(_)) => block = Some((0, vec![])),
                (Some(_), Some(_)) => {
                    if let Some((start, lines)) = block.take().filter(|(start, _)| *start > 0) {
                        let at = format!("{}:{start}", page.display());
                        let body: Vec<&str> =
                            lines.into_iter().filter(|l| !l.trim().is_empty()).collect();
                        if body.is_empty() {
                            wrong.push(format!("{at}: an empty Rust block"));
                        }
                        for l in body {
                            match include(l) {
                                Some((path, anchor)) => {
                                    includes += 1;
                                    check_include(&file, &path, anchor.as_deref(), &at, &mut wrong)
                                }
                                None => wrong.push(format!("{at}: inline Rust `{}`", l.trim())),
                            }
                        }
                    }
                }
                (Some((_, lines)), None) => lines.push(line),
                (None, None) => {}
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    assert!(includes > 10, "only {includes} includes");
}

/// Checks that `path` (relative to `page`) is a file of the repository and that it has the
/// anchor `anchor` (`// ANCHOR: name` and `// ANCHOR_END: name` lines).
fn check_include(page: &Path, path: &str, anchor: Option<&str>, at: &str, wrong: &mut Vec<String>) {
    let file = normalize(&page.parent().unwrap().join(path));
    let Ok(text) = fs::read_to_string(&file) else {
        wrong.push(format!("{at}: includes `{path}`, which does not exist"));
        return;
    };
    if !file.starts_with(root()) || file.extension().is_none_or(|e| e != "rs") {
        wrong.push(format!(
            "{at}: includes `{path}`, not a Rust file of the repository"
        ));
    }
    if let Some(anchor) = anchor.filter(|a| !a.chars().next().is_some_and(|c| c.is_ascii_digit())) {
        for mark in ["ANCHOR", "ANCHOR_END"] {
            let line = format!("// {mark}: {anchor}");
            if !text.lines().any(|l| l.trim() == line) {
                wrong.push(format!("{at}: `{path}` has no line `{line}`"));
            }
        }
    }
}

/// The Markdown pages included whole (`docs/markers.md`) are rustdoc's too: their Rust blocks
/// are the doc tests of `kubegen::markers`, which `cargo test -p kubegen-rs --doc` runs.
#[test]
fn an_included_page_with_rust_blocks_is_a_doc_tested_module() {
    let lib = fs::read_to_string(root().join("src/lib.rs")).unwrap();
    let mut found = 0;
    for page in pages(&src()) {
        let file = src().join(&page);
        for line in fs::read_to_string(&file).unwrap().lines() {
            if let Some((path, None)) = include(line).filter(|(p, _)| p.ends_with(".md")) {
                let included = normalize(&file.parent().unwrap().join(&path));
                let name = included.strip_prefix(root()).unwrap().display().to_string();
                let text = fs::read_to_string(&included).unwrap();
                if text.contains("```rust") {
                    found += 1;
                    assert!(
                        lib.contains(&format!("include_str!(\"../{name}\")")),
                        "{}: includes {name}, whose Rust blocks no doc test runs",
                        page.display()
                    );
                }
            }
        }
    }
    assert_eq!(found, 1, "the marker reference is included once");
}

/// The pages SUMMARY.md lists.
fn summary() -> Vec<PathBuf> {
    let text = fs::read_to_string(src().join("SUMMARY.md")).unwrap();
    links(&text)
        .into_iter()
        .map(|(_, target)| PathBuf::from(target))
        .collect()
}

#[test]
fn summary_lists_every_page_and_every_page_it_lists_exists() {
    let listed = summary();
    let set: BTreeSet<PathBuf> = listed.iter().cloned().collect();
    assert_eq!(
        set.len(),
        listed.len(),
        "a page is listed twice: {listed:?}"
    );
    let mut on_disk = pages(&src());
    on_disk.remove(Path::new("SUMMARY.md"));
    let unlisted: Vec<_> = on_disk.difference(&set).collect();
    assert!(
        unlisted.is_empty(),
        "pages SUMMARY.md does not list: {unlisted:?}"
    );
    let missing: Vec<_> = set.iter().filter(|p| !on_disk.contains(*p)).collect();
    assert!(
        missing.is_empty(),
        "pages SUMMARY.md lists that do not exist: {missing:?}"
    );
}

/// Checks that the text of `page` between `begin(name)` and the end line is `content`, or
/// rewrites it with `KUBEGEN_BLESS=1`.
fn fresh(page: &str, name: &str, content: &str) {
    let path = src().join(page);
    let text = fs::read_to_string(&path).unwrap();
    let updated = replace_section(&text, &begin(name), content)
        .unwrap_or_else(|e| panic!("{page}: the section \"{name}\" {e}"));
    if std::env::var_os("KUBEGEN_BLESS").is_some() {
        fs::write(&path, &updated).unwrap();
    } else {
        assert!(
            updated == text,
            "{page} is stale: run `KUBEGEN_BLESS=1 cargo test -p gen-cli --test book`"
        );
    }
}

#[test]
fn the_command_line_reference_is_clap_s() {
    let page = markdown(&gen_cli::cli::Cli::command());
    for command in [
        "manifests",
        "diff",
        "import crd",
        "create api",
        "validate",
        "migrate",
    ] {
        assert!(page.contains(&format!("`kubegen {command}`")), "{command}");
    }
    fresh("reference/cli.md", "kubegen", &page);
}

#[test]
fn the_runtime_flags_are_the_runtime_s() {
    let options = kubegen::runtime::Options::augment_args(Command::new("operator"));
    let table = arguments(&options, true);
    assert!(table.contains("`--leader-elect`"), "{table}");
    assert!(table.contains("`--webhook-port <WEBHOOK_PORT>`"), "{table}");
    fresh("reference/runtime.md", "kubegen::runtime::Options", &table);
}

/// The README is read in five minutes: what kubegen is, install, the two commands, a quick
/// start, the crates and the way into the book; the rest is the book's and CONTRIBUTING.md's.
#[test]
fn the_readme_is_short_and_leads_into_the_book() {
    let readme = fs::read_to_string(root().join("README.md")).unwrap();
    let lines = readme.lines().count();
    assert!(lines <= 200, "README.md has {lines} lines");
    for command in [
        "cargo run -p gen-cli -- manifests",
        "cargo test --workspace --all-features -- --skip slow_",
        "cargo test --workspace --all-features --tests -- slow_",
        "kubegen init",
        "kubegen create api",
        "kubegen manifests",
    ] {
        assert!(readme.contains(command), "README.md lacks `{command}`");
    }
    assert!(
        readme.contains("](docs/book/src/SUMMARY.md)"),
        "no link to the book"
    );
}
