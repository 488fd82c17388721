//! The generators of kubegen-core's `types.rs` (the type list) and `deep_merge.rs` (the
//! topology k8s-openapi's `DeepMerge` impls encode), from the k8s-openapi sources the workspace
//! builds against, and the tests that fail when a committed copy is stale (`KUBEGEN_BLESS=1`
//! rewrites it).

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::Path;

use crate::k8s_openapi::sources as k8s_openapi_sources;

/// The committed type list.
const TYPES_RS: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../core/src/known/k8s/types.rs"
);

/// The committed topology.
const DEEP_MERGE_RS: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../core/src/known/k8s/deep_merge.rs"
);

/// One type of one Kubernetes version, as its source file tells.
pub(crate) struct TypeSource {
    /// Its path from the crate root (`api::core::v1::Pod`).
    pub path: String,
    /// The text of its source file.
    pub text: String,
}

/// The Kubernetes minor versions of the sources (`v1_33`, ... folders), and for each, every
/// public non-generic type with a `schemars::JsonSchema` impl.
pub(crate) fn sources(src: &Path) -> BTreeMap<u32, Vec<TypeSource>> {
    let mut versions = BTreeMap::new();
    for entry in std::fs::read_dir(src).expect("k8s-openapi's src folder") {
        let entry = entry.expect("folder entry");
        let name = entry.file_name().to_string_lossy().into_owned();
        let Some(minor) = name.strip_prefix("v1_").and_then(|m| m.parse::<u32>().ok()) else {
            continue;
        };
        let mut types = Vec::new();
        scan_module(&entry.path(), &mut Vec::new(), &mut types);
        types.sort_by(|a, b| a.path.cmp(&b.path));
        versions.insert(minor, types);
    }
    assert!(!versions.is_empty(), "no v1_* folders in {}", src.display());
    versions
}

/// Every type by path, with the Kubernetes minor versions that have it; and all the versions.
pub(crate) fn scan(src: &Path) -> (BTreeSet<u32>, BTreeMap<String, BTreeSet<u32>>) {
    let sources = sources(src);
    let mut types = BTreeMap::new();
    for (minor, found) in &sources {
        for source in found {
            types
                .entry(source.path.clone())
                .or_insert_with(BTreeSet::new)
                .insert(*minor);
        }
    }
    (sources.keys().copied().collect(), types)
}

