//! `kubegen migrate`: the book's table of attribute equivalents is the engine's migration
//! table, and the command moves the corpus of kube-derive crates (`tests/kube_derive/`, ported
//! from kube-rs's examples and kube-derive's tests) to kubegen in place, in this process.

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

use clap::Parser;
use k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition as Crd;
use support::verdict::{manifests_and_docs, package};

use gen_cli::migrate::table;
use kubegen_core::parse::foreign::{Foreign, ROWS, Site, translate};
use kubegen_core::parse::markers::{self, Place};

mod support {
    pub mod verdict;
}

/// The repository's root.
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

#[test]
fn the_book_holds_the_migration_table() {
    let page = std::fs::read_to_string(root().join("docs/book/src/guides/migrate.md")).unwrap();
    let fresh = table::refresh(&page).unwrap_or_else(|e| panic!("{e:?}"));
    assert!(
        fresh == page,
        "docs/book/src/guides/migrate.md's migration table is stale: run `cargo run -p gen-cli -- migrate --write-docs docs/book/src/guides/migrate.md`"
    );
    for row in ROWS {
        assert!(
            page.contains(&format!("`{}`", row.example.0)),
            "{}",
            row.key
        );
    }
}

/// The attribute `src`.
fn attr(src: &str) -> syn::Attribute {
    let item: syn::ItemStruct = syn::parse_str(&format!("{src} struct S;")).unwrap();
    item.attrs.into_iter().next().unwrap()
}

/// Every `#[kube_marker]` the table's examples become is one kubegen's parser takes where the
/// example stands (the spec struct for `#[kube]`, a `String` field otherwise).
#[test]
fn what_the_table_writes_parses_as_kubegens_markers() {
    let ty: syn::Type = syn::parse_quote!(String);
    let mut checked = 0;
    for row in ROWS {
        let attrs = [attr(row.example.0)];
        let site = match row.attribute {
            Foreign::Kube => Site::new(Place::Spec, None, &attrs),
            _ => Site::new(Place::Field, Some(&ty), &attrs),
        };
        let t = translate(&attrs[0], &site);
        for line in t
            .attributes()
            .iter()
            .filter(|l| l.starts_with("#[kube_marker"))
        {
            let (_, errors) =
                markers::parse_all(&[attr(line)], site.place, &quote::quote!(S), &|_| None);
            if let Err(e) = errors.finish() {
                // A lone resource key misses the others, which the example does not give.
                let real: Vec<String> = e
                    .into_iter()
                    .map(|e| e.to_string())
                    .filter(|e| !e.starts_with("missing `"))
                    .collect();
                assert!(real.is_empty(), "{line}: {real:?}");
            }
            checked += 1;
        }
    }
    assert!(checked >= 40, "{checked}");
}

/// A temporary folder, removed when the test ends, pass or fail.
struct TempDir(PathBuf);

