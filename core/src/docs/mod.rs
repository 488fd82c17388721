//! The API reference: one Markdown page per API group and version, written from the CRDs (the
//! schemas as the API server sees them) and the model (the Rust types' names).
//!
//! A page has each kind (its resource facts, printer columns and top-level fields), then a
//! section per type: each field with its JSON name, its type (linked to the type's section, or
//! to the Kubernetes API reference for k8s-openapi types), whether it is required, its default,
//! its validations written out and its doc comment. The output depends on nothing but its
//! input: same types, same bytes.

mod fields;
mod types;

use std::collections::{BTreeMap, HashMap};
use std::fmt::Write;

use k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1 as ext;

use crate::model::{ResourceDef, Schema};
use fields::{Links, cell, code};
pub use types::TypeName;

/// One kind: its CRD, and its spec structs (one per version) with their resource keys.
pub struct Kind<'a> {
    /// The CRD, with full descriptions.
    pub crd: &'a ext::CustomResourceDefinition,
    /// The versions' definitions.
    pub defs: &'a [ResourceDef],
}

/// One page of the reference.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Page {
    /// `<group>_<version>.md`.
    pub file: String,
    /// The Markdown.
    pub content: String,
}

/// The pages for `kinds` (an [`INDEX`] first, then one per group and version, sorted), linking
/// k8s-openapi types to the reference of Kubernetes 1.`minor`.
pub fn pages(kinds: &[Kind], minor: u32) -> Vec<Page> {
    let mut by_page: BTreeMap<(String, String), Vec<Version>> = BTreeMap::new();
    for kind in kinds {
        for version in &kind.crd.spec.versions {
            let Some(def) = kind.defs.iter().find(|d| d.markers.version == version.name) else {
                continue;
            };
            let schema = version
                .schema
                .as_ref()
                .and_then(|s| s.open_api_v3_schema.as_ref())
                .and_then(|s| serde_json::to_value(s).ok())
                .and_then(|v| serde_json::from_value(v).ok())
                .unwrap_or_default();
            by_page
                .entry((kind.crd.spec.group.clone(), version.name.clone()))
                .or_default()
                .push(Version {
                    crd: kind.crd,
                    version,
                    schema,
                    types: types::of_version(def),
                });
        }
    }
    let mut index = String::from("# API reference\n\n");
    let mut pages: Vec<Page> = by_page
        .into_iter()
        .map(|((group, version), mut kinds)| {
            kinds.sort_by(|a, b| a.crd.spec.names.kind.cmp(&b.crd.spec.names.kind));
            let file = format!("{group}_{version}.md");
            let names: Vec<String> = kinds
                .iter()
                .map(|k| format!("[{0}]({file}#{1})", k.kind(), kind_anchor(k.kind())))
                .collect();
            let _ = writeln!(index, "- [{group}/{version}]({file}): {}", names.join(", "));
            Page {
                content: page(&group, &version, &kinds, minor),
                file,
            }
        })
        .collect();
    if !pages.is_empty() {
        pages.insert(
            0,
            Page {
                file: INDEX.to_string(),
                content: index,
            },
        );
    }
    pages
}

/// The index page: each group and version, with its kinds.
pub const INDEX: &str = "README.md";

/// One version of one kind.
struct Version<'a> {
    crd: &'a ext::CustomResourceDefinition,
    version: &'a ext::CustomResourceDefinitionVersion,
    schema: Schema,
    types: BTreeMap<String, TypeName>,
}

impl Version<'_> {
    fn kind(&self) -> &str {
        &self.crd.spec.names.kind
    }
}

/// A type's section: where its schema is (the first place it is used), its title, and every
/// place it is used (kind and path).
struct Section<'a> {
    kind: usize,
    path: String,
    schema: &'a Schema,
    title: String,
    anchor: String,
    uses: Vec<(usize, String)>,
}

