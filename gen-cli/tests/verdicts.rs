//! The derive and `gen-cli` give the same verdict on the same source: every trybuild case (which
//! the derive refuses at compile time) is refused by `gen-cli`, and every crate the derive
//! accepts and whose `crd()` succeeds (the fixtures, the operator, the derive's regression
//! tests) is accepted by `gen-cli`.

use std::path::{Path, PathBuf};

use kubegen_core::model::Diagnostic;
use support::verdict::{manifests_and_docs, package};

mod support {
    pub mod verdict;
}

/// The repository's root.
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// `gen-cli`'s verdict on the crate whose root file is `file`: `Ok` or its error messages.
fn verdict(file: &Path) -> Result<(), Vec<String>> {
    errors(file).map_err(|errors| errors.iter().map(ToString::to_string).collect())
}

/// `gen-cli`'s errors on the crate whose root file is `file`.
fn errors(file: &Path) -> Result<(), Vec<Diagnostic>> {
    manifests_and_docs(&package(file)).map(drop)
}

/// The `.rs` files directly in `dir`, sorted.
fn sources(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "rs"))
        .collect();
    files.sort();
    files
}

/// The folders of trybuild cases the derive refuses for their markers.
const REFUSED: [&str; 3] = ["tests/ui", "tests/ui-cel", "tests/one-error"];

#[test]
fn every_input_the_derive_refuses_gen_cli_refuses() {
    let cases: Vec<PathBuf> = REFUSED
        .iter()
        .flat_map(|d| sources(&root().join(d)))
        .collect();
    assert!(cases.len() >= 20, "trybuild cases found: {cases:?}");
    let accepted: Vec<String> = cases
        .iter()
        .filter(|case| verdict(case).is_ok())
        .map(|case| case.display().to_string())
        .collect();
    assert!(
        accepted.is_empty(),
        "the derive refuses these (see their .stderr), gen-cli accepts them: {accepted:#?}"
    );
}

#[test]
fn every_input_the_derive_accepts_gen_cli_accepts() {
    let mut crates: Vec<PathBuf> = [
        "fixtures/cronjob",
        "fixtures/multiversion",
        "fixtures/gen",
        "fixtures/plural",
        "fixtures/rbac",
        "fixtures/reexport/user",
        "operator",
    ]
    .iter()
    .map(|c| root().join(c).join("src/lib.rs"))
    .collect();
    for case in std::fs::read_dir(root().join("fixtures/webhook/cases")).expect("webhook cases") {
        crates.push(case.expect("a case").path().join("src/lib.rs"));
    }
    crates.push(root().join("operator/src/main.rs"));
    crates.push(root().join("tests/one_engine.rs"));
    crates.push(root().join("tests/derive_memcached.rs"));
    let refused: Vec<String> = crates
        .iter()
        .filter_map(|c| {
            verdict(c)
                .err()
                .map(|errors| format!("{}:\n  {}", c.display(), errors.join("\n  ")))
        })
        .collect();
    assert!(
        refused.is_empty(),
        "the derive accepts these, gen-cli refuses them:\n{}",
        refused.join("\n")
    );
}

/// One `error:` of a trybuild `.stderr`: its message (the first line, then the lines rustc
/// indents under it, such as `= help:`, without the indentation), where it points and how many
/// characters its carets cover (when they are on one line).
#[derive(Debug, PartialEq)]
struct Shown {
    message: String,
    line: usize,
    column: usize,
    carets: Option<usize>,
}

/// The errors rustc printed for the derive, as the `.stderr` beside `case` records them: those
/// whose first line starts with `headline` (`error: ` for the derive's own, `error[E0080]:
/// evaluation panicked: ` for its `const` checks), without it.
fn derive_errors(case: &Path, headline: &str) -> Vec<Shown> {
    let Ok(text) = std::fs::read_to_string(case.with_extension("stderr")) else {
        return Vec::new();
    };
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let Some(message) = line.strip_prefix(headline) else {
            continue;
        };
        let Some((at, arrow)) = lines[i + 1..]
            .iter()
            .enumerate()
            .find_map(|(j, l)| l.trim_start().strip_prefix("--> ").map(|a| (i + 1 + j, a)))
        else {
            continue;
        };
        let message = std::iter::once(message)
            .chain(lines[i + 1..at].iter().map(|l| l.trim_start()))
            .collect::<Vec<_>>()
            .join("\n");
        let mut parts = arrow.rsplitn(3, ':');
        let column: usize = parts.next().and_then(|c| c.parse().ok()).unwrap_or(0);
        let line_no: usize = parts.next().and_then(|l| l.parse().ok()).unwrap_or(0);
        // The caret line: after the gutter's `|`, only spaces before the carets.
        let carets = lines[at + 1..]
            .iter()
            .take(4)
            .filter_map(|l| l.split_once('|').map(|(_, marks)| marks.trim_start()))
            .find(|marks| marks.starts_with('^'))
            .map(|marks| marks.chars().take_while(|c| *c == '^').count());
        out.push(Shown {
            message,
            line: line_no,
            column,
            carets,
        });
    }
    out
}