impl TempDir {
    fn new(name: &str) -> TempDir {
        let dir =
            std::env::temp_dir().join(format!("kubegen-migrate-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(dir.join("src")).unwrap();
        TempDir(dir)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.0);
    }
}

/// The kube-derive crates of the corpus: `tests/kube_derive/<name>.rs`, each ported from kube-rs
/// (`controller_rs` from kube-rs/controller-rs).
const CORPUS: [&str; 6] = [
    "foo",
    "schema",
    "cel",
    "no_schema",
    "multi",
    "controller_rs",
];

/// A kube-derive crate's `Cargo.toml`, as kube-rs's examples depend.
const MANIFEST: &str = "[package]\nname = \"corpus\"\nversion = \"0.1.0\"\nedition = \"2024\"\n\n[dependencies]\n# The API types.\nkube = { version = \"5.0.0\", default-features = false, features = [\"derive\"] }\nk8s-openapi = { version = \"0.29.0\", default-features = false, features = [\"std\", \"latest\"] }\nschemars = \"1.2.3\"\nserde = { version = \"1.0.228\", features = [\"derive\"] }\nserde_json = \"1.0.145\"\n\n[workspace]\n";

/// The corpus crate `name` in a temporary folder: its manifest and `src/lib.rs`.
fn corpus_crate(name: &str, test: &str) -> TempDir {
    let dir = TempDir::new(&format!("{test}-{name}"));
    fs::write(dir.0.join("Cargo.toml"), MANIFEST).unwrap();
    let source = fs::read_to_string(corpus().join(format!("{name}.rs"))).unwrap();
    fs::write(dir.0.join("src/lib.rs"), source).unwrap();
    dir
}

fn corpus() -> PathBuf {
    root().join("gen-cli/tests/kube_derive")
}

/// `kubegen args...`, in this process; its exit code.
fn kubegen(args: &[&str]) -> std::process::ExitCode {
    let cli =
        gen_cli::cli::Cli::try_parse_from(std::iter::once("kubegen").chain(args.iter().copied()))
            .unwrap_or_else(|e| panic!("{e}"));
    gen_cli::run(cli)
}

/// `kubegen migrate` on the crate in `dir` with `extra` arguments, depending on kubegen by
/// version unless they name a `--kubegen-path`.
fn migrate(dir: &Path, extra: &[&str]) -> std::process::ExitCode {
    let manifest = dir.join("Cargo.toml");
    let mut args = vec!["migrate", "--manifest-path", manifest.to_str().unwrap()];
    if !extra.contains(&"--kubegen-path") {
        args.extend(["--kubegen-version", "0.1.0"]);
    }
    args.extend(extra);
    kubegen(&args)
}

/// The lines a file's syntax gives to attributes, derives and imports (1-based): the only
/// lines `migrate` may change.
fn rewritable_lines(text: &str) -> BTreeSet<usize> {
    struct Lines(BTreeSet<usize>);
    impl<'a> syn::visit::Visit<'a> for Lines {
        fn visit_attribute(&mut self, a: &'a syn::Attribute) {
            let span = syn::spanned::Spanned::span(a);
            self.0.extend(span.start().line..=span.end().line);
        }
        fn visit_item_use(&mut self, u: &'a syn::ItemUse) {
            let span = syn::spanned::Spanned::span(u);
            self.0.extend(span.start().line..=span.end().line);
        }
        fn visit_item_impl(&mut self, i: &'a syn::ItemImpl) {
            // The line above a hand-written impl, for its comment.
            let line = i.impl_token.span.start().line;
            self.0.insert(line - 1);
            syn::visit::visit_item_impl(self, i);
        }
    }
    let mut lines = Lines(BTreeSet::new());
    syn::visit::Visit::visit_file(&mut lines, &syn::parse_file(text).unwrap());
    lines.0
}

/// Every corpus crate migrates in place: outside its attributes, derives and imports, each line
/// of its source stays as it was (and in order), each new line is an attribute, an import or a
/// `// kubegen migrate:` comment, and a second run changes nothing.
#[test]
fn migrate_rewrites_only_attributes_derives_and_imports() {
    for name in CORPUS {
        let dir = corpus_crate(name, "in-place");
        let before = fs::read_to_string(dir.0.join("src/lib.rs")).unwrap();
        assert_eq!(
            migrate(&dir.0, &["--no-build"]),
            std::process::ExitCode::SUCCESS,
            "{name}"
        );
        let after = fs::read_to_string(dir.0.join("src/lib.rs")).unwrap();
        assert_ne!(after, before, "{name}: nothing migrated");
        let rewritable = rewritable_lines(&before);
        let diff = similar::TextDiff::from_lines(&before, &after);
        for change in diff.iter_all_changes() {
            let line = change.value().trim();
            match change.tag() {
                similar::ChangeTag::Delete => {
                    let at = change.old_index().unwrap() + 1;
                    assert!(rewritable.contains(&at), "{name}:{at}: `{line}` changed");
                }
                similar::ChangeTag::Insert => assert!(
                    [
                        "#[kube_marker(",
                        "#[serde(",
                        "#[derive(",
                        "use ",
                        "// kubegen migrate: "
                    ]
                    .iter()
                    .any(|p| line.starts_with(p)),
                    "{name}: `{line}` added"
                ),
                similar::ChangeTag::Equal => {}
            }
        }
        let manifest = fs::read_to_string(dir.0.join("Cargo.toml")).unwrap();
        assert!(manifest.contains("features = []"), "{name}: {manifest}");
        assert!(
            manifest.contains("kubegen = { package = \"kubegen-rs\", version = \"0.1.0\" }"),
            "{manifest}"
        );
        assert!(manifest.contains("# The API types.\n"), "{manifest}");
        // Run again: nothing changes.
        assert_eq!(
            migrate(&dir.0, &["--no-build"]),
            std::process::ExitCode::SUCCESS
        );
        assert_eq!(
            fs::read_to_string(dir.0.join("src/lib.rs")).unwrap(),
            after,
            "{name}"
        );
        assert_eq!(
            fs::read_to_string(dir.0.join("Cargo.toml")).unwrap(),
            manifest
        );
    }
}

/// `--dry-run` and `--diff` print the patch and write nothing (nor build anything).
#[test]
fn a_dry_run_writes_nothing() {
    for flag in ["--dry-run", "--diff"] {
        let dir = corpus_crate("foo", "dry-run");
        let before = fs::read_to_string(dir.0.join("src/lib.rs")).unwrap();
        assert_eq!(migrate(&dir.0, &[flag]), std::process::ExitCode::SUCCESS);
        assert_eq!(
            fs::read_to_string(dir.0.join("src/lib.rs")).unwrap(),
            before
        );
        assert_eq!(
            fs::read_to_string(dir.0.join("Cargo.toml")).unwrap(),
            MANIFEST
        );
    }
}

/// A source that does not parse refuses the migration: no file is written.
#[test]
fn a_crate_that_does_not_parse_is_refused_whole() {
    let dir = corpus_crate("foo", "refused");
    fs::write(dir.0.join("src/broken.rs"), "pub struct {").unwrap();
    let before = fs::read_to_string(dir.0.join("src/lib.rs")).unwrap();
    assert_eq!(
        migrate(&dir.0, &["--no-build"]),
        std::process::ExitCode::FAILURE
    );
    assert_eq!(
        fs::read_to_string(dir.0.join("src/lib.rs")).unwrap(),
        before
    );
}

/// The CRD of the corpus crate `name` once migrated, compared with the one kube-derive gave
/// (`<name>.before.json`): every change `kubegen diff` finds, one per line
/// (`class rule place: message`).
fn crd_changes(name: &str) -> String {
    let dir = corpus_crate(name, "crd");
    assert_eq!(
        migrate(&dir.0, &["--no-build"]),
        std::process::ExitCode::SUCCESS
    );
    let new = generated_crd(&dir.0.join("src/lib.rs"))
        .unwrap_or_else(|e| panic!("{name}: gen-cli refuses the migrated crate: {e}"));
    let before = fs::read_to_string(corpus().join(format!("{name}.before.json"))).unwrap();
    let old: serde_json::Value = serde_json::from_str(&before).unwrap();
    let changes = kubegen_core::diff::compare(&old, &new, &Default::default());
    changes
        .iter()
        .map(|c| {
            let place = c.place();
            format!("{} {} {place}: {}\n", c.class.as_str(), c.rule, c.message)
        })
        .collect()
}

/// Each corpus crate's CRD after `migrate` differs from kube-derive's by exactly the changes
/// its `<name>.changes` lists (reviewed; `KUBEGEN_BLESS=1` rewrites them from the code). The
/// `<name>.before.json` files are kube-derive 5.0.0's `crd()` of the same sources, printed by a
/// scratch crate that includes them (`serde_json::to_string_pretty(&Kind::crd())`, each
/// source's `crd_json`), `controller_rs`'s by `kubegen migrate` itself (the CRD it records in
/// `<target>/kubegen-migrate/before/crds/` when it builds the crate).
#[test]
fn each_crd_differs_from_kube_derives_by_its_documented_changes() {
    let bless = std::env::var_os("KUBEGEN_BLESS").is_some();
    for name in CORPUS {
        let found = crd_changes(name);
        let file = corpus().join(format!("{name}.changes"));
        if bless {
            fs::write(&file, &found).unwrap();
        }
        let documented = fs::read_to_string(&file).unwrap_or_default();
        assert_eq!(
            found,
            documented,
            "{name}: the CRD's changes are not {}",
            file.display()
        );
    }
}

/// `--base DIR` compares the migrated crate's CRD with the one it had (kube-derive's, as the
/// crate committed it) through `kubegen diff`; `--strict` fails on a breaking change. Migrated
/// by a first run without building, the crate is compared by the next ones, which have nothing
/// left to migrate and so build nothing. It depends on this checkout.
#[test]
fn base_compares_the_crds_and_strict_fails_on_a_breaking_change() {
    let dir = corpus_crate("foo", "base");
    let base = dir.0.join("crds");
    fs::create_dir_all(&base).unwrap();
    fs::copy(
        corpus().join("foo.before.json"),
        base.join("fooz.clux.dev.yaml"),
    )
    .unwrap();
    let checkout = root();
    let path = ["--kubegen-path", checkout.to_str().unwrap()];
    let first = [&path[..], &["--no-build"]].concat();
    assert_eq!(migrate(&dir.0, &first), std::process::ExitCode::SUCCESS);
    let args = [&path[..], &["--base", base.to_str().unwrap()]].concat();
    let strict = [&args[..], &["--strict"]].concat();
    assert_eq!(migrate(&dir.0, &strict), std::process::ExitCode::FAILURE);
    // Breaking changes, reported, not fatal.
    assert_eq!(migrate(&dir.0, &args), std::process::ExitCode::SUCCESS);
    let manifest = fs::read_to_string(dir.0.join("Cargo.toml")).unwrap();
    assert!(
        manifest.contains("kubegen = { package = \"kubegen-rs\", path = "),
        "{manifest}"
    );
}

/// The workspace's target folder.
fn workspace_target() -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| root().join("target"))
}

