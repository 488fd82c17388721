//! The modules of each crate form layers. The crate root (`lib.rs`) lists its modules' layers,
//! lowest first, in a comment above their declarations:
//!
//! ```text
//! // Layers, lowest first: ...
//! // 1. names, render: what they are
//! // 2. model: ...
//! ```
//!
//! and a module may use only modules of the layers before its own. Within every folder module,
//! the modules it holds refer to each other without a cycle (`schema::build` may use
//! `schema::merge`, then `merge` may not use `build`). References are read from the tokens of
//! each file (`crate::a::b`, `super::x`, `self::y`, and `use` groups under them); doc comments
//! and inline `mod x { .. }` blocks (tests) are not read.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

use proc_macro2::{Delimiter, TokenStream, TokenTree};

/// Module paths from a crate root (`["schema", "build"]`) to the modules each refers to.
type Refs = BTreeMap<Vec<String>, BTreeSet<Vec<String>>>;

/// The source folders of the crates whose modules are checked.
const CRATES: [&str; 5] = [
    "core/src",
    "gen-cli/src",
    "derive/src",
    "src",
    "operator/src",
];

/// Every crate's module references, with the list of layers its root declares.
fn crates() -> Vec<(&'static str, Refs, Vec<Vec<String>>)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    CRATES
        .into_iter()
        .map(|krate| {
            let dir = root.join(krate);
            let modules = modules(&dir);
            assert!(modules.len() > 3, "{krate}: no modules found");
            let mut refs = Refs::new();
            for (path, file) in &modules {
                let text = fs::read_to_string(file).unwrap();
                let tokens: TokenStream = text.parse().unwrap();
                let mut found = BTreeSet::new();
                scan(tokens, path, &mut found);
                refs.insert(path.clone(), found);
            }
            let layers = declared_layers(&fs::read_to_string(&modules[&Vec::new()]).unwrap());
            (krate, refs, layers)
        })
        .collect()
}