/// The first line of `message`.
fn first(message: &str) -> &str {
    message.lines().next().unwrap_or_default()
}

/// Where the derive and gen-cli report the same problem (the same place in the same trybuild
/// input), they say the same and underline the same characters. Inside a string literal
/// gen-cli underlines the part at fault (`lsit` of `"get;lsit"`), which a proc macro on stable
/// Rust cannot (it has the literal's span only): there the derive's carets cover the literal
/// and gen-cli's lie within them.
#[test]
fn the_derive_and_gen_cli_word_and_place_each_problem_alike() {
    let cases: Vec<PathBuf> = REFUSED
        .iter()
        .flat_map(|d| sources(&root().join(d)))
        .collect();
    let (mut compared, mut within_literals) = (0, 0);
    let mut differences = Vec::new();
    for case in &cases {
        let shown = derive_errors(case, "error: ");
        let Err(found) = errors(case) else {
            continue;
        };
        let source = std::fs::read_to_string(case).unwrap_or_default();
        for d in found {
            let Some(loc) = &d.loc else { continue };
            let first_line = d
                .one_message()
                .lines()
                .next()
                .unwrap_or_default()
                .to_string();
            let cli = Shown {
                message: first_line,
                line: loc.line,
                column: loc.column,
                carets: (loc.end_line == loc.line).then(|| loc.end_column - loc.column),
            };
            // The derive's errors at the same place: the one that says the same, else the first.
            let here: Vec<&Shown> = shown
                .iter()
                .filter(|s| s.line == loc.line && s.column == loc.column)
                .collect();
            let same = here
                .iter()
                .find(|s| first(&s.message) == cli.message)
                .or(here.first());
            if let Some(derive) = same {
                compared += 1;
                let same_carets = derive.carets.is_none() || cli.carets == derive.carets;
                if cli.message != first(&derive.message) || !same_carets {
                    differences.push(format!(
                        "{}:\n  derive:  {derive:?}\n  gen-cli: {cli:?}",
                        case.display()
                    ));
                }
            } else if shown.iter().any(|s| {
                first(&s.message) == cli.message && encloses_in_a_literal(s, &cli, &source)
            }) {
                compared += 1;
                within_literals += 1;
            }
        }
    }
    assert!(compared >= 30, "only {compared} problems reported by both");
    assert!(
        within_literals >= 3,
        "gen-cli underlines the part of a literal at fault in only {within_literals} cases"
    );
    assert!(
        differences.is_empty(),
        "{} of {compared} differ:\n{}",
        differences.len(),
        differences.join("\n")
    );
}

/// Whether `derive` underlines a string literal of `source` that holds, strictly inside its
/// quotes, what `cli` underlines.
fn encloses_in_a_literal(derive: &Shown, cli: &Shown, source: &str) -> bool {
    let (Some(outer), Some(inner)) = (derive.carets, cli.carets) else {
        return false;
    };
    let line: Vec<char> = source
        .lines()
        .nth(derive.line - 1)
        .unwrap_or_default()
        .chars()
        .collect();
    let literal = line.get(derive.column - 1..derive.column - 1 + outer);
    derive.line == cli.line
        && literal.is_some_and(|l| l.first() == Some(&'"') && l.last() == Some(&'"'))
        && cli.column > derive.column
        && cli.column + inner < derive.column + outer
}