/// The corpus crate `name` set to build in the workspace's target folder, offline with the
/// workspace's lock.
fn buildable_corpus_crate(name: &str, test: &str) -> TempDir {
    let dir = corpus_crate(name, test);
    fs::copy(root().join("Cargo.lock"), dir.0.join("Cargo.lock")).unwrap();
    let target = workspace_target();
    fs::create_dir_all(dir.0.join(".cargo")).unwrap();
    let config = format!(
        "[net]\noffline = true\n\n[build]\ntarget-dir = {:?}\n",
        target.display().to_string()
    );
    fs::write(dir.0.join(".cargo/config.toml"), config).unwrap();
    dir
}

/// The slow tier: without `--base`, `migrate` builds the `foo` crate before rewriting it and
/// records kube-derive's own `crd()` (a scratch crate under the target folder prints it), which
/// is the recorded `foo.before.json`, and `--strict` fails on the breaking changes `kubegen
/// diff` finds against it, the migration written all the same. The migrated crate then builds
/// against this checkout, and its `crdgen` binary, untouched by `migrate`, prints the CRD
/// gen-cli writes for it. Offline, with the workspace's lock and target folder: about three
/// minutes (kube, kube-derive and kubegen built for it).
#[test]
fn slow_migrate_records_kube_derives_crd_and_the_migrated_crdgen_prints_gen_clis() {
    let dir = buildable_corpus_crate("foo", "build");
    fs::create_dir_all(dir.0.join("src/bin")).unwrap();
    let crdgen = "fn main() {\n    print!(\"{}\", corpus::crd_json());\n}\n";
    fs::write(dir.0.join("src/bin/crdgen.rs"), crdgen).unwrap();
    let checkout = root();
    let args = ["--kubegen-path", checkout.to_str().unwrap(), "--strict"];
    assert_eq!(migrate(&dir.0, &args), std::process::ExitCode::FAILURE);
    let target = workspace_target();
    let recorded = target.join("kubegen-migrate/before/crds/fooz.clux.dev.yaml");
    let recorded: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(&recorded).unwrap()).unwrap();
    let committed: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(corpus().join("foo.before.json")).unwrap())
            .unwrap();
    assert_eq!(recorded, committed);
    assert!(
        fs::read_to_string(dir.0.join("src/lib.rs"))
            .unwrap()
            .contains("#[kube_marker(")
    );
    assert_eq!(
        fs::read_to_string(dir.0.join("src/bin/crdgen.rs")).unwrap(),
        crdgen
    );
    let out = std::process::Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
        .args(["run", "-q", "--bin", "crdgen"])
        .current_dir(&dir.0)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "the migrated crate does not build:\n{stderr}"
    );
    // As objects: `crd()` serializes `minimum: 0.0` where the YAML file says `0`.
    let printed: Crd = serde_json::from_slice(&out.stdout).unwrap();
    let written: Crd =
        serde_json::from_value(generated_crd(&dir.0.join("src/lib.rs")).unwrap()).unwrap();
    assert_eq!(printed, written);
}