/// Scans one module folder: the types its `mod.rs` re-exports (`pub use self::file::Type;`)
/// from files that implement `JsonSchema` for them, and its `pub mod` subfolders.
fn scan_module(dir: &Path, module: &mut Vec<String>, found: &mut Vec<TypeSource>) {
    let mod_rs = std::fs::read_to_string(dir.join("mod.rs"))
        .unwrap_or_else(|e| panic!("{}: {e}", dir.join("mod.rs").display()));
    let declares = |line: &str| mod_rs.lines().any(|l| l.trim() == line);
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .expect("module folder")
        .map(|e| e.expect("folder entry").path())
        .collect();
    entries.sort();
    for path in entries {
        let stem = path
            .file_stem()
            .unwrap_or_default()
            .to_string_lossy()
            .into_owned();
        if path.is_dir() {
            if declares(&format!("pub mod {stem};")) {
                module.push(stem);
                scan_module(&path, module, found);
                module.pop();
            }
            continue;
        }
        if stem == "mod" || path.extension().is_none_or(|e| e != "rs") {
            continue;
        }
        let text = std::fs::read_to_string(&path).expect("source file");
        let types: Vec<String> = text
            .lines()
            .filter_map(|line| {
                line.strip_prefix("impl crate::schemars::JsonSchema for ")
                    .and_then(|rest| rest.strip_suffix(" {"))
            })
            .filter(|ty| ty.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'))
            .filter(|ty| declares(&format!("pub use self::{stem}::{ty};")))
            .map(str::to_string)
            .collect();
        assert!(
            types.len() <= 1,
            "{}: several types in one file ({types:?}): teach the generator",
            path.display()
        );
        for ty in types {
            let mut segments = module.clone();
            segments.push(ty);
            found.push(TypeSource {
                path: segments.join("::"),
                text: text.clone(),
            });
        }
    }
}

/// The version gates for types present in `first..=last` of `all`, as `k8s_openapi` macros:
/// none for all versions, open-ended at the newest and oldest version (a type new in the newest
/// version stays in newer ones, should k8s-openapi add versions in a compatible release).
fn gates(first: u32, last: u32, all: &BTreeSet<u32>) -> Vec<String> {
    let (min, max) = (*all.first().unwrap(), *all.last().unwrap());
    if first == last && min < first && last < max {
        return vec![format!("k8s_if_1_{first}")];
    }
    let mut gates = Vec::new();
    if first > min {
        gates.push(format!("k8s_if_ge_1_{first}"));
    }
    if last < max {
        gates.push(format!("k8s_if_le_1_{last}"));
    }
    gates
}

/// Groups items by the range of versions that have them (each must be a range), in the order
/// of the first version, then the longest range first.
fn by_range<'a, T: Ord>(
    what: &str,
    present: impl IntoIterator<Item = (T, &'a BTreeSet<u32>)>,
) -> BTreeMap<(u32, std::cmp::Reverse<u32>), Vec<T>> {
    let mut groups: BTreeMap<(u32, std::cmp::Reverse<u32>), Vec<T>> = BTreeMap::new();
    for (item, versions) in present {
        let (first, last) = (*versions.first().unwrap(), *versions.last().unwrap());
        assert!(
            versions.len() as u32 == last - first + 1,
            "a {what} is in Kubernetes versions {versions:?}, not a range: teach the generator \
             (one `k8s_if_1_xx` group per version)"
        );
        groups
            .entry((first, std::cmp::Reverse(last)))
            .or_default()
            .push(item);
    }
    for items in groups.values_mut() {
        items.sort();
    }
    groups
}

/// `1 type`, `2 types`.
fn count(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// `1.33 to 1.37`, `1.37 only`.
fn span(first: u32, last: u32) -> String {
    if first == last {
        format!("1.{first} only")
    } else {
        format!("1.{first} to 1.{last}")
    }
}

/// The text of `types.rs` for these sources.
pub(crate) fn render_types(
    version: &str,
    versions: &BTreeSet<u32>,
    types: &BTreeMap<String, BTreeSet<u32>>,
) -> String {
    let groups = by_range("type", types.iter().map(|(path, v)| (path.as_str(), v)));
    let mut out = format!(
        "// @generated from k8s-openapi {version}'s sources by `type_list_is_fresh` in\n\
         // `tools/k8s-facts`; do not edit. Regenerate with\n\
         // `KUBEGEN_BLESS=1 cargo test -p k8s-facts type_list_is_fresh`.\n\
         //\n\
         // Every public non-generic type with a `schemars::JsonSchema` impl ({} types), by path\n\
         // from the crate root, grouped by the Kubernetes versions that have it.\n\
         \n\
         k8s_types! {{\n",
        types.len()
    );
    for ((first, std::cmp::Reverse(last)), paths) in &groups {
        out.push_str(&format!(
            "    // Kubernetes {}: {}\n",
            span(*first, *last),
            count(paths.len(), "type", "types")
        ));
        out.push_str(&format!(
            "    [{}] {{\n",
            gates(*first, *last, versions).join(", ")
        ));
        for path in paths {
            out.push_str(&format!("        {path},\n"));
        }
        out.push_str("    }\n");
    }
    out.push_str("}\n");
    out
}

/// The gates work: kubegen-core resolves exactly the types of the enabled version's folder
/// (the newest: this crate enables k8s-openapi's `latest`).
#[test]
fn the_engine_has_the_enabled_versions_types() {
    use kubegen_core::known::{Kubernetes, Minor, lookup};
    let (src, _) = k8s_openapi_sources();
    let (_, types) = scan(&src);
    let enabled = Minor::compiled().get();
    let compiled = Kubernetes::compiled();
    let wrong: Vec<String> = types
        .iter()
        .filter(|(path, present)| {
            let known = lookup(&format!("k8s_openapi::{path}"), Vec::new(), &compiled).is_some();
            known != present.contains(&enabled)
        })
        .map(|(path, present)| format!("{path} ({present:?})"))
        .collect();
    assert!(wrong.is_empty(), "resolved unlike the sources: {wrong:?}");
    assert!(types.len() > 700, "only {} types", types.len());
}

#[test]
fn type_list_is_fresh() {
    let (src, version) = k8s_openapi_sources();
    let (versions, types) = scan(&src);
    let expected = render_types(&version, &versions, &types);
    bless_or_compare(TYPES_RS, &expected, &version, &src, "type_list_is_fresh");
}

/// Compares a committed generated file with what the sources give; rewrites it under
/// `KUBEGEN_BLESS=1`, fails with a diff otherwise.
fn bless_or_compare(file: &str, expected: &str, version: &str, src: &Path, test: &str) {
    let committed = std::fs::read_to_string(file).unwrap_or_default();
    if committed == expected {
        return;
    }
    let name = Path::new(file).file_name().unwrap().to_string_lossy();
    if std::env::var("KUBEGEN_BLESS").as_deref() == Ok("1") {
        std::fs::write(file, expected).unwrap_or_else(|e| panic!("cannot write {file}: {e}"));
        eprintln!("rewrote {file}");
        return;
    }
    let diff = similar::TextDiff::from_lines(&committed, expected)
        .unified_diff()
        .context_radius(2)
        .header(
            &format!("{name} (committed)"),
            &format!("{name} (from the sources)"),
        )
        .to_string();
    panic!(
        "{file} is stale: it does not match k8s-openapi {version} at {}.\n\
         Regenerate it with `KUBEGEN_BLESS=1 cargo test -p k8s-facts {test}`.\n\n{diff}",
        src.display()
    );
}

// ---------------------------------------------------------------------------------------------
// Topology from the DeepMerge impls

/// A property's merge strategy in a `DeepMerge` impl, other than field-wise and granular.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Strategy {
    /// `merge_strategies::list::atomic`
    Atomic,
    /// `merge_strategies::list::set`
    Set,
    /// `merge_strategies::list::map` with the items' keys (JSON names); empty when a key is not
    /// a property of the items (`lhs.metadata.name`).
    Map(Vec<String>),
    /// `merge_strategies::map::atomic`
    MapAtomic,
}

impl Strategy {
    /// The form `deep_merge.rs` writes.
    fn render(&self) -> String {
        match self {
            Strategy::Atomic => "atomic".to_string(),
            Strategy::Set => "set".to_string(),
            Strategy::MapAtomic => "map_atomic".to_string(),
            Strategy::Map(keys) => {
                let keys: Vec<String> = keys.iter().map(|k| format!("{k:?}")).collect();
                format!("map[{}]", keys.join(", "))
            }
        }
    }
}

/// What the generator reads in one type's source file.
struct Parsed {
    /// The Kubernetes definition name (`io.k8s.api.core.v1.Pod`), from `schema_name()`.
    definition: String,
    /// JSON names by Rust field name, from the `Deserialize` impl.
    json_names: HashMap<String, String>,
    /// Rust field types by Rust field name, from the struct.
    field_types: HashMap<String, String>,
    /// The merge strategies of the `DeepMerge` impl's top-level statements, by Rust field
    /// name; list-map keys as Rust expressions after `lhs.`.
    merges: Vec<(String, RawStrategy)>,
}

/// A strategy as written in a `DeepMerge` impl.
enum RawStrategy {
    Atomic,
    Set,
    MapAtomic,
    Map(Vec<String>),
}

/// The text between `start` (a line) and the next line that is exactly `end`, exclusive.
fn block<'a>(text: &'a str, start: &str, end: &str) -> Option<&'a str> {
    let from = text.find(start)? + start.len();
    let rest = &text[from..];
    let to = rest.find(&format!("\n{end}\n"))?;
    Some(&rest[..to])
}