#[test]
fn every_module_uses_only_the_layers_declared_before_its_own() {
    let mut problems = Vec::new();
    for (krate, refs, layers) in crates() {
        assert!(
            !layers.is_empty(),
            "{krate}: the crate root declares no layers"
        );
        for problem in layer_problems(&refs, &layers) {
            problems.push(format!("{krate}: {problem}"));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn no_module_cycles_in_any_folder() {
    let mut cycles = Vec::new();
    for (krate, refs, _) in crates() {
        let known: BTreeSet<&Vec<String>> = refs.keys().collect();
        for cycle in find_cycles(&refs, &known) {
            cycles.push(format!("{krate}: {}", cycle.join(" -> ")));
        }
    }
    assert!(cycles.is_empty(), "module cycles:\n{}", cycles.join("\n"));
}

#[test]
fn a_use_of_a_later_layer_is_found() {
    let root = "//! A crate.\n\
                // Layers, lowest first: each uses only those before it.\n\
                // 1. names, render: shared rules\n\
                // 2. model: the model\n\
                // 3. schema\n\
                mod model;";
    let layers = declared_layers(root);
    assert_eq!(
        layers,
        [vec!["names", "render"], vec!["model"], vec!["schema"]]
    );
    let refs = refs_of(&[
        ("names", ""),
        ("render", "use crate::names::x;"),
        ("model", "use crate::names::x; use super::schema::build::f;"),
        ("schema", "use crate::model::T;"),
        ("schema::build", "use super::merge::g;"),
        ("extra", ""),
    ]);
    assert_eq!(
        layer_problems(&refs, &layers),
        [
            "`extra` is in no layer",
            "`render` (layer 1) uses `names` (layer 1)",
            "`model` (layer 2) uses `schema` (layer 3)",
        ]
    );
}

/// The layers a crate root lists, lowest first: the lines `// N. a, b: text` after a line
/// `// Layers`, each the module names before its colon.
fn declared_layers(root: &str) -> Vec<Vec<String>> {
    let mut layers = Vec::new();
    let mut lines = root.lines().map(str::trim);
    if lines.any(|line| line.starts_with("// Layers")) {
        for line in lines.map_while(|line| line.strip_prefix("//")) {
            let Some((number, rest)) = line.trim().split_once(". ") else {
                continue; // the text after the heading line
            };
            if number.parse::<usize>() != Ok(layers.len() + 1) {
                continue;
            }
            let names = rest.split_once(':').map_or(rest, |(names, _)| names);
            layers.push(names.split(',').map(|n| n.trim().to_string()).collect());
        }
    }
    layers
}

/// Every top-level module missing from `layers` or named there without existing, and every
/// use of a module of the same or a later layer.
fn layer_problems(refs: &Refs, layers: &[Vec<String>]) -> Vec<String> {
    let layer_of: BTreeMap<&str, usize> = layers
        .iter()
        .enumerate()
        .flat_map(|(i, names)| names.iter().map(move |n| (n.as_str(), i + 1)))
        .collect();
    let top: BTreeSet<&str> = refs
        .keys()
        .filter_map(|m| m.first())
        .map(String::as_str)
        .collect();
    let mut problems = Vec::new();
    for module in &top {
        if !layer_of.contains_key(module) {
            problems.push(format!("`{module}` is in no layer"));
        }
    }
    for name in layer_of.keys() {
        if !top.contains(name) {
            problems.push(format!("layer module `{name}` does not exist"));
        }
    }
    let mut uses = BTreeSet::new();
    for (from, tos) in refs {
        let Some(from) = from
            .first()
            .and_then(|m| layer_of.get_key_value(m.as_str()))
        else {
            continue;
        };
        for to in tos.iter().filter_map(|to| to.first()) {
            if let Some(to) = layer_of.get_key_value(to.as_str())
                && to.0 != from.0
                && to.1 >= from.1
            {
                uses.insert((*from.1, *from.0, *to.1, *to.0));
            }
        }
    }
    for (from_layer, from, to_layer, to) in uses {
        problems.push(format!(
            "`{from}` (layer {from_layer}) uses `{to}` (layer {to_layer})"
        ));
    }
    problems
}

#[test]
fn a_cycle_is_found() {
    let refs = refs_of(&[
        ("a::x", "use super::y::Thing;"),
        ("a::y", "fn f() { crate::a::z::g(); }"),
        ("a::z", "use crate::a::{x::T, w};"),
        (
            "a::w",
            "use crate::b::Q; mod tests { use super::super::x::T; }",
        ),
        ("b", ""),
        ("a", ""),
    ]);
    let known: BTreeSet<&Vec<String>> = refs.keys().collect();
    assert_eq!(
        find_cycles(&refs, &known),
        [vec!["a::x", "a::y", "a::z", "a::x"]]
    );
}

/// The references of modules given by path (`a::x`) and code.
fn refs_of(modules: &[(&str, &str)]) -> Refs {
    let mut refs = Refs::new();
    for (from, code) in modules {
        let module: Vec<String> = from.split("::").map(String::from).collect();
        let mut found = BTreeSet::new();
        scan(code.parse().unwrap(), &module, &mut found);
        refs.insert(module, found);
    }
    refs
}

/// Every module file under a crate's `src` folder, by module path.
fn modules(src: &Path) -> BTreeMap<Vec<String>, PathBuf> {
    let mut out = BTreeMap::new();
    let mut stack = vec![(src.to_path_buf(), Vec::<String>::new())];
    while let Some((dir, path)) = stack.pop() {
        for entry in fs::read_dir(&dir).unwrap() {
            let file = entry.unwrap().path();
            let name = file.file_stem().unwrap().to_string_lossy().into_owned();
            if file.is_dir() {
                let mut child = path.clone();
                child.push(name);
                stack.push((file, child));
            } else if file.extension().is_some_and(|e| e == "rs") {
                if path.is_empty() && name == "main" && src.join("lib.rs").exists() {
                    continue; // a binary beside the library is its own crate
                }
                let root = path.is_empty() && matches!(name.as_str(), "lib" | "main");
                let mut module = path.clone();
                if name != "mod" && !root {
                    module.push(name);
                }
                out.insert(module, file);
            }
        }
    }
    out
}

/// Adds to `found` the absolute module paths (possibly ending in an item's name) that the
/// tokens of module `at` name.
fn scan(tokens: TokenStream, at: &[String], found: &mut BTreeSet<Vec<String>>) {
    let tokens: Vec<TokenTree> = tokens.into_iter().collect();
    let mut i = 0;
    while i < tokens.len() {
        match &tokens[i] {
            // `mod name { .. }`: an inline module (tests); not read.
            TokenTree::Ident(ident)
                if *ident == "mod"
                    && matches!(tokens.get(i + 2), Some(TokenTree::Group(g)) if g.delimiter() == Delimiter::Brace) =>
            {
                i += 3;
                continue;
            }
            TokenTree::Ident(ident)
                if matches!(ident.to_string().as_str(), "crate" | "super" | "self")
                    && !preceded_by_dollar(&tokens, i) =>
            {
                i = path(&tokens, i, at, Vec::new(), found);
                continue;
            }
            TokenTree::Group(group) => scan(group.stream(), at, found),
            _ => {}
        }
        i += 1;
    }
}

/// Whether the token before `i` is `$` (`$crate`).
fn preceded_by_dollar(tokens: &[TokenTree], i: usize) -> bool {
    i > 0 && matches!(&tokens[i - 1], TokenTree::Punct(p) if p.as_char() == '$')
}

/// Reads a path starting at `tokens[i]` (relative to `prefix`, resolved from module `at`), adds
/// it (and every path of a `{..}` group it ends in) to `found`, and returns the index after it.
fn path(
    tokens: &[TokenTree],
    mut i: usize,
    at: &[String],
    prefix: Vec<String>,
    found: &mut BTreeSet<Vec<String>>,
) -> usize {
    let mut absolute: Option<Vec<String>> = None;
    loop {
        match tokens.get(i) {
            Some(TokenTree::Ident(ident)) => {
                let segment = ident.to_string();
                let current = absolute.get_or_insert_with(|| prefix.clone());
                match segment.as_str() {
                    "crate" if current.is_empty() && prefix.is_empty() => {}
                    "self" if current.is_empty() && prefix.is_empty() => *current = at.to_vec(),
                    "super" => {
                        if current.is_empty() && prefix.is_empty() {
                            *current = at.to_vec();
                        }
                        current.pop();
                    }
                    _ => current.push(segment),
                }
                i += 1;
            }
            Some(TokenTree::Group(group)) if group.delimiter() == Delimiter::Brace => {
                let base = absolute.take().unwrap_or(prefix);
                let inner: Vec<TokenTree> = group.stream().into_iter().collect();
                let mut j = 0;
                while j < inner.len() {
                    j = path(&inner, j, at, base.clone(), found);
                    while j < inner.len()
                        && !matches!(&inner[j], TokenTree::Punct(p) if p.as_char() == ',')
                    {
                        j += 1;
                    }
                    j += 1;
                }
                return i + 1;
            }
            _ => break,
        }
        // `::` continues the path.
        let colons = matches!(
            (tokens.get(i), tokens.get(i + 1)),
            (Some(TokenTree::Punct(a)), Some(TokenTree::Punct(b)))
                if a.as_char() == ':' && b.as_char() == ':'
        );
        if !colons {
            break;
        }
        i += 2;
    }
    if let Some(path) = absolute {
        found.insert(path);
    }
    i
}

/// The cycles among sibling modules, each once, from its smallest module.
fn find_cycles(refs: &Refs, known: &BTreeSet<&Vec<String>>) -> Vec<Vec<String>> {
    // Sibling edges: within the deepest folder module both paths share, from the child that
    // holds the referring module to the child that holds the referred-to one.
    let mut edges: BTreeMap<Vec<String>, BTreeSet<Vec<String>>> = BTreeMap::new();
    for (from, tos) in refs {
        for to in tos {
            let common = from.iter().zip(to).take_while(|(a, b)| a == b).count();
            if common >= from.len() || common >= to.len() {
                continue; // a module's own items, its children's, or its ancestors' items
            }
            let source = from[..=common].to_vec();
            let target = to[..=common].to_vec();
            if known.contains(&target) || known.iter().any(|k| k.starts_with(&target)) {
                edges.entry(source).or_default().insert(target);
            }
        }
    }
    let mut cycles = BTreeSet::new();
    for start in edges.keys() {
        let mut stack = vec![(start.clone(), vec![start.clone()])];
        while let Some((node, trail)) = stack.pop() {
            for next in edges.get(&node).into_iter().flatten() {
                if next == start {
                    let mut cycle = trail.clone();
                    // Rotate so the smallest module comes first: one entry per cycle.
                    let smallest = (0..cycle.len()).min_by_key(|&k| &cycle[k]).unwrap_or(0);
                    cycle.rotate_left(smallest);
                    cycle.push(cycle[0].clone());
                    cycles.insert(cycle.iter().map(|m| m.join("::")).collect::<Vec<_>>());
                } else if !trail.contains(next) && next > start {
                    let mut longer = trail.clone();
                    longer.push(next.clone());
                    stack.push((next.clone(), longer));
                }
            }
        }
    }
    cycles.into_iter().collect()
}

/// Where an OpenAPI schema is built outside the engine: each `Schema::…` call, `Schema { .. }`
/// literal and `.type_` in `tokens`, as `(line, text)`.
fn schema_building(tokens: TokenStream, found: &mut Vec<(usize, String)>) {
    let tokens: Vec<TokenTree> = tokens.into_iter().collect();
    for (i, tree) in tokens.iter().enumerate() {
        let next = |n: usize| tokens.get(i + n);
        match tree {
            TokenTree::Ident(ident) if *ident == "Schema" => {
                let call = matches!(next(1), Some(TokenTree::Punct(p)) if p.as_char() == ':');
                let literal = matches!(next(1), Some(TokenTree::Group(g)) if g.delimiter() == Delimiter::Brace);
                if call || literal {
                    found.push((ident.span().start().line, ident.to_string()));
                }
            }
            TokenTree::Ident(ident) if *ident == "type_" => {
                if matches!(i.checked_sub(1).map(|j| &tokens[j]), Some(TokenTree::Punct(p)) if p.as_char() == '.')
                {
                    found.push((ident.span().start().line, ".type_".to_string()));
                }
            }
            TokenTree::Group(group) => schema_building(group.stream(), found),
            _ => {}
        }
    }
}

/// The derive and the CLI build no schema of their own: every schema decision is the engine's
/// (`core/`), which they call. `gen-cli/src/import/` is the exception by its purpose: it reads
/// schemas (a CRD's, or those Go markers describe) to write markers from them.
#[test]
fn the_derive_and_the_cli_build_no_schema() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut problems = Vec::new();
    for krate in ["derive/src", "gen-cli/src"] {
        for file in modules(&root.join(krate)).into_values() {
            if file.starts_with(root.join("gen-cli/src/import")) {
                continue;
            }
            let tokens: TokenStream = fs::read_to_string(&file).unwrap().parse().unwrap();
            let mut found = Vec::new();
            schema_building(tokens, &mut found);
            for (line, text) in found {
                problems.push(format!("{}:{line}: {text}", file.display()));
            }
        }
    }
    assert!(
        problems.is_empty(),
        "schemas built outside the engine:\n{}",
        problems.join("\n")
    );
}

#[test]
fn a_schema_built_by_hand_is_found() {
    let tokens: TokenStream = "fn f() { let s = Schema::typed(\"object\"); s.type_ = None; \
                                let t = TypeSchema { a }; let u = Schema { ..x }; }"
        .parse()
        .unwrap();
    let mut found = Vec::new();
    schema_building(tokens, &mut found);
    let texts: Vec<&str> = found.iter().map(|(_, t)| t.as_str()).collect();
    assert_eq!(texts, ["Schema", ".type_", "Schema"]);
}