/// `kubegen migrate --base <an empty folder>` on the crate in `dir`, which is then checked
/// (unless `migrate` left it half-way), not built.
fn migrate_checked(dir: &Path) -> std::process::ExitCode {
    let base = dir.join("crds");
    fs::create_dir_all(&base).unwrap();
    migrate(dir, &["--base", base.to_str().unwrap()])
}

/// A package `migrate` left half-way (its sources migrated, its `Cargo.toml` not, as when the
/// run was interrupted) is recognized by the markers it wrote: a re-run does not build it
/// (which it could not) and finishes the migration, as one run from the start would have.
#[test]
fn a_run_left_half_way_is_finished_without_building() {
    let whole = corpus_crate("foo", "whole");
    assert_eq!(
        migrate(&whole.0, &["--no-build"]),
        std::process::ExitCode::SUCCESS
    );
    let dir = corpus_crate("foo", "half-way");
    let migrated = fs::read_to_string(whole.0.join("src/lib.rs")).unwrap();
    fs::write(dir.0.join("src/lib.rs"), &migrated).unwrap();
    // Without `--no-build`: checking this package would fail, and so refuse it.
    assert_eq!(migrate_checked(&dir.0), std::process::ExitCode::SUCCESS);
    assert_eq!(
        fs::read_to_string(dir.0.join("src/lib.rs")).unwrap(),
        migrated
    );
    assert_eq!(
        fs::read_to_string(dir.0.join("Cargo.toml")).unwrap(),
        fs::read_to_string(whole.0.join("Cargo.toml")).unwrap()
    );
}

