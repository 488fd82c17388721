//! The migration table: every key of the foreign attributes kubegen translates, in the
//! order of the book's table.

use super::convert::*;
use super::{Foreign, How, Row};

/// A row.
const fn row(
    attribute: Foreign,
    key: &'static str,
    form: &'static str,
    how: How,
    kubegen: &'static str,
    example: (&'static str, &'static str),
) -> Row {
    Row {
        attribute,
        key,
        form,
        how,
        kubegen,
        example,
    }
}

use Foreign::{Garde, Kube, Schemars, Serde, Validate, XKube};

/// Every row.
pub static ROWS: &[Row] = &[
    row(
        Kube,
        "group",
        "`group = \"...\"`",
        How::Marker("group"),
        "`group`; a `#[kube]` holding `kind` without `namespaced` also gets `scope = \"Cluster\"` \
         (kube-derive's default scope is `Cluster`, kubegen's `Namespaced`)",
        (
            r#"#[kube(group = "a.io", version = "v1", kind = "A")]"#,
            r#"#[kube_marker(group = "a.io", version = "v1", kind = "A", scope = "Cluster")]"#,
        ),
    ),
    row(
        Kube,
        "version",
        "`version = \"...\"`",
        How::Marker("version"),
        "`version`",
        (
            r#"#[kube(version = "v1")]"#,
            r#"#[kube_marker(version = "v1")]"#,
        ),
    ),
    row(
        Kube,
        "kind",
        "`kind = \"...\"`",
        How::Marker("kind"),
        "`kind`",
        (
            r#"#[kube(kind = "A", namespaced)]"#,
            r#"#[kube_marker(kind = "A")]"#,
        ),
    ),
    row(
        Kube,
        "namespaced",
        "`namespaced`",
        How::Dropped,
        "nothing: `Namespaced` is kubegen's default scope",
        ("#[kube(namespaced)]", ""),
    ),
    row(
        Kube,
        "plural",
        "`plural = \"...\"`",
        How::Marker("plural"),
        "`plural`",
        (
            r#"#[kube(plural = "as")]"#,
            r#"#[kube_marker(plural = "as")]"#,
        ),
    ),
    row(
        Kube,
        "singular",
        "`singular = \"...\"`",
        How::Marker("singular"),
        "`singular`",
        (
            r#"#[kube(singular = "a")]"#,
            r#"#[kube_marker(singular = "a")]"#,
        ),
    ),
    row(
        Kube,
        "shortname",
        "`shortname = \"...\"`, repeatable",
        How::List("short_names"),
        "`short_names = [...]`",
        (
            r#"#[kube(shortname = "a", shortname = "aa")]"#,
            r#"#[kube_marker(short_names = ["a", "aa"])]"#,
        ),
    ),
    row(
        Kube,
        "category",
        "`category = \"...\"`, repeatable",
        How::List("categories"),
        "`categories = [...]`",
        (
            r#"#[kube(category = "all")]"#,
            r#"#[kube_marker(categories = ["all"])]"#,
        ),
    ),
    row(
        Kube,
        "status",
        "`status = \"Type\"`",
        How::Marker("status"),
        "`status`",
        (
            r#"#[kube(status = "AStatus")]"#,
            r#"#[kube_marker(status = "AStatus")]"#,
        ),
    ),
    row(
        Kube,
        "scale",
        "`scale(spec_replicas_path, status_replicas_path, label_selector_path)`, or \
         `scale = \"<JSON>\"`",
        How::With(scale),
        "`scale(spec_path, status_path, selector_path)`",
        (
            r##"#[kube(scale = r#"{"specReplicasPath":".spec.n","statusReplicasPath":".status.n"}"#)]"##,
            r#"#[kube_marker(scale(spec_path = ".spec.n", status_path = ".status.n"))]"#,
        ),
    ),
    row(
        Kube,
        "printcolumn",
        "`printcolumn(name, type_, json_path, description, format, priority)`, or \
         `printcolumn = \"<JSON>\"`; repeatable",
        How::With(printcolumn),
        "`printcolumn(name, type, json_path, description, format, priority)`, in the same order",
        (
            r#"#[kube(printcolumn(name = "N", type_ = "integer", json_path = ".spec.n"))]"#,
            r#"#[kube_marker(printcolumn(name = "N", type = "integer", json_path = ".spec.n"))]"#,
        ),
    ),
    row(
        Kube,
        "selectable",
        "`selectable = \".spec.x\"`, repeatable",
        How::With(selectable),
        "`selectable_field(json_path = ...)`",
        (
            r#"#[kube(selectable = ".spec.color")]"#,
            r#"#[kube_marker(selectable_field(json_path = ".spec.color"))]"#,
        ),
    ),
    row(
        Kube,
        "validation",
        "`validation = \"rule\"` or `validation = Rule::new(..)...`, repeatable",
        How::With(root_validation),
        "`x_validation(rule, message, message_expression, reason, field_path, optional_old_self)` \
         on the spec: kube-derive puts the rule on the root object, kubegen on the spec, so \
         `self.spec.x` becomes `self.x`; a rule reading `self.metadata` or `self.status`, or one \
         built at run time, is left to you",
        (
            r#"#[kube(validation = Rule::new("self.spec.n > 0").message("n must be positive"))]"#,
            r#"#[kube_marker(x_validation(rule = "self.n > 0", message = "n must be positive"))]"#,
        ),
    ),
    row(
        Kube,
        "annotation",
        "`annotation(\"key\", \"value\")`, repeatable",
        How::With(annotation),
        "`annotations = [\"key=value\", ...]`",
        (
            r#"#[kube(annotation("owner", "team-a"))]"#,
            r#"#[kube_marker(annotations = ["owner=team-a"])]"#,
        ),
    ),
    row(
        Kube,
        "label",
        "`label(\"key\", \"value\")`, repeatable",
        How::With(label),
        "`labels = [\"key=value\", ...]`",
        (
            r#"#[kube(label("tier", "api"), label("app", "a"))]"#,
            r#"#[kube_marker(labels = ["tier=api", "app=a"])]"#,
        ),
    ),
    row(
        Kube,
        "storage",
        "`storage`, `storage = true`, `storage = false`",
        How::With(storage),
        "`storage_version` when true; nothing when false",
        ("#[kube(storage = true)]", "#[kube_marker(storage_version)]"),
    ),
    row(
        Kube,
        "served",
        "`served = false`",
        How::With(served),
        "`served = false`; nothing when true",
        ("#[kube(served = false)]", "#[kube_marker(served = false)]"),
    ),
    row(
        Kube,
        "deprecated",
        "`deprecated`, `deprecated = \"warning\"`",
        How::With(deprecated),
        "`deprecated`, `deprecated(warning = \"...\")`",
        (
            r#"#[kube(deprecated = "use v2")]"#,
            r#"#[kube_marker(deprecated(warning = "use v2"))]"#,
        ),
    ),
    row(
        Kube,
        "doc",
        "`doc = \"...\"`",
        How::Marker("doc"),
        "`doc`",
        (
            r#"#[kube(doc = "An A.")]"#,
            r#"#[kube_marker(doc = "An A.")]"#,
        ),
    ),
    row(
        Kube,
        "derive",
        "`derive = \"Trait\"`, repeatable",
        How::List("derive"),
        "`derive = [...]`",
        (
            r#"#[kube(derive = "PartialEq", derive = "Default")]"#,
            r#"#[kube_marker(derive = ["PartialEq", "Default"])]"#,
        ),
    ),
    row(
        Kube,
        "schema",
        "`schema = \"derived\" | \"disabled\" | \"manual\"`",
        How::With(schema_mode),
        "`derived`: nothing (kubegen derives it); `disabled`: `schemaless, \
         preserve_unknown_fields`; `manual`: left to you (markers, or a hand-written `KubeSchema`)",
        (
            r#"#[kube(schema = "disabled")]"#,
            "#[kube_marker(schemaless, preserve_unknown_fields)]",
        ),
    ),
    row(
        Kube,
        "crates",
        "`crates(kube_core = ..., schemars = ..., ...)`",
        How::Dropped,
        "nothing: kubegen's generated code reaches kube, k8s-openapi and serde through `kubegen`",
        ("#[kube(crates(kube_core = \"::kube::core\"))]", ""),
    ),
    row(
        Kube,
        "root",
        "`root = \"Name\"`",
        How::With(root_name),
        "kubegen names the root type after `kind`; `migrate` writes `type Name = Kind;` after the \
         spec (with the spec's visibility), so the old name keeps working",
        (r#"#[kube(root = "Root")]"#, ""),
    ),
    row(
        Kube,
        "attr",
        "`attr = \"...\"`, repeatable",
        How::Manual,
        "kubegen puts no attributes of yours on the root type: add what it asked for by hand \
         (`derive` for derives)",
        (r#"#[kube(attr = "allow(deprecated)")]"#, ""),
    ),
    row(
        Kube,
        "cel",
        "`cel`",
        How::With(cel_validate),
        "kubegen's `validate` feature, which `migrate` turns on: `Kind::validate(&x)` and \
         `Kind::validate_update(&old, &x)` (trait `kubegen::Validate`) stand for \
         `x.validate_cel()` and `x.validate_cel_update(&old)`, and run the API server's whole \
         admission (the OpenAPI checks too); `migrate` lists each call to change",
        ("#[kube(cel)]", ""),
    ),
    row(
        XKube,
        "validation",
        "`validation = \"rule\"` or `Rule::new(..)...`, repeatable",
        How::With(validation),
        "`x_validation(...)`, as for `#[kube(validation)]`",
        (
            r#"#[x_kube(validation = Rule::new("self != ''").reason(Reason::FieldValueInvalid))]"#,
            r#"#[kube_marker(x_validation(rule = "self != ''", reason = "FieldValueInvalid"))]"#,
        ),
    ),
    row(
        XKube,
        "merge_strategy",
        "`merge_strategy = ListMerge::.. | MapMerge::.. | StructMerge::..`",
        How::With(merge_strategy),
        "`list_type` (with `list_map_keys` for `ListMerge::Map`), `map_type`, `struct_type`",
        (
            r#"#[x_kube(merge_strategy = ListMerge::Map(vec!["name".into()]))]"#,
            r#"#[kube_marker(list_type = "map", list_map_keys = ["name"])]"#,
        ),
    ),
    row(
        XKube,
        "cel",
        "`cel`",
        How::Manual,
        "kubegen generates no client-side `validate_cel`",
        ("#[x_kube(cel)]", ""),
    ),
    row(
        XKube,
        "crates",
        "`crates(...)`",
        How::Dropped,
        "nothing",
        ("#[x_kube(crates(schemars = \"::schemars\"))]", ""),
    ),
    row(
        Schemars,
        "length",
        "`length(min, max, equal)`",
        How::With(length),
        "`min_length`/`max_length` on a string, `min_items`/`max_items` on a list or set, \
         `min_properties`/`max_properties` on a map",
        (
            "#[schemars(length(min = 1, max = 63))]",
            "#[kube_marker(min_length = 1, max_length = 63)]",
        ),
    ),
    row(
        Schemars,
        "range",
        "`range(min, max)`",
        How::With(range),
        "`minimum`, `maximum`",
        (
            "#[schemars(range(min = -1, max = 10))]",
            "#[kube_marker(minimum = -1, maximum = 10)]",
        ),
    ),
    row(
        Schemars,
        "regex",
        "`regex(pattern = \"...\")`",
        How::With(pattern),
        "`pattern` (a regex named by a path is left to you)",
        (
            r#"#[schemars(regex(pattern = r"^[a-z]+$"))]"#,
            r#"#[kube_marker(pattern = r"^[a-z]+$")]"#,
        ),
    ),
    row(
        Schemars,
        "pattern",
        "`pattern(\"...\")`",
        How::With(pattern),
        "`pattern`",
        (
            r#"#[schemars(pattern("^a"))]"#,
            r#"#[kube_marker(pattern = "^a")]"#,
        ),
    ),
    row(
        Schemars,
        "email",
        "`email`",
        How::With(email),
        "`format = \"email\"`",
        ("#[schemars(email)]", r#"#[kube_marker(format = "email")]"#),
    ),
    row(
        Schemars,
        "url",
        "`url`",
        How::With(url),
        "`format = \"uri\"`",
        ("#[schemars(url)]", r#"#[kube_marker(format = "uri")]"#),
    ),
    row(
        Schemars,
        "description",
        "`description = \"...\"`",
        How::Marker("description"),
        "`description`",
        (
            r#"#[schemars(description = "The size.")]"#,
            r#"#[kube_marker(description = "The size.")]"#,
        ),
    ),
    row(
        Schemars,
        "title",
        "`title = \"...\"`",
        How::Marker("title"),
        "`title`",
        (
            r#"#[schemars(title = "Size")]"#,
            r#"#[kube_marker(title = "Size")]"#,
        ),
    ),
    row(
        Schemars,
        "example",
        "`example = value`",
        How::With(example),
        "`example` (a literal; a value built at run time is left to you)",
        ("#[schemars(example = 3)]", "#[kube_marker(example = 3)]"),
    ),
    row(
        Schemars,
        "extend",
        "`extend(\"key\" = value, ...)`",
        How::With(extend),
        "the marker of each `x-kubernetes-*` key kubegen has one for (`preserve_unknown_fields`, \
         `int_or_string`, `embedded_resource`, `list_type`, `map_type`); any other key is left \
         to you",
        (
            r#"#[schemars(extend("x-kubernetes-int-or-string" = true))]"#,
            "#[kube_marker(int_or_string)]",
        ),
    ),
    row(
        Schemars,
        "inner",
        "`inner(...)`",
        How::With(inner),
        "`items(...)` with the inner keys' translations",
        (
            "#[schemars(inner(length(max = 8)))]",
            "#[kube_marker(items(max_length = 8))]",
        ),
    ),
    row(
        Schemars,
        "required",
        "`required`",
        How::Marker("required"),
        "`required` (on a field)",
        ("#[schemars(required)]", "#[kube_marker(required)]"),
    ),
    row(
        Schemars,
        "rename",
        "`rename = \"...\"`",
        How::Serde("rename"),
        "`#[serde(rename)]`: kubegen's schema follows serde's names (so does the JSON)",
        (r#"#[schemars(rename = "x")]"#, r#"#[serde(rename = "x")]"#),
    ),
    row(
        Schemars,
        "rename_all",
        "`rename_all = \"...\"`",
        How::Serde("rename_all"),
        "`#[serde(rename_all)]`",
        (
            r#"#[schemars(rename_all = "camelCase")]"#,
            r#"#[serde(rename_all = "camelCase")]"#,
        ),
    ),
    row(
        Schemars,
        "skip",
        "`skip`",
        How::Serde("skip"),
        "`#[serde(skip)]`",
        ("#[schemars(skip)]", "#[serde(skip)]"),
    ),
    row(
        Schemars,
        "flatten",
        "`flatten`",
        How::Serde("flatten"),
        "`#[serde(flatten)]`",
        ("#[schemars(flatten)]", "#[serde(flatten)]"),
    ),
    row(
        Schemars,
        "default",
        "`default`, `default = \"path\"`",
        How::Serde("default"),
        "`#[serde(default)]`; kubegen writes the schema's `default` from the `default` marker \
         only (`default = ...`)",
        ("#[schemars(default)]", "#[serde(default)]"),
    ),
    row(
        Schemars,
        "tag",
        "`tag = \"...\"`",
        How::Serde("tag"),
        "`#[serde(tag)]`",
        (r#"#[schemars(tag = "type")]"#, r#"#[serde(tag = "type")]"#),
    ),
    row(
        Schemars,
        "content",
        "`content = \"...\"`",
        How::Serde("content"),
        "`#[serde(content)]`",
        (
            r#"#[schemars(content = "c")]"#,
            r#"#[serde(content = "c")]"#,
        ),
    ),
    row(
        Schemars,
        "untagged",
        "`untagged`",
        How::Serde("untagged"),
        "`#[serde(untagged)]`",
        ("#[schemars(untagged)]", "#[serde(untagged)]"),
    ),
    row(
        Schemars,
        "deny_unknown_fields",
        "`deny_unknown_fields`",
        How::Serde("deny_unknown_fields"),
        "`#[serde(deny_unknown_fields)]`",
        (
            "#[schemars(deny_unknown_fields)]",
            "#[serde(deny_unknown_fields)]",
        ),
    ),
    row(
        Schemars,
        "with",
        "`with = \"Type\"`",
        How::Manual,
        "kubegen reads the field's own type: give it `schema_type = \"...\"` (or change the \
         field's type)",
        (r#"#[schemars(with = "String")]"#, ""),
    ),
    row(
        Schemars,
        "schema_with",
        "`schema_with = \"path\"`",
        How::Manual,
        "write the function's schema as markers, or `schemaless` with `schema_type` or \
         `preserve_unknown_fields`",
        (r#"#[schemars(schema_with = "any_object")]"#, ""),
    ),
    row(
        Schemars,
        "transform",
        "`transform = path`",
        How::Manual,
        "a transform runs at run time: write what it adds as markers",
        ("#[schemars(transform = add_x)]", ""),
    ),
    row(
        Schemars,
        "deprecated",
        "`deprecated`",
        How::Manual,
        "a CRD schema has no `deprecated`: say it in the doc comment",
        ("#[schemars(deprecated)]", ""),
    ),
    row(
        Schemars,
        "crate",
        "`crate = \"...\"`",
        How::Dropped,
        "nothing",
        (r#"#[schemars(crate = "::schemars")]"#, ""),
    ),
    row(
        Schemars,
        "bound",
        "`bound = \"...\"`",
        How::Dropped,
        "nothing: kubegen's types have no parameters",
        (r#"#[schemars(bound = "T: X")]"#, ""),
    ),
    row(
        Schemars,
        "inline",
        "`inline`",
        How::Dropped,
        "nothing: kubegen inlines every schema, as a CRD must",
        ("#[schemars(inline)]", ""),
    ),
    row(
        Garde,
        "length",
        "`length(min, max, equal)` (after `bytes`/`chars`)",
        How::With(length),
        "as schemars' `length`; the `#[garde]` stays for the check at run time",
        (
            "#[garde(length(chars, max = 10))]",
            "#[garde(length(chars, max = 10))]\n#[kube_marker(max_length = 10)]",
        ),
    ),
    row(
        Garde,
        "range",
        "`range(min, max)`",
        How::With(range),
        "`minimum`, `maximum`; the `#[garde]` stays",
        (
            "#[garde(range(min = 1))]",
            "#[garde(range(min = 1))]\n#[kube_marker(minimum = 1)]",
        ),
    ),
    row(
        Garde,
        "pattern",
        "`pattern(\"...\")`",
        How::With(pattern),
        "`pattern` (a regex named by a path is left to you); the `#[garde]` stays",
        (
            r#"#[garde(pattern("^a"))]"#,
            "#[garde(pattern(\"^a\"))]\n#[kube_marker(pattern = \"^a\")]",
        ),
    ),
    row(
        Garde,
        "email",
        "`email`",
        How::With(email),
        "`format = \"email\"`; the `#[garde]` stays",
        (
            "#[garde(email)]",
            "#[garde(email)]\n#[kube_marker(format = \"email\")]",
        ),
    ),
    row(
        Garde,
        "url",
        "`url`",
        How::With(url),
        "`format = \"uri\"`; the `#[garde]` stays",
        (
            "#[garde(url)]",
            "#[garde(url)]\n#[kube_marker(format = \"uri\")]",
        ),
    ),
    row(
        Validate,
        "length",
        "`length(min, max, equal)`",
        How::With(length),
        "as schemars' `length`; the `#[validate]` stays for the check at run time",
        (
            "#[validate(length(min = 1))]",
            "#[validate(length(min = 1))]\n#[kube_marker(min_length = 1)]",
        ),
    ),
    row(
        Validate,
        "range",
        "`range(min, max)`",
        How::With(range),
        "`minimum`, `maximum`; the `#[validate]` stays",
        (
            "#[validate(range(max = 9))]",
            "#[validate(range(max = 9))]\n#[kube_marker(maximum = 9)]",
        ),
    ),
    row(
        Validate,
        "regex",
        "`regex(path = ...)`",
        How::With(pattern),
        "a regex named by a path is known only at run time: write `pattern = \"...\"` with its \
         text; the `#[validate]` stays",
        (
            "#[validate(regex(path = *NAME))]",
            "#[validate(regex(path = *NAME))]",
        ),
    ),
    row(
        Validate,
        "email",
        "`email`",
        How::With(email),
        "`format = \"email\"`; the `#[validate]` stays",
        (
            "#[validate(email)]",
            "#[validate(email)]\n#[kube_marker(format = \"email\")]",
        ),
    ),
    row(
        Serde,
        "default",
        "`default` on a field",
        How::With(serde_default),
        "the `default` schemars wrote for it (`Default::default()` of a list, map, string, \
         number or bool) as `#[kube_marker(default = ...)]`; a `default = \"function\"` is left to \
         you (its value is known at run time); the `#[serde]` stays",
        (
            "#[serde(default)]",
            "#[serde(default)]\n#[kube_marker(default = \"\")]",
        ),
    ),
];