/// The key a node's section is found by: a type's key, or the kind and path of an unnamed
/// object.
fn section_key(v: &Version, path: &str) -> Option<String> {
    match v.types.get(path) {
        Some(TypeName::Own { key, .. }) => Some(key.clone()),
        Some(TypeName::Kubernetes(_)) => None,
        None => Some(format!("{}{path}", v.kind())),
    }
}

/// The sections of a page, in the order a reader meets them (kind by kind, depth first), each
/// type once, and their anchors.
fn sections<'a>(kinds: &'a [Version]) -> (Vec<Section<'a>>, HashMap<String, String>) {
    let mut found: Vec<(String, Section)> = Vec::new();
    for (i, v) in kinds.iter().enumerate() {
        for (name, child) in &v.schema.properties {
            collect(v, i, &format!(".{name}"), child, &mut found);
        }
    }
    let mut anchors = HashMap::new();
    let mut used: HashMap<String, usize> = HashMap::new();
    for (key, section) in &mut found {
        let base = anchor_of(&section.title);
        let n = used.entry(base.clone()).or_default();
        *n += 1;
        section.anchor = if *n == 1 { base } else { format!("{base}-{n}") };
        anchors.insert(key.clone(), section.anchor.clone());
    }
    (found.into_iter().map(|(_, s)| s).collect(), anchors)
}

fn collect<'a>(
    v: &'a Version,
    kind: usize,
    path: &str,
    schema: &'a Schema,
    found: &mut Vec<(String, Section<'a>)>,
) {
    if matches!(v.types.get(path), Some(TypeName::Kubernetes(_))) {
        return;
    }
    let named = matches!(v.types.get(path), Some(TypeName::Own { .. }));
    if named || !schema.properties.is_empty() {
        let Some(key) = section_key(v, path) else {
            return;
        };
        if let Some((_, section)) = found.iter_mut().find(|(k, _)| *k == key) {
            section.uses.push((kind, path.to_string()));
            return;
        }
        let title = match v.types.get(path) {
            Some(name) => fields::short(name).to_string(),
            None => format!("{}{path}", v.kind()),
        };
        found.push((
            key,
            Section {
                kind,
                path: path.to_string(),
                schema,
                title,
                anchor: String::new(),
                uses: vec![(kind, path.to_string())],
            },
        ));
    }
    for (name, child) in &schema.properties {
        collect(v, kind, &format!("{path}.{name}"), child, found);
    }
    for child in [&schema.items, &schema.additional_properties]
        .into_iter()
        .flatten()
    {
        collect(v, kind, &format!("{path}[*]"), child, found);
    }
}

/// `MemcachedSpec` → `memcachedspec`; `CronJob.spec.x` → `cronjob-spec-x`.
fn anchor_of(title: &str) -> String {
    crate::names::dashed(title)
}

/// Links on a page, from one kind's point of view.
struct PageLinks<'a> {
    version: &'a Version<'a>,
    anchors: &'a HashMap<String, String>,
    minor: u32,
}

impl Links for PageLinks<'_> {
    fn link(&self, path: &str) -> Option<String> {
        if let Some(TypeName::Kubernetes(name)) = self.version.types.get(path) {
            let short = name.rsplit("::").next().unwrap_or(name);
            return Some(match kubernetes_anchor(name) {
                Some(anchor) => format!(
                    "[{short}](https://kubernetes.io/docs/reference/generated/kubernetes-api/v1.{}/#{anchor})",
                    self.minor
                ),
                None => short.to_string(),
            });
        }
        let key = section_key(self.version, path)?;
        let anchor = self.anchors.get(&key)?;
        let title = match self.version.types.get(path) {
            Some(name) => fields::short(name).to_string(),
            None => "object".to_string(),
        };
        Some(format!("[{title}](#{anchor})"))
    }
}