/// The slow tier: a package that does not build is refused before anything is written, with
/// the compiler's first error at its place. With `--base` the package is only checked
/// (`cargo check`); this one has no dependencies, and its kube-derive API sits in a module
/// its features leave out. Under a second.
#[test]
fn slow_a_package_that_does_not_build_is_refused_with_the_compilers_first_error() {
    let dir = TempDir::new("broken");
    let manifest = "[package]\nname = \"broken\"\nversion = \"0.1.0\"\nedition = \"2024\"\n\n[features]\napi = []\n\n[dependencies]\n\n[workspace]\n";
    fs::write(dir.0.join("Cargo.toml"), manifest).unwrap();
    let lib = "#[cfg(feature = \"api\")]\nmod api;\n\npub fn size() -> u32 {\n    \"three\"\n}\n\npub fn ready() -> bool {\n    1\n}\n";
    fs::write(dir.0.join("src/lib.rs"), lib).unwrap();
    let api = fs::read_to_string(corpus().join("foo.rs")).unwrap();
    fs::write(dir.0.join("src/api.rs"), &api).unwrap();
    assert_eq!(migrate_checked(&dir.0), std::process::ExitCode::FAILURE);
    assert_eq!(fs::read_to_string(dir.0.join("src/api.rs")).unwrap(), api);
    assert_eq!(
        fs::read_to_string(dir.0.join("Cargo.toml")).unwrap(),
        manifest
    );
    let package = gen_cli::migrate::before::Package::read(&dir.0.join("Cargo.toml")).unwrap();
    let error = package.check().unwrap_err();
    assert!(
        error.message.contains("error[E0308]: mismatched types"),
        "{}",
        error.message
    );
    let loc = error.loc.unwrap();
    assert!(loc.file.ends_with("src/lib.rs"), "{}", loc.file);
    assert_eq!((loc.line, loc.column), (5, 5));
}

