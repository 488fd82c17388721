//! Resource markers: the keys of a `#[derive(CustomResource)]` spec struct that describe one
//! version of a custom resource (names, scope, subresources, printer columns, ...).

use serde::{Deserialize, Serialize};

use super::{Loc, Shape};

/// One version of a custom resource: its markers and the shapes of its spec and status, as
/// `CustomResource::resource()` returns it for `kubegen::crd_for` and `kubegen::check_crds`.
/// What it holds is the engine's (hidden from kubegen's documentation, not a stable API).
#[derive(Clone, Debug)]
pub struct ResourceDef {
    /// The spec struct's resource keys.
    #[doc(hidden)]
    pub markers: ResourceMarkers,
    /// The spec struct.
    #[doc(hidden)]
    pub spec: Shape,
    /// The status type, when `status` is set.
    #[doc(hidden)]
    pub status: Option<Shape>,
}

/// `conversion(webhook(...))`: the API server converts between versions by calling this
/// webhook. Either `url` or the service (`service_*` and `path`) is used.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Conversion {
    /// The service path; default [`Conversion::DEFAULT_PATH`] (unless `url` is given).
    pub path: Option<String>,
    /// A URL instead of the service.
    pub url: Option<String>,
    /// The service's name; default `webhook-service`.
    pub service_name: Option<String>,
    /// The service's namespace; default `system`.
    pub service_namespace: Option<String>,
    /// The service's port; `None` leaves the API server's default (443).
    pub service_port: Option<i32>,
    /// `conversionReviewVersions`; default `["v1"]`.
    pub review_versions: Vec<String>,
}

impl Conversion {
    /// The path when neither `path` nor `url` is given.
    pub const DEFAULT_PATH: &str = "/convert";
}

/// The resource keys of one spec struct (one CRD version).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ResourceMarkers {
    /// API group, e.g. `cache.example.com`.
    pub group: String,
    /// Version name, e.g. `v1alpha1`.
    pub version: String,
    /// Kind, e.g. `Memcached`.
    pub kind: String,
    /// `plural`; default: the English plural of the lowercased kind.
    pub plural: Option<String>,
    /// `singular`; default: the lowercased kind.
    pub singular: Option<String>,
    /// `scope`; default `Namespaced`.
    pub scope: Option<Scope>,
    /// `short_names`
    pub short_names: Option<Vec<String>>,
    /// `categories`
    pub categories: Option<Vec<String>>,
    /// `optional` on the spec struct: `spec` is not in the root's `required`, and the root
    /// type's `spec` is an `Option`.
    pub spec_optional: bool,
    /// `status = "TypePath"`: the status type as written.
    pub status: Option<String>,
    /// `status_subresource`; default: whether `status` is given.
    pub status_subresource: Option<bool>,
    /// `scale(...)`
    pub scale: Option<Scale>,
    /// `printcolumn(...)`, in source order.
    pub printcolumns: Vec<PrintColumn>,
    /// `storage_version`
    pub storage_version: bool,
    /// `served`; default true.
    pub served: Option<bool>,
    /// `skip_version`
    pub skip_version: bool,
    /// `deprecated` / `deprecated(warning = "...")`
    pub deprecated: Option<Deprecation>,
    /// `selectable_field(json_path)`, in source order.
    pub selectable_fields: Vec<SelectableField>,
    /// `annotations`: `k=v` pairs for the CRD object.
    pub annotations: Option<Vec<(String, String)>>,
    /// `labels`: `k=v` pairs for the CRD object.
    pub labels: Option<Vec<(String, String)>>,
    /// `doc`: the description of the root schema.
    pub doc: Option<String>,
    /// `derive`: extra derives on the generated root type.
    pub derive: Vec<String>,
    /// `conversion(webhook(...))`: the CRD's conversion webhook (CRD-wide).
    pub conversion: Option<Conversion>,
    /// Where the spec struct is, for errors that span versions.
    pub loc: Option<Loc>,
}