/// The Kubernetes API reference's anchor for a k8s-openapi type: `api::core::v1::PodSpec` →
/// `podspec-v1-core`, `meta::v1::ObjectMeta` → `objectmeta-v1-meta`; none for the others
/// (`Quantity`, `IntOrString`), which the reference has no section for.
fn kubernetes_anchor(path: &str) -> Option<String> {
    let parts: Vec<&str> = path.split("::").collect();
    let (group, version, name) = match parts.as_slice() {
        ["k8s_openapi", "api", group, version, name] => (*group, *version, *name),
        [
            "k8s_openapi",
            "apimachinery",
            "pkg",
            "apis",
            "meta",
            version,
            name,
        ] => ("meta", *version, *name),
        _ => return None,
    };
    let group = match group {
        "core" | "apps" | "batch" | "autoscaling" | "policy" | "meta" => group.to_string(),
        "rbac" => "rbac-authorization-k8s-io".into(),
        "flowcontrol" => "flowcontrol-apiserver-k8s-io".into(),
        "apiserverinternal" => "internal-apiserver-k8s-io".into(),
        other => format!("{other}-k8s-io"),
    };
    Some(format!("{}-{version}-{group}", name.to_lowercase()))
}

fn page(group: &str, version: &str, kinds: &[Version], minor: u32) -> String {
    let (sections, anchors) = sections(kinds);
    let mut out = format!(
        "# {group}/{version}\n\nThe API reference of the `{group}` group, version \
         `{version}`.\n\n"
    );
    for v in kinds {
        let _ = writeln!(out, "- [{0}](#{1})", v.kind(), kind_anchor(v.kind()));
    }
    for v in kinds {
        let links = PageLinks {
            version: v,
            anchors: &anchors,
            minor,
        };
        kind_section(&mut out, group, v, &links);
    }
    if !sections.is_empty() {
        out.push_str("\n## Types\n");
    }
    for section in &sections {
        // `section.kind` is an index into `kinds` the sections were built from.
        let v = &kinds[section.kind];
        let links = PageLinks {
            version: v,
            anchors: &anchors,
            minor,
        };
        let _ = write!(
            out,
            "\n<a id=\"{}\"></a>\n\n### {}\n\n",
            section.anchor, section.title
        );
        let uses: Vec<String> = section
            .uses
            .iter()
            // Each use's kind is an index into `kinds`, as `section.kind`.
            .map(|(kind, path)| format!("{} {}", kinds[*kind].kind(), code(path)))
            .collect();
        let _ = writeln!(out, "Used at {}.\n", uses.join(", "));
        if let Some(d) = &section.schema.description {
            let _ = writeln!(out, "{}\n", d.trim());
        }
        if section.schema.properties.is_empty() {
            type_facts(&mut out, section.schema, &section.path);
        } else {
            field_table(&mut out, section.schema, &section.path, &links);
        }
    }
    out
}

fn kind_anchor(kind: &str) -> String {
    format!("kind-{}", anchor_of(kind))
}