/// `#[kube(cel)]` turns on kubegen's `validate` feature in the dependency `migrate` adds.
#[test]
fn cel_turns_on_kubegens_validate_feature() {
    let dir = corpus_crate("foo", "cel-feature");
    let source = "use kube::CustomResource;\n\n#[derive(CustomResource, Clone)]\n#[kube(group = \"a.io\", version = \"v1\", kind = \"Doc\", namespaced, cel)]\npub struct DocSpec {\n    pub n: i32,\n}\n";
    fs::write(dir.0.join("src/lib.rs"), source).unwrap();
    assert_eq!(
        migrate(&dir.0, &["--no-build"]),
        std::process::ExitCode::SUCCESS
    );
    let manifest = fs::read_to_string(dir.0.join("Cargo.toml")).unwrap();
    assert!(
        manifest.contains(
            "kubegen = { package = \"kubegen-rs\", version = \"0.1.0\", features = [\"validate\"] }"
        ),
        "{manifest}"
    );
}

/// A drawn kube-derive API: its resource keys, and its fields, each a type and attribute
/// choices.
#[derive(Clone, Debug)]
struct Drawn {
    keys: [bool; 11],
    fields: Vec<(usize, u8, u32, u32)>,
}

/// The field types drawn.
const TYPES: [&str; 5] = [
    "String",
    "i64",
    "Vec<String>",
    "std::collections::BTreeMap<String, String>",
    "Option<String>",
];

/// The attributes of field `i` of a drawn type, each as kube-derive's crates write it and as
/// kubegen does: `mask` picks them; `a < a + b` are the bounds of a length or range.
fn field_attributes(ty: &str, i: usize, mask: u8, a: u32, b: u32) -> Vec<(String, String)> {
    let (lo, hi) = (a, a + b);
    let bounds = match ty {
        "i64" => ("range", "minimum", "maximum"),
        "Vec<String>" => ("length", "min_items", "max_items"),
        t if t.starts_with("std::collections::BTreeMap") => {
            ("length", "min_properties", "max_properties")
        }
        _ => ("length", "min_length", "max_length"),
    };
    let mut out = Vec::new();
    // The bounds in one of the three crates' forms, or none.
    let (check, min, max) = bounds;
    let ours = format!("#[kube_marker({min} = {lo}, {max} = {hi})]");
    let foreign = match mask & 3 {
        1 => Some(format!("#[schemars({check}(min = {lo}, max = {hi}))]")),
        2 => Some(format!("#[garde({check}(min = {lo}, max = {hi}))]")),
        3 if check == "length" => Some(format!("#[validate(length(min = {lo}, max = {hi}))]")),
        _ => None,
    };
    out.extend(foreign.map(|f| (f, ours)));
    let text = ty == "String" || ty == "Option<String>";
    let more: [(bool, String, String); 5] = [
        (
            true,
            format!("#[schemars(description = \"Field {i}.\")]"),
            format!("#[kube_marker(description = \"Field {i}.\")]"),
        ),
        (
            true,
            format!("#[schemars(title = \"F{i}\")]"),
            format!("#[kube_marker(title = \"F{i}\")]"),
        ),
        (
            text,
            "#[schemars(regex(pattern = r\"^[a-z]+$\"))]".into(),
            "#[kube_marker(pattern = r\"^[a-z]+$\")]".into(),
        ),
        (
            text,
            "#[schemars(email)]".into(),
            "#[kube_marker(format = \"email\")]".into(),
        ),
        (
            true,
            format!("#[schemars(rename = \"renamed{i}\")]"),
            format!("#[serde(rename = \"renamed{i}\")]"),
        ),
    ];
    for (bit, (applies, foreign, ours)) in more.into_iter().enumerate() {
        if applies && mask & (4 << bit) != 0 {
            out.push((foreign, ours));
        }
    }
    out
}