/// A path into types the derive cannot see (the spec's flattened and field types, the status
/// type) is checked by the derive in a `const`, every step through the types' `INFO`, and by
/// gen-cli on the whole schema: each typo of `tests/ui/flattened_path_typos.rs` is worded,
/// helped ("did you mean") and underlined alike.
#[test]
fn typos_in_paths_through_a_flattened_field_are_refused_alike() {
    let case = root().join("tests/ui/flattened_path_typos.rs");
    let derive = derive_errors(&case, "error[E0080]: evaluation panicked: ");
    let Err(found) = errors(&case) else {
        panic!("gen-cli accepts {}", case.display());
    };
    // `manifests` and `docs` each report them: every problem once, in order.
    let mut cli: Vec<Shown> = Vec::new();
    let each = found.iter().map(|d| {
        let loc = d.loc.as_ref().expect("a location");
        Shown {
            message: d.one_message(),
            line: loc.line,
            column: loc.column,
            carets: (loc.end_line == loc.line).then(|| loc.end_column - loc.column),
        }
    });
    for shown in each {
        if !cli.contains(&shown) {
            cli.push(shown);
        }
    }
    assert_eq!(derive.len(), 8, "{derive:#?}");
    let helped = derive
        .iter()
        .filter(|s| {
            s.message
                .contains("\n= help: a field with a similar name exists: `")
        })
        .count();
    assert_eq!(helped, 4, "{derive:#?}");
    assert_eq!(cli, derive);
}

/// `x_validation(field_path = ...)` problems are located at the value, as the derive places them
/// (`tests/ui/bad_field_path.rs`): the engine's error carries the value's line and column.
#[test]
fn each_bad_field_path_is_reported_at_its_value() {
    let file = root().join("tests/ui/bad_field_path.rs");
    let source = std::fs::read_to_string(&file).unwrap();
    let Err(errors) = errors(&file) else {
        panic!("gen-cli accepts {}", file.display());
    };
    // Every `field_path = "..."` of the file but the two valid ones, where its value starts.
    let key = "field_path = \"";
    let mut expected = Vec::new();
    for (i, line) in source.lines().enumerate() {
        if let Some(at) = line.find(key) {
            let value = &line[at + key.len()..];
            let path = &value[..value.find('"').unwrap()];
            if ![".anything", "['name']"].contains(&path) {
                expected.push((format!("field_path `{path}`"), i + 1, at + key.len()));
            }
        }
    }
    assert_eq!(expected.len(), 5, "{expected:?}");
    for (context, line, column) in &expected {
        let found = errors
            .iter()
            .find(|e| e.message.starts_with(&format!("{context}:")));
        let Some(e) = found else {
            panic!("no error about {context}: {errors:#?}");
        };
        let loc = e.loc.as_ref().expect("a location");
        assert_eq!((loc.line, loc.column), (*line, *column), "{context}: {e}");
        assert!(loc.file.ends_with("bad_field_path.rs"), "{e}");
        assert!(e.message.contains("must be a valid path"), "{e}");
    }
    assert_eq!(
        errors.len(),
        expected.len(),
        "only the bad paths are refused: {errors:#?}"
    );
}

/// The derive's warnings (rustc's `deprecated` lint, denied in `tests/ui-cel-warn/` so that the
/// `.stderr` shows them) are gen-cli's, word for word, at the same place.
#[test]
fn the_derive_and_gen_cli_warn_alike() {
    let cases = sources(&root().join("tests/ui-cel-warn"));
    assert!(!cases.is_empty());
    for case in cases {
        let mut derive: Vec<Shown> = derive_errors(&case, "error: ")
            .into_iter()
            .map(|mut shown| {
                // `use of deprecated constant `…`: <the warning>`
                let note = shown
                    .message
                    .split_once("`: ")
                    .map(|(_, note)| note.to_string());
                shown.message = note.unwrap_or(shown.message);
                shown
            })
            .collect();
        let generated = manifests_and_docs(&package(&case))
            .unwrap_or_else(|e| panic!("{}: gen-cli refuses it: {e:?}", case.display()));
        let mut cli: Vec<Shown> = generated
            .warnings
            .iter()
            .filter_map(|w| {
                let loc = w.loc.as_ref()?;
                Some(Shown {
                    message: w.one_message(),
                    line: loc.line,
                    column: loc.column,
                    carets: (loc.end_line == loc.line).then(|| loc.end_column - loc.column),
                })
            })
            .collect();
        derive.sort_by_key(|s| (s.line, s.column));
        cli.sort_by_key(|s| (s.line, s.column));
        assert!(
            !cli.is_empty(),
            "{}: gen-cli warns of nothing",
            case.display()
        );
        assert_eq!(derive, cli, "{}", case.display());
    }
}

