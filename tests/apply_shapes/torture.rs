//! Every shape the apply configurations support, compiled and serialized.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use k8s_openapi::api::core::v1::{ContainerPort, PodSpec};
use kubegen::apply::Whole;
use kubegen::{CustomResource, KubeSchema};
use serde::{Deserialize, Serialize};
use serde_json::json;

#[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
#[kube_marker(group = "torture.example.com", version = "v1", kind = "Torture")]
#[kube_marker(status = "TortureStatus", namespaced = false)]
#[serde(rename_all = "camelCase")]
pub struct TortureSpec {
    pub r#type: String,
    pub r#match: Option<bool>,
    pub nested: Option<Vec<Box<Leaf>>>,
    pub by_name: BTreeMap<String, Vec<Leaf>>,
    pub hashed: HashMap<String, Leaf>,
    #[kube_marker(list_type = "map", list_map_keys = "name")]
    pub k8s_ports: Vec<ContainerPort>,
    pub pod: Option<PodSpec>,
    pub full_path: Option<k8s_openapi::api::core::v1::ResourceRequirements>,
    pub any: serde_json::Value,
    pub set: BTreeSet<String>,
    pub fixed: [i32; 2],
    pub small: u16,
    #[serde(skip)]
    pub hidden: i32,
    #[serde(flatten)]
    pub extra: BTreeMap<String, String>,
    pub external: External,
    pub adjacent: Option<Adjacent>,
    pub untagged: Untagged,
    pub unit: Unit,
    pub maybe_unit: Option<Unit>,
    pub maybe_leaf: Option<Leaf>,
    pub name: Name,
    pub stringly: Stringly,
    #[kube_marker(schemaless)]
    pub raw: Raw,
}

#[derive(KubeSchema, Serialize, Deserialize, Clone, Debug)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub struct Leaf {
    pub some_value: i64,
}

#[derive(KubeSchema, Serialize, Deserialize, Clone, Debug)]
#[serde(rename_all = "kebab-case", rename_all_fields = "camelCase")]
pub enum External {
    StructVariant {
        inner_field: i32,
        #[serde(rename = "x")]
        other: Option<String>,
    },
    Newtype(Leaf),
    Plain {},
    #[serde(skip)]
    Never,
}

#[derive(KubeSchema, Serialize, Deserialize, Clone, Debug)]
#[serde(tag = "kind", content = "spec")]
pub enum Adjacent {
    A { one: i32 },
    B(Leaf),
}

#[derive(KubeSchema, Serialize, Deserialize, Clone, Debug)]
#[serde(untagged)]
pub enum Untagged {
    Number(i32),
    Text(String),
}

#[derive(KubeSchema, Serialize, Deserialize, Clone, Debug)]
pub enum Unit {
    On,
    Off,
}

#[derive(KubeSchema, Serialize, Deserialize, Clone, Debug)]
#[serde(transparent)]
pub struct Name(pub String);

#[derive(KubeSchema, Serialize, Deserialize, Clone, Debug)]
#[kube_marker(schema_type = "string")]
pub struct Stringly {
    pub text: String,
}

#[derive(Serialize, Deserialize, Clone, Debug)]
pub struct Raw {
    pub anything: i32,
}

#[derive(KubeSchema, Serialize, Deserialize, Clone, Debug, Default)]
pub struct TortureStatus {
    pub ok: bool,
}

/// Documented types: `missing_docs` judges only what the derive generates beside them.
#[deny(missing_docs)]
pub mod documented {
    use kubegen::KubeSchema;
    use serde::{Deserialize, Serialize};

    /// A documented enum.
    #[derive(KubeSchema, Serialize, Deserialize, Clone, Debug)]
    #[serde(tag = "type")]
    pub enum Choice {
        /// One.
        One {
            /// The value.
            value: i32,
        },
        /// Two.
        Two(Item),
    }

    /// A documented struct.
    #[derive(KubeSchema, Serialize, Deserialize, Clone, Debug)]
    pub struct Item {
        /// Its name.
        pub name: String,
        /// Keyed items.
        #[kube_marker(list_type = "map", list_map_keys = "name")]
        pub items: Vec<Item2>,
    }

    /// Another documented struct.
    #[derive(KubeSchema, Serialize, Deserialize, Clone, Debug)]
    pub struct Item2 {
        /// Its name.
        pub name: String,
    }
}

#[test]
fn serializes() {
    let spec = TortureSpecApply::default()
        .with_type("t")
        .with_match(true)
        .with_nested(vec![Box::new(LeafApply::default().with_some_value(1))])
        .with_by_name(BTreeMap::from([(
            "a".to_string(),
            vec![LeafApply::default()],
        )]))
        .with_k8s_ports(vec![ContainerPort {
            container_port: 80,
            ..Default::default()
        }])
        .with_set(BTreeSet::from(["x".to_string()]))
        .with_fixed([1, 2])
        .with_small(7u16)
        .with_extra(BTreeMap::from([("free".to_string(), "form".to_string())]))
        .with_external(ExternalApply::StructVariant {
            inner_field: Some(1),
            other: None,
        })
        .with_adjacent(AdjacentApply::B(LeafApply::default()))
        .with_untagged(Untagged::Text("u".into()))
        .with_unit(Unit::Off)
        .with_maybe_unit(Unit::Off)
        .with_maybe_leaf(LeafApply::default().with_some_value(2))
        .with_name(Name("n".into()))
        .with_raw(Whole::from(Raw { anything: 3 }));
    let cfg = TortureApply::new("t")
        .with_spec(spec)
        .with_status(TortureStatusApply::default().with_ok(true));
    assert_eq!(
        serde_json::to_value(&cfg).unwrap(),
        json!({
            "apiVersion": "torture.example.com/v1",
            "kind": "Torture",
            "metadata": {"name": "t"},
            "spec": {
                "type": "t", "match": true,
                "nested": [{"SOME_VALUE": 1}],
                "byName": {"a": [{}]},
                "k8sPorts": [{"containerPort": 80}],
                "set": ["x"], "fixed": [1, 2], "small": 7,
                "free": "form",
                "external": {"struct-variant": {"innerField": 1}},
                "adjacent": {"kind": "B", "spec": {}},
                "untagged": "u", "unit": "Off", "maybeUnit": "Off",
                "maybeLeaf": {"SOME_VALUE": 2}, "name": "n",
                "raw": {"anything": 3}
            },
            "status": {"ok": true}
        })
    );
    let plain = ExternalApply::Plain {};
    assert_eq!(serde_json::to_value(&plain).unwrap(), json!({"plain": {}}));
    let _: Option<StringlyApply> = None;
    let _: PodSpec = TortureSpecApply::default().pod.unwrap_or_default();
}