impl ResourceMarkers {
    /// The plural name: `plural`, or the English plural of the kind, lowercased.
    pub fn plural(&self) -> String {
        match &self.plural {
            Some(p) => p.clone(),
            None => crate::names::resource_plural(&self.kind),
        }
    }

    /// The singular name: `singular`, or the lowercased kind.
    pub fn singular(&self) -> String {
        self.singular
            .clone()
            .unwrap_or_else(|| self.kind.to_lowercase())
    }

    /// Whether the version has the status subresource: `status_subresource`, else whether it
    /// has a status type.
    pub fn has_status_subresource(&self) -> bool {
        self.status_subresource.unwrap_or(self.status.is_some())
    }

    /// The scope, `Namespaced` by default.
    pub fn scope(&self) -> Scope {
        self.scope.unwrap_or(Scope::Namespaced)
    }

    /// The objects' `apiVersion`.
    pub fn api_version(&self) -> String {
        crate::names::api_version(&self.group, &self.version)
    }

    /// The CRD's name, `<plural>.<group>`.
    pub fn crd_name(&self) -> String {
        format!("{}.{}", self.plural(), self.group)
    }
}

/// Whether objects live in a namespace.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Scope {
    /// Objects live in a namespace.
    Namespaced,
    /// Objects are cluster-wide.
    Cluster,
}

impl Scope {
    /// The value written in the CRD.
    pub fn as_str(self) -> &'static str {
        match self {
            Scope::Namespaced => "Namespaced",
            Scope::Cluster => "Cluster",
        }
    }
}

/// `scale(spec_path, status_path, selector_path)`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scale {
    /// JSON path of the desired replicas, e.g. `.spec.size`.
    pub spec_path: String,
    /// JSON path of the observed replicas, e.g. `.status.replicas`.
    pub status_path: String,
    /// JSON path of the label selector (a string), e.g. `.status.selector`.
    pub selector_path: Option<String>,
    /// Where `spec_path`'s value is written.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub spec_path_loc: Option<Loc>,
    /// Where `status_path`'s value is written.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status_path_loc: Option<Loc>,
    /// Where `selector_path`'s value is written.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub selector_path_loc: Option<Loc>,
}

/// `printcolumn(name, type, json_path, description, format, priority)`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PrintColumn {
    /// Column header.
    pub name: String,
    /// `integer`, `number`, `string`, `boolean` or `date`; inferred from the schema at
    /// `json_path` when not given.
    #[serde(rename = "type")]
    pub type_: Option<String>,
    /// JSON path of the value, e.g. `.spec.size`.
    pub json_path: String,
    /// Column description.
    pub description: Option<String>,
    /// OpenAPI format of the value.
    pub format: Option<String>,
    /// 0 shows the column in the standard view; higher only in wide views.
    pub priority: Option<i32>,
    /// Where `json_path`'s value is written.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub loc: Option<Loc>,
}

/// `selectable_field(json_path)`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SelectableField {
    /// JSON path of the field, e.g. `.spec.phase`.
    pub json_path: String,
    /// Where `json_path`'s value is written.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub loc: Option<Loc>,
}

/// A resource key that names a JSON path, for errors about it.
pub trait PathKey {
    /// How errors name the key: `printcolumn `Size``, `scale`, `selectable_field`.
    fn site(&self) -> String;
}

impl PathKey for PrintColumn {
    fn site(&self) -> String {
        format!("printcolumn `{}`", self.name)
    }
}

impl PathKey for Scale {
    fn site(&self) -> String {
        "scale".to_string()
    }
}

impl PathKey for SelectableField {
    fn site(&self) -> String {
        "selectable_field".to_string()
    }
}

/// `deprecated` / `deprecated(warning = "...")`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Deprecation {
    /// The warning returned to clients using this version.
    pub warning: Option<String>,
}