/// Parses one type's file (`ty` is its Rust name).
fn parse(ty: &str, text: &str) -> Parsed {
    let schema_name = block(
        text,
        &format!("impl crate::schemars::JsonSchema for {ty} {{\n"),
        "}",
    )
    .and_then(|body| {
        let after = &body[body.find("fn schema_name()")?..];
        let start = after.find('"')? + 1;
        let len = after[start..].find('"')?;
        Some(after[start..start + len].to_string())
    })
    .unwrap_or_else(|| panic!("{ty}: no schema_name() in its JsonSchema impl"));

    let json_names = text
        .lines()
        .filter_map(|line| {
            let (json, rust) = line.trim().split_once(" => Field::Key_")?;
            let json = json.strip_prefix('"')?.strip_suffix('"')?;
            Some((rust.strip_suffix(',')?.to_string(), json.to_string()))
        })
        .collect();

    let field_types = block(text, &format!("pub struct {ty} {{\n"), "}")
        .map(|body| {
            body.lines()
                .filter_map(|line| {
                    let (name, ty) = line.strip_prefix("    pub ")?.split_once(": ")?;
                    Some((name.to_string(), ty.strip_suffix(',')?.to_string()))
                })
                .collect()
        })
        .unwrap_or_default();

    let mut merges = Vec::new();
    if let Some(body) = block(text, &format!("impl crate::DeepMerge for {ty} {{\n"), "}") {
        let lines: Vec<&str> = body.lines().collect();
        for (i, line) in lines.iter().enumerate() {
            // Top-level statements of `merge_from` only: nested ones merge map values.
            let Some(statement) = line.strip_prefix("        crate::merge_strategies::") else {
                continue;
            };
            let field = |s: &str| {
                s.split_once("(&mut self.")
                    .and_then(|(_, rest)| rest.split_once(','))
                    .map(|(field, _)| field.to_string())
            };
            let (field, strategy) = if statement.starts_with("list::map(") {
                let field = lines
                    .get(i + 1)
                    .and_then(|l| l.trim().strip_prefix("&mut self."))
                    .and_then(|l| l.strip_suffix(','))
                    .unwrap_or_else(|| panic!("{ty}: unexpected list::map call"))
                    .to_string();
                let comparators = lines
                    .get(i + 3)
                    .map(|l| l.trim())
                    .and_then(|l| l.strip_prefix("&["))
                    .and_then(|l| l.strip_suffix("],"))
                    .unwrap_or_else(|| panic!("{ty}.{field}: unexpected list::map keys"));
                let keys = comparators
                    .split("|lhs, rhs| lhs.")
                    .filter(|s| !s.is_empty())
                    .map(|s| {
                        s.split_once(" == rhs.")
                            .unwrap_or_else(|| panic!("{ty}.{field}: key {s}"))
                            .0
                            .to_string()
                    })
                    .collect();
                (field, RawStrategy::Map(keys))
            } else if statement.starts_with("list::atomic(") {
                (field(statement).expect("field"), RawStrategy::Atomic)
            } else if statement.starts_with("list::set(") {
                (field(statement).expect("field"), RawStrategy::Set)
            } else if statement.starts_with("map::atomic(") {
                (field(statement).expect("field"), RawStrategy::MapAtomic)
            } else if statement.starts_with("map::granular(") {
                continue;
            } else {
                panic!("{ty}: unknown merge strategy `{statement}`: teach the generator");
            };
            merges.push((field, strategy));
        }
    }
    Parsed {
        definition: schema_name,
        json_names,
        field_types,
        merges,
    }
}

