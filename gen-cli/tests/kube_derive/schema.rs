//! Ported from kube-rs's `examples/crd_derive_schema.rs` and kube-derive's
//! `tests/crd_schema_test.rs`: schemars' validation keys, serde defaults and renames, a raw
//! JSON print column, metadata annotations and labels, and a cluster-scoped kind.

use std::collections::BTreeMap;

use kube::{CustomResource, CustomResourceExt};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

#[derive(CustomResource, Serialize, Deserialize, Debug, Clone, JsonSchema)]
#[kube(
    group = "clux.dev",
    version = "v1",
    kind = "Bar",
    shortname = "br",
    shortname = "bars",
    category = "all",
    annotation("clux.dev/owner", "team-a"),
    label("clux.dev/tier", "api"),
    printcolumn = r#"{"name":"Team","type":"string","jsonPath":".spec.team","priority":1}"#
)]
#[serde(rename_all = "camelCase")]
pub struct BarSpec {
    /// The team that owns the bar.
    #[schemars(length(min = 1, max = 63), regex(pattern = r"^[a-z]+$"))]
    team: String,
    #[serde(default = "default_size")]
    #[schemars(range(min = 1, max = 10))]
    size: i32,
    #[schemars(length(max = 5), inner(length(max = 8)))]
    #[serde(default)]
    tags: Vec<String>,
    #[schemars(email)]
    contact: Option<String>,
    #[schemars(description = "Where it lives.")]
    location: Option<Location>,
    #[serde(default)]
    labels: BTreeMap<String, String>,
    #[schemars(skip)]
    #[serde(skip)]
    cache: Option<String>,
}

#[derive(Serialize, Deserialize, Debug, Clone, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Location {
    #[schemars(title = "Region")]
    region: String,
    zone_count: u32,
    #[schemars(rename = "rackID")]
    rack_id: Option<i64>,
}

fn default_size() -> i32 {
    3
}

/// The CRD, as a `crdgen` binary prints it.
pub fn crd_json() -> String {
    serde_json::to_string_pretty(&Bar::crd()).unwrap()
}