impl Drawn {
    /// The kube-derive source and the kubegen source the same choices mean, written
    /// independently of the migration table.
    fn sources(&self) -> (String, String) {
        let [
            namespaced,
            plural,
            short,
            category,
            status,
            column,
            select,
            note,
            label,
            doc,
            rule,
        ] = self.keys;
        let mut kube = vec![r#"group = "a.io", version = "v1", kind = "Widget""#.to_string()];
        let mut ours = kube.clone();
        let mut both = |k: &str, o: &str| {
            kube.push(k.into());
            if !o.is_empty() {
                ours.push(o.into());
            }
        };
        match namespaced {
            true => both("namespaced", ""),
            false => both("", r#"scope = "Cluster""#),
        }
        let keys = [
            (plural, r#"plural = "widgetz""#, r#"plural = "widgetz""#),
            (
                short,
                r#"shortname = "wd", shortname = "wdg""#,
                r#"short_names = ["wd", "wdg"]"#,
            ),
            (category, r#"category = "all""#, r#"categories = ["all"]"#),
            (
                status,
                r#"status = "WidgetStatus""#,
                r#"status = "WidgetStatus""#,
            ),
            (
                column,
                r#"printcolumn(name = "N", type_ = "integer", json_path = ".spec.n")"#,
                r#"printcolumn(name = "N", type = "integer", json_path = ".spec.n")"#,
            ),
            (
                select,
                r#"selectable = ".spec.s""#,
                r#"selectable_field(json_path = ".spec.s")"#,
            ),
            (
                note,
                r#"annotation("owner", "team-a")"#,
                r#"annotations = ["owner=team-a"]"#,
            ),
            (label, r#"label("tier", "api")"#, r#"labels = ["tier=api"]"#),
            (doc, r#"doc = "A widget.""#, r#"doc = "A widget.""#),
            (
                rule,
                r#"validation = "self.spec.n >= 0""#,
                r#"x_validation(rule = "self.n >= 0")"#,
            ),
        ];
        for (on, k, o) in keys {
            if on {
                both(k, o);
            }
        }
        kube.retain(|k| !k.is_empty());
        let (mut kube_fields, mut our_fields) = (String::new(), String::new());
        for (i, &(ty, mask, a, b)) in self.fields.iter().enumerate() {
            let ty = TYPES[ty];
            for (foreign, kubegen) in field_attributes(ty, i, mask, a, b) {
                kube_fields += &format!("    {foreign}\n");
                our_fields += &format!("    {kubegen}\n");
            }
            kube_fields += &format!("    pub f{i}: {ty},\n");
            our_fields += &format!("    pub f{i}: {ty},\n");
        }
        let status_type = |derive: &str| match status {
            true => format!(
                "\n#[derive(Serialize, Deserialize, Clone, Debug, Default, {derive})]\npub struct WidgetStatus {{\n    pub ready: bool,\n}}\n"
            ),
            false => String::new(),
        };
        let spec = "pub struct WidgetSpec {\n    pub n: i32,\n    pub s: String,\n";
        let kube_source = format!(
            "use kube::CustomResource;\nuse schemars::JsonSchema;\nuse serde::{{Deserialize, Serialize}};\n\n#[derive(CustomResource, Serialize, Deserialize, Clone, Debug, JsonSchema)]\n#[kube({})]\n{spec}{kube_fields}}}\n{}",
            kube.join(", "),
            status_type("JsonSchema"),
        );
        let our_source = format!(
            "use kubegen::{{CustomResource, KubeSchema}};\nuse serde::{{Deserialize, Serialize}};\n\n#[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]\n#[kube_marker({})]\n{spec}{our_fields}}}\n{}",
            ours.join(", "),
            status_type("KubeSchema"),
        );
        (kube_source, our_source)
    }
}

/// The one CRD gen-cli writes for the crate whose root file is `lib`, as JSON.
fn generated_crd(lib: &Path) -> Result<serde_json::Value, String> {
    let generated = manifests_and_docs(&package(lib)).map_err(|e| format!("{e:#?}"))?;
    let crds: Vec<&String> = generated
        .plan
        .files
        .iter()
        .filter(|(path, _)| path.to_string_lossy().contains("/crd/bases/"))
        .map(|(_, text)| text)
        .collect();
    match crds[..] {
        [crd] => serde_saphyr::from_str(crd).map_err(|e| e.to_string()),
        _ => Err(format!("{} CRDs", crds.len())),
    }
}

/// The property: a random kube-derive API (resource keys and field attributes drawn from the
/// migration table's rows, in kube-derive's, schemars', garde's and validator's forms), run
/// through `kubegen migrate` in this process, gives the CRD that the same choices written as
/// kubegen markers by hand give (a reference this test writes from its own list of pairs, not
/// from the table): `kubegen diff`'s engine finds no change between the two, and they are equal.
/// It proves the rewrite keeps every drawn key's meaning in any combination and placement (the
/// table's conversions, kube-derive's default scope, root rules moved to the spec, derives and
/// imports); what kube-derive's own CRD differs by is the corpus's part
/// (`each_crd_differs_from_kube_derives_by_its_documented_changes`), which needs kube-derive
/// built, so no case here compiles anything.
#[test]
fn random_kube_derive_apis_migrate_to_the_crd_their_kubegen_markers_give() {
    use proptest::prelude::*;
    use proptest::test_runner::{Config, TestRunner};
    let dir = TempDir::new("property");
    let drawn = (
        any::<[bool; 11]>(),
        proptest::collection::vec((0..TYPES.len(), any::<u8>(), 0u32..5, 1u32..5), 0..5),
    )
        .prop_map(|(keys, fields)| Drawn { keys, fields });
    let config = Config {
        cases: 24,
        failure_persistence: None,
        ..Config::default()
    };
    TestRunner::new(config)
        .run(&drawn, |drawn| {
            let (kube, ours) = drawn.sources();
            let reference = dir.0.join("reference/src/lib.rs");
            fs::create_dir_all(reference.parent().unwrap()).unwrap();
            fs::write(&reference, &ours).unwrap();
            let expected = generated_crd(&reference)
                .unwrap_or_else(|e| panic!("the reference does not generate: {e}\n{ours}"));
            let krate = dir.0.join("migrated");
            fs::create_dir_all(krate.join("src")).unwrap();
            fs::write(krate.join("Cargo.toml"), MANIFEST).unwrap();
            fs::write(krate.join("src/lib.rs"), &kube).unwrap();
            assert_eq!(
                migrate(&krate, &["--no-build"]),
                std::process::ExitCode::SUCCESS,
                "{kube}"
            );
            let migrated = fs::read_to_string(krate.join("src/lib.rs")).unwrap();
            for left in [
                "#[kube(",
                "#[schemars(",
                "// kubegen migrate:",
                "JsonSchema",
            ] {
                assert!(!migrated.contains(left), "`{left}` left in:\n{migrated}");
            }
            let found = generated_crd(&krate.join("src/lib.rs")).unwrap_or_else(|e| {
                panic!("the migrated crate does not generate: {e}\n{migrated}")
            });
            let changes = kubegen_core::diff::compare(&expected, &found, &Default::default());
            let listed: Vec<String> = changes
                .iter()
                .map(|c| format!("{} {}: {}", c.rule, c.place(), c.message))
                .collect();
            assert!(
                listed.is_empty(),
                "{listed:#?}\nfrom:\n{kube}\nmigrated:\n{migrated}\nreference:\n{ours}"
            );
            assert_eq!(found, expected, "from:\n{kube}\nmigrated:\n{migrated}");
            Ok(())
        })
        .unwrap();
}