/// The topology of one version's types: (definition, property) to strategy.
pub(crate) fn topology_of(types: &[TypeSource]) -> BTreeMap<(String, String), Strategy> {
    let parsed: HashMap<&str, Parsed> = types
        .iter()
        .map(|t| {
            let ty = t.path.rsplit("::").next().unwrap();
            (t.path.as_str(), parse(ty, &t.text))
        })
        .collect();
    let mut topology = BTreeMap::new();
    for (path, info) in &parsed {
        for (field, raw) in &info.merges {
            let property = info
                .json_names
                .get(field)
                .unwrap_or_else(|| panic!("{path}.{field}: no JSON name"))
                .clone();
            let strategy = match raw {
                RawStrategy::Atomic => Strategy::Atomic,
                RawStrategy::Set => Strategy::Set,
                RawStrategy::MapAtomic => Strategy::MapAtomic,
                RawStrategy::Map(keys) => {
                    // The items' type: `Vec<crate::api::core::v1::ContainerPort>`.
                    let field_type = &info.field_types[field];
                    let item = field_type
                        .split_once("std::vec::Vec<crate::")
                        .and_then(|(_, rest)| rest.split_once('>'))
                        .map(|(item, _)| item)
                        .unwrap_or_else(|| panic!("{path}.{field}: items of {field_type}"));
                    let item = parsed
                        .get(item)
                        .unwrap_or_else(|| panic!("{path}.{field}: {item} is not a listed type"));
                    let keys: Option<Vec<String>> = keys
                        .iter()
                        .map(|k| item.json_names.get(k).cloned())
                        .collect();
                    Strategy::Map(keys.unwrap_or_default())
                }
            };
            topology.insert((info.definition.clone(), property), strategy);
        }
    }
    topology
}