/// Fourteen rules each under the limit for one rule, over the limit for a whole schema
/// together (`tests/ui-cel/cel_total_budget.rs`, the schema of the CEL corpus's
/// `cost-total-across-fields`): one error, with the server's factor, at the costliest rule, and
/// a label at each other rule the apiserver names.
#[test]
fn the_schema_wide_budget_is_refused_at_the_rules_that_contribute() {
    let file = root().join("tests/ui-cel/cel_total_budget.rs");
    let source = std::fs::read_to_string(&file).unwrap();
    let Err(errors) = errors(&file) else {
        panic!("gen-cli accepts {}", file.display());
    };
    assert_eq!(errors.len(), 1, "{errors:#?}");
    let e = &errors[0];
    assert!(
        e.message.starts_with(
            "Spec: this type's rules' (alone, so in every CRD that uses it) estimated cost total \
             112014000 exceeds the apiserver's limit of 100000000 for a whole schema by factor \
             of 1.120140x"
        ),
        "{e}"
    );
    // The first four rules of `a` (equal costs: the first measured first, as the server
    // lists them), each where its rule string starts.
    let rules: Vec<(usize, usize)> = source
        .lines()
        .enumerate()
        .filter_map(|(i, line)| line.find("rule = \"").map(|at| (i + 1, at + 8)))
        .take(4)
        .collect();
    let loc = e.loc.as_ref().expect("a location");
    assert_eq!((loc.line, loc.column), rules[0], "{e}");
    assert_eq!(e.label.as_deref(), Some("contributes 8001000"));
    let labels: Vec<(usize, usize, &str)> = e
        .labels
        .iter()
        .map(|l| (l.loc.line, l.loc.column, l.message.as_str()))
        .collect();
    let want: Vec<(usize, usize, &str)> = rules[1..]
        .iter()
        .map(|(line, column)| (*line, *column, "contributes 8001000"))
        .collect();
    assert_eq!(labels, want, "{e}");
}

/// A kube-derive or schemars attribute left on a type deriving kubegen's traits is one error at
/// the attribute, naming what kubegen writes instead (the derive gives the same, word for word, at the
/// same place: `tests/ui/kube_derive_leftovers.stderr`, compared above).
#[test]
fn gen_cli_refuses_each_leftover_attribute_once_where_it_stands() {
    let case = root().join("tests/ui/kube_derive_leftovers.rs");
    let source = std::fs::read_to_string(&case).unwrap();
    let Err(errors) = errors(&case) else {
        panic!("gen-cli accepts {}", case.display());
    };
    let found: Vec<(usize, usize, String)> = errors
        .iter()
        .map(|e| {
            let loc = e.loc.as_ref().expect("a location");
            (loc.line, loc.column, e.message.clone())
        })
        .collect();
    let at = |attribute: &str| {
        let (i, line) = source
            .lines()
            .enumerate()
            .find(|(_, l)| l.trim_start().starts_with(attribute))
            .unwrap();
        // Where the attribute's name starts, after `#[`.
        (i + 1, line.find('#').unwrap() + 3)
    };
    let expected = [
        (
            at("#[kube("),
            "`#[kube(...)]` is an attribute of kube-derive, which kubegen's derives do not read: write \
             `#[kube_marker(group = \"example.com\", version = \"v1\", kind = \"Foo\", short_names = [\"fo\"])]` \
             (`kubegen migrate` rewrites a package's kube-derive attributes)",
        ),
        (
            at("#[schemars(length"),
            "`#[schemars(...)]` is an attribute of schemars, which kubegen's derives do not read: write \
             `#[kube_marker(min_length = 1, max_length = 63)]` (`kubegen migrate` rewrites a \
             package's schemars attributes)",
        ),
        (
            at("#[x_kube("),
            "`#[x_kube(...)]` is an attribute of kube-derive, which kubegen's derives do not read: write \
             `#[kube_marker(list_type = \"set\")]` (`kubegen migrate` rewrites a package's \
             kube-derive attributes)",
        ),
    ];
    for ((line, column), message) in expected {
        assert!(
            found.contains(&(line, column, message.to_string())),
            "{line}:{column} {message}\nfound: {found:#?}"
        );
    }
    let schema_with = at("#[schemars(schema_with");
    assert!(found.iter().any(|(l, c, m)| (*l, *c) == schema_with
        && m.contains("`schema_with = \"any_object\"` has no equivalent: write the function's schema as markers")));
    // One error per attribute, nothing about missing keys.
    assert_eq!(found.len(), 4, "{found:#?}");
}