fn kind_section(out: &mut String, group: &str, v: &Version, links: &PageLinks) {
    let crd = v.crd;
    let names = &crd.spec.names;
    let _ = write!(
        out,
        "\n<a id=\"{}\"></a>\n\n## {}\n\n",
        kind_anchor(v.kind()),
        v.kind()
    );
    if let Some(d) = &v.schema.description {
        let _ = writeln!(out, "{}\n", d.trim());
    }
    let mut facts = vec![
        ("API version", code(&format!("{group}/{}", v.version.name))),
        ("Scope", crd.spec.scope.clone()),
        (
            "Names",
            format!(
                "{} (plural), {} (singular)",
                code(&names.plural),
                code(names.singular.as_deref().unwrap_or_default())
            ),
        ),
    ];
    let list = |values: &Option<Vec<String>>| {
        values
            .iter()
            .flatten()
            .map(|s| code(s))
            .collect::<Vec<_>>()
            .join(", ")
    };
    if names.short_names.as_ref().is_some_and(|s| !s.is_empty()) {
        facts.push(("Short names", list(&names.short_names)));
    }
    if names.categories.as_ref().is_some_and(|s| !s.is_empty()) {
        facts.push(("Categories", list(&names.categories)));
    }
    if let Some(sub) = &v.version.subresources {
        let mut parts = Vec::new();
        if sub.status.is_some() {
            parts.push("status".to_string());
        }
        if let Some(scale) = &sub.scale {
            parts.push(format!(
                "scale ({} → {})",
                code(&scale.spec_replicas_path),
                code(&scale.status_replicas_path)
            ));
        }
        facts.push(("Subresources", parts.join(", ")));
    }
    if crd.spec.versions.len() > 1 {
        let yes = |b: bool| if b { "yes" } else { "no" };
        facts.push((
            "Served, storage",
            format!("{}, {}", yes(v.version.served), yes(v.version.storage)),
        ));
    }
    if v.version.deprecated == Some(true) {
        let warning = v.version.deprecation_warning.as_deref().unwrap_or("yes");
        facts.push(("Deprecated", cell(warning)));
    }
    out.push_str("| | |\n|---|---|\n");
    for (name, value) in facts {
        let _ = writeln!(out, "| {name} | {value} |");
    }
    if let Some(columns) = &v.version.additional_printer_columns {
        out.push_str("\nPrinter columns (`kubectl get`):\n\n");
        out.push_str("| Column | Type | JSON path | Description |\n|---|---|---|---|\n");
        for c in columns {
            let wide = if c.priority.unwrap_or(0) > 0 {
                " (wide)"
            } else {
                ""
            };
            let _ = writeln!(
                out,
                "| {}{wide} | {} | {} | {} |",
                cell(&c.name),
                c.type_,
                code(&c.json_path),
                cell(c.description.as_deref().unwrap_or_default())
            );
        }
    }
    out.push('\n');
    field_table(out, &v.schema, "", links);
}

/// The fields of an object node, one row each.
fn field_table(out: &mut String, schema: &Schema, path: &str, links: &dyn Links) {
    out.push_str("| Field | Type | Required | Default | Validation | Description |\n");
    out.push_str("|---|---|---|---|---|---|\n");
    for (name, child) in &schema.properties {
        let child_path = format!("{path}.{name}");
        let required = if schema.required.iter().any(|r| r == name) {
            "required"
        } else {
            "optional"
        };
        let _ = writeln!(
            out,
            "| {} | {} | {required} | {} | {} | {} |",
            code(name),
            cell(&fields::type_of(child, &child_path, links)),
            fields::default_of(child).map_or(String::new(), |d| cell(&d)),
            cell(&fields::validations(child).join("; ")),
            cell(child.description.as_deref().unwrap_or_default())
        );
    }
    let rules = fields::validations(&Schema {
        x_validations: schema.x_validations.clone(),
        ..Schema::default()
    });
    if !rules.is_empty() {
        out.push_str("\nRules on the whole object:\n\n");
        for rule in rules {
            let _ = writeln!(out, "- {rule}");
        }
    }
}

/// A type without fields (an enum, a scalar newtype): its type and validations.
fn type_facts(out: &mut String, schema: &Schema, path: &str) {
    let _ = writeln!(
        out,
        "Type: {}.",
        fields::type_of(schema, path, &fields::Plain)
    );
    for v in fields::validations(schema) {
        let _ = writeln!(out, "- {v}");
    }
    if let Some(d) = fields::default_of(schema) {
        let _ = writeln!(out, "- default {d}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kubernetes_types_link_to_the_reference_of_their_group() {
        assert_eq!(
            kubernetes_anchor("k8s_openapi::api::core::v1::PodSpec").as_deref(),
            Some("podspec-v1-core")
        );
        assert_eq!(
            kubernetes_anchor("k8s_openapi::api::networking::v1::Ingress").as_deref(),
            Some("ingress-v1-networking-k8s-io")
        );
        assert_eq!(
            kubernetes_anchor("k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta")
                .as_deref(),
            Some("objectmeta-v1-meta")
        );
        assert_eq!(
            kubernetes_anchor("k8s_openapi::apimachinery::pkg::api::resource::Quantity"),
            None
        );
        assert_eq!(anchor_of("CronJob.spec.x[*]"), "cronjob-spec-x");
    }
}