/// The text of `deep_merge.rs` for these sources.
pub(crate) fn render_topology(
    version: &str,
    versions: &BTreeSet<u32>,
    topology: &BTreeMap<(String, String, Strategy), BTreeSet<u32>>,
) -> String {
    let groups = by_range("property's topology", topology.iter());
    let mut out = format!(
        "// @generated from k8s-openapi {version}'s sources by `topology_is_fresh` in\n\
         // `tools/k8s-facts`; do not edit. Regenerate with\n\
         // `KUBEGEN_BLESS=1 cargo test -p k8s-facts topology_is_fresh`.\n\
         //\n\
         // The merge strategy of every property whose `DeepMerge` impl neither merges it field by\n\
         // field nor as a granular map ({} entries), by Kubernetes definition and JSON name,\n\
         // grouped by the Kubernetes versions that have it: `atomic` (`list::atomic`), `set`\n\
         // (`list::set`), `map[keys]` (`list::map`; `map[]` when keyed by other than a property\n\
         // of the items) and `map_atomic` (`map::atomic`). See `topology.rs`.\n\
         \n\
         k8s_topology! {{\n",
        topology.len()
    );
    for ((first, std::cmp::Reverse(last)), entries) in &groups {
        out.push_str(&format!(
            "    // Kubernetes {}: {}\n",
            span(*first, *last),
            count(entries.len(), "property", "properties")
        ));
        out.push_str(&format!(
            "    [{}] {{\n",
            gates(*first, *last, versions).join(", ")
        ));
        let mut current: Option<&str> = None;
        for (definition, property, strategy) in entries {
            if current != Some(definition.as_str()) {
                if current.is_some() {
                    out.push_str("        }\n");
                }
                out.push_str(&format!("        {definition:?} {{\n"));
                current = Some(definition);
            }
            out.push_str(&format!(
                "            {property:?}: {},\n",
                strategy.render()
            ));
        }
        if current.is_some() {
            out.push_str("        }\n");
        }
        out.push_str("    }\n");
    }
    out.push_str("}\n");
    out
}

/// Every version's topology, by (definition, property, strategy), with the versions that have
/// it.
pub(crate) fn topology_by_version(
    sources: &BTreeMap<u32, Vec<TypeSource>>,
) -> BTreeMap<(String, String, Strategy), BTreeSet<u32>> {
    let mut all = BTreeMap::new();
    for (minor, types) in sources {
        for ((definition, property), strategy) in topology_of(types) {
            all.entry((definition, property, strategy))
                .or_insert_with(BTreeSet::new)
                .insert(*minor);
        }
    }
    all
}

#[test]
fn topology_is_fresh() {
    let (src, version) = k8s_openapi_sources();
    let sources = sources(&src);
    let versions: BTreeSet<u32> = sources.keys().copied().collect();
    let topology = topology_by_version(&sources);
    let expected = render_topology(&version, &versions, &topology);
    bless_or_compare(
        DEEP_MERGE_RS,
        &expected,
        &version,
        &src,
        "topology_is_fresh",
    );
}
