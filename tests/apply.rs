//! Apply configurations (feature `apply`): what they serialize, and `extract` over recorded
//! `managedFields`.

use std::collections::BTreeMap;

use k8s_openapi::apimachinery::pkg::apis::meta::v1::Condition;
use kubegen::{ApplySchema, CustomResource, KubeSchema};
use serde::{Deserialize, Serialize};
use serde_json::json;

#[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
#[kube_marker(group = "apply.example.com", version = "v1", kind = "Widget")]
#[kube_marker(status = "WidgetStatus")]
#[serde(rename_all = "camelCase")]
pub struct WidgetSpec {
    pub replicas: i32,
    #[serde(rename = "img")]
    pub image: String,
    #[kube_marker(list_type = "map", list_map_keys = "name")]
    #[serde(default)]
    pub ports: Vec<Port>,
    #[kube_marker(list_type = "set")]
    #[serde(default)]
    pub tags: Vec<String>,
    #[serde(default)]
    pub args: Vec<String>,
    #[serde(default)]
    pub labels: BTreeMap<String, String>,
    #[kube_marker(map_type = "atomic")]
    #[serde(default)]
    pub selector: BTreeMap<String, String>,
    #[serde(flatten)]
    pub extra: Extra,
    pub source: Option<Source>,
    pub mode: Option<Mode>,
    pub r#type: Option<String>,
}

#[derive(KubeSchema, Serialize, Deserialize, Clone, Debug)]
#[serde(rename_all = "camelCase")]
pub struct Port {
    pub name: String,
    pub container_port: i32,
    #[kube_marker(default = "TCP")]
    pub protocol: Option<String>,
}

#[derive(KubeSchema, Serialize, Deserialize, Clone, Debug)]
#[serde(rename_all = "camelCase")]
pub struct Extra {
    pub log_level: Option<String>,
}

/// Internally tagged.
#[derive(KubeSchema, Serialize, Deserialize, Clone, Debug)]
#[serde(tag = "kind", rename_all = "camelCase")]
pub enum Source {
    Git {
        url: String,
        revision: Option<String>,
    },
    Oci(Oci),
}

#[derive(KubeSchema, Serialize, Deserialize, Clone, Debug)]
pub struct Oci {
    pub image: String,
    pub tag: Option<String>,
}

/// Externally tagged, adjacently tagged.
#[derive(KubeSchema, Serialize, Deserialize, Clone, Debug)]
#[serde(rename_all = "lowercase")]
pub enum External {
    Blue { depth: i32 },
    Red(i32),
}

#[derive(KubeSchema, Serialize, Deserialize, Clone, Debug)]
#[serde(tag = "t", content = "c")]
pub enum Adjacent {
    On { level: i32, note: Option<String> },
    Off,
}

#[derive(KubeSchema, Serialize, Deserialize, Clone, Debug, PartialEq)]
pub enum Mode {
    Fast,
    Safe,
}

#[derive(KubeSchema, Serialize, Deserialize, Clone, Debug, Default)]
#[serde(rename_all = "camelCase")]
pub struct WidgetStatus {
    #[kube_marker(list_type = "map", list_map_keys = "type")]
    #[serde(default)]
    pub conditions: Vec<Condition>,
    pub ready_replicas: Option<i32>,
}

#[test]
fn unset_fields_are_left_out_and_renames_are_the_types() {
    let cfg = WidgetApply::new("w").with_namespace("ns").with_spec(
        WidgetSpecApply::default()
            .with_image("nginx")
            .with_type("x")
            .with_extra(ExtraApply::default().with_log_level("debug")),
    );
    assert_eq!(
        serde_json::to_value(&cfg).unwrap(),
        json!({
            "apiVersion": "apply.example.com/v1",
            "kind": "Widget",
            "metadata": {"name": "w", "namespace": "ns"},
            "spec": {"img": "nginx", "type": "x", "logLevel": "debug"}
        })
    );
    // Nothing set: only what identifies the object.
    assert_eq!(
        serde_json::to_value(WidgetApply::new("w")).unwrap(),
        json!({"apiVersion": "apply.example.com/v1", "kind": "Widget", "metadata": {"name": "w"}})
    );
}

/// The name and namespace take what every `with_<field>` takes: `&str`, `String`, `&String`.
#[test]
fn name_and_namespace_take_any_string() {
    let (name, namespace) = (String::from("w"), String::from("ns"));
    let borrowed = WidgetApply::new(&name).with_namespace(&namespace);
    let owned = WidgetApply::new(name).with_namespace(namespace);
    let metadata = json!({"name": "w", "namespace": "ns"});
    assert_eq!(
        serde_json::to_value(&borrowed).unwrap()["metadata"],
        metadata
    );
    assert_eq!(serde_json::to_value(&owned).unwrap()["metadata"], metadata);
}

#[test]
fn every_enum_tagging_is_the_types() {
    let git = SourceApply::Git {
        url: None,
        revision: Some("main".into()),
    };
    assert_eq!(
        serde_json::to_value(&git).unwrap(),
        json!({"kind": "git", "revision": "main"})
    );
    let oci = SourceApply::Oci(OciApply::default().with_tag("1"));
    assert_eq!(
        serde_json::to_value(&oci).unwrap(),
        json!({"kind": "oci", "tag": "1"})
    );
    let blue = ExternalApply::Blue { depth: None };
    assert_eq!(serde_json::to_value(&blue).unwrap(), json!({"blue": {}}));
    assert_eq!(
        serde_json::to_value(ExternalApply::Red(3)).unwrap(),
        json!({"red": 3})
    );
    let on = AdjacentApply::On {
        level: Some(2),
        note: None,
    };
    assert_eq!(
        serde_json::to_value(&on).unwrap(),
        json!({"t": "On", "c": {"level": 2}})
    );
    assert_eq!(
        serde_json::to_value(AdjacentApply::Off).unwrap(),
        json!({"t": "Off"})
    );
    // A unit-only enum is applied whole: its configuration is itself.
    let mode: ModeApply = Mode::Safe.into();
    assert_eq!(serde_json::to_value(&mode).unwrap(), json!("Safe"));
    // And they read back.
    let back: SourceApply = serde_json::from_value(json!({"kind": "git", "url": "u"})).unwrap();
    assert_eq!(
        back,
        SourceApply::Git {
            url: Some("u".into()),
            revision: None
        }
    );
}

#[test]
fn list_map_items_must_carry_their_keys() {
    let keyless =
        WidgetSpecApply::default().with_ports(vec![PortApply::default().with_container_port(80)]);
    let e = serde_json::to_value(&keyless).unwrap_err().to_string();
    assert_eq!(
        e,
        "item 0 of the list map `ports` has no `name`: the items of a list map must carry their keys (name), or the API server rejects the apply"
    );
    // A key with a default in the schema may be left out: the API server fills it in.
    let keyed = WidgetSpecApply::default().with_ports(vec![
        PortApply::default()
            .with_name("http")
            .with_container_port(80),
    ]);
    assert_eq!(
        serde_json::to_value(&keyed).unwrap(),
        json!({"ports": [{"name": "http", "containerPort": 80}]})
    );
}

fn widget(managed: serde_json::Value) -> Widget {
    serde_json::from_value(json!({
        "apiVersion": "apply.example.com/v1",
        "kind": "Widget",
        "metadata": {"name": "w", "namespace": "ns", "managedFields": managed},
        "spec": {
            "replicas": 3,
            "img": "nginx",
            "ports": [
                {"name": "http", "containerPort": 80, "protocol": "TCP"},
                {"name": "metrics", "containerPort": 9090, "protocol": "TCP"}
            ],
            "tags": ["a", "b"],
            "args": ["--x"],
            "labels": {"mine": "1", "theirs": "2"},
            "selector": {"app": "w"},
            "logLevel": "info",
            "source": {"kind": "git", "url": "https://x", "revision": "main"}
        },
        "status": {
            "conditions": [{"type": "Ready", "status": "True", "reason": "R", "message": "m",
                "lastTransitionTime": "2026-01-01T00:00:00Z"}],
            "readyReplicas": 3
        }
    }))
    .unwrap()
}

fn entry(manager: &str, subresource: Option<&str>, fields: serde_json::Value) -> serde_json::Value {
    let mut e = json!({"manager": manager, "operation": "Apply", "apiVersion": "apply.example.com/v1",
        "fieldsType": "FieldsV1", "fieldsV1": fields});
    if let Some(s) = subresource {
        e["subresource"] = json!(s);
    }
    e
}

#[test]
fn extract_returns_exactly_the_managers_fields() {
    let obj = widget(json!([
        entry(
            "a",
            None,
            json!({
                "f:spec": {
                    "f:replicas": {},
                    "f:ports": {"k:{\"name\":\"metrics\"}": {".": {}, "f:containerPort": {}}},
                    "f:tags": {"v:\"b\"": {}},
                    "f:args": {},
                    "f:labels": {"f:mine": {}},
                    "f:selector": {},
                    "f:logLevel": {},
                    "f:source": {"f:kind": {}, "f:revision": {}}
                },
                "f:metadata": {"f:labels": {}}
            })
        ),
        entry(
            "b",
            None,
            json!({"f:spec": {"f:img": {}, "f:labels": {"f:theirs": {}}}})
        ),
        entry(
            "a",
            Some("status"),
            json!({"f:status": {"f:readyReplicas": {}}})
        ),
    ]));
    let a = WidgetApply::extract(&obj, "a").unwrap();
    assert_eq!(
        serde_json::to_value(&a).unwrap(),
        json!({
            "apiVersion": "apply.example.com/v1", "kind": "Widget",
            "metadata": {"name": "w", "namespace": "ns"},
            "spec": {
                "replicas": 3,
                "ports": [{"name": "metrics", "containerPort": 9090}],
                "tags": ["b"],
                "args": ["--x"],
                "labels": {"mine": "1"},
                "selector": {"app": "w"},
                "logLevel": "info",
                "source": {"kind": "git", "revision": "main"}
            }
        })
    );
    let b = WidgetApply::extract(&obj, "b").unwrap();
    assert_eq!(
        b.spec,
        Some(
            WidgetSpecApply::default()
                .with_image("nginx")
                .with_labels(BTreeMap::from([("theirs".to_string(), "2".to_string())]))
        )
    );
    assert_eq!(b.status, None);
    let status = WidgetApply::extract_status(&obj, "a").unwrap();
    assert_eq!(status.spec, None);
    assert_eq!(
        status.status,
        Some(WidgetStatusApply::default().with_ready_replicas(3))
    );
    // A manager that owns nothing gets the bare identity.
    assert_eq!(
        WidgetApply::extract(&obj, "c").unwrap(),
        WidgetApply::new("w").with_namespace("ns")
    );
}

#[test]
fn extract_refuses_fields_the_type_does_not_know_and_malformed_entries() {
    let obj = widget(json!([entry(
        "a",
        None,
        json!({"f:spec": {"f:replicaz": {}}})
    )]));
    assert_eq!(
        WidgetApply::extract(&obj, "a").unwrap_err().to_string(),
        "managedFields names `replicaz` at `.spec`, which the type does not have (fields there: \
         replicas, img, ports, tags, args, labels, selector, logLevel, source, mode, type)"
    );
    let obj = widget(json!([entry(
        "a",
        None,
        json!({"f:spec": {"f:args": {"k:{\"name\":\"x\"}": {}}}})
    )]));
    let e = WidgetApply::extract(&obj, "a").unwrap_err().to_string();
    assert!(
        e.starts_with("malformed managedFields at `.spec.args`"),
        "{e}"
    );
    let obj = widget(json!([{"manager": "a", "operation": "Apply", "fieldsType": "FieldsV1"}]));
    assert!(WidgetApply::extract(&obj, "a").is_err());
}

#[test]
fn derived_types_and_kubernetes_types_have_configurations() {
    // `ApplySchema::Apply` names each type's configuration; containers hold their contents'.
    // Compiles only when `T`'s configuration is `C`.
    fn config_is<T: ApplySchema<Apply = C>, C>() {}
    config_is::<Port, PortApply>();
    config_is::<Condition, Condition>();
    config_is::<String, String>();
    config_is::<Vec<Port>, Vec<PortApply>>();
    config_is::<BTreeMap<String, Option<Box<Port>>>, BTreeMap<String, Option<Box<PortApply>>>>();
}

#[test]
fn a_whole_value_becomes_the_configuration_of_every_field_it_serializes() {
    let status = WidgetStatus {
        conditions: Vec::new(),
        ready_replicas: Some(2),
    };
    let cfg = kubegen::apply::configuration(&status).unwrap();
    assert_eq!(
        cfg,
        WidgetStatusApply::default()
            .with_conditions(Vec::<Condition>::new())
            .with_ready_replicas(2)
    );
}

/// A field's configuration follows its type, so aliases and short imports resolve.
mod aliases {
    use super::*;

    type Ports = Vec<Port>;
    type Labels = BTreeMap<String, String>;

    #[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
    #[kube_marker(group = "apply.example.com", version = "v1", kind = "Gadget")]
    pub struct GadgetSpec {
        #[kube_marker(list_type = "map", list_map_keys = "name")]
        pub ports: Ports,
        pub more: Option<Ports>,
        #[kube_marker(map_type = "atomic")]
        pub labels: Labels,
        #[cfg(feature = "chrono")]
        pub since: Option<chrono_short::DateTime<chrono_short::Utc>>,
    }

    /// chrono's types under their short names.
    #[cfg(feature = "chrono")]
    mod chrono_short {
        pub use chrono::{DateTime, Utc};
    }

    #[test]
    fn aliases_of_containers_hold_configurations() {
        let port = || {
            PortApply::default()
                .with_name("http")
                .with_container_port(80)
        };
        let spec = GadgetSpecApply::default()
            .with_ports(vec![port()])
            .with_more(vec![port()])
            .with_labels(Labels::from([("a".into(), "b".into())]));
        assert_eq!(
            serde_json::to_value(&spec).unwrap(),
            json!({
                "ports": [{"name": "http", "containerPort": 80}],
                "more": [{"name": "http", "containerPort": 80}],
                "labels": {"a": "b"}
            })
        );
        // The list map behind the alias still refuses an item without its key.
        let keyless = GadgetSpecApply::default().with_ports(vec![PortApply::default()]);
        let e = serde_json::to_value(&keyless).unwrap_err().to_string();
        assert!(
            e.contains("item 0 of the list map `ports` has no `name`"),
            "{e}"
        );
    }

    #[cfg(feature = "chrono")]
    #[test]
    fn chrono_types_under_short_names_are_their_own() {
        let since: chrono::DateTime<chrono::Utc> = "2026-01-02T03:04:05Z".parse().unwrap();
        let spec = GadgetSpecApply::default().with_since(since);
        assert_eq!(
            serde_json::to_value(&spec).unwrap(),
            json!({"since": "2026-01-02T03:04:05Z"})
        );
    }

    #[test]
    fn extract_follows_the_markers_of_aliased_fields() {
        let obj: Gadget = serde_json::from_value(json!({
            "apiVersion": "apply.example.com/v1",
            "kind": "Gadget",
            "metadata": {"name": "g", "managedFields": [entry("a", None, json!({"f:spec": {
                "f:ports": {"k:{\"name\":\"http\"}": {".": {}, "f:name": {}, "f:containerPort": {}}},
                "f:labels": {}
            }}))]},
            "spec": {
                "ports": [
                    {"name": "http", "containerPort": 80},
                    {"name": "admin", "containerPort": 81}
                ],
                "labels": {"a": "b"}
            }
        }))
        .unwrap();
        let mine = GadgetApply::extract(&obj, "a").unwrap();
        assert_eq!(
            serde_json::to_value(mine.spec.unwrap()).unwrap(),
            json!({"ports": [{"name": "http", "containerPort": 80}], "labels": {"a": "b"}})
        );
    }
}

/// Enum configurations under every tagging read and write the type's own JSON: a value of the
/// type, serialized by its own serde derive, becomes the configuration that sets all of it
/// (`configuration`), which serializes to the same JSON without its `null`s.
mod enums {
    use super::*;

    #[derive(KubeSchema, Serialize, Deserialize, Clone, Debug)]
    #[serde(rename_all = "kebab-case", rename_all_fields = "camelCase")]
    pub enum Ext {
        StructVariant {
            inner_field: i32,
            #[serde(rename = "x")]
            other: Option<String>,
        },
        Newtype(Oci),
        #[serde(rename = "bare")]
        Empty {},
    }

    #[derive(KubeSchema, Serialize, Deserialize, Clone, Debug)]
    #[serde(tag = "type", rename_all = "UPPERCASE")]
    pub enum Int {
        Git {
            url: String,
            #[kube_marker(list_type = "map", list_map_keys = "name")]
            #[serde(default)]
            ports: Vec<Port>,
        },
        Oci(Oci),
        Off,
    }

    #[derive(KubeSchema, Serialize, Deserialize, Clone, Debug)]
    #[serde(tag = "t", content = "c", rename_all_fields = "SCREAMING_SNAKE_CASE")]
    pub enum Adj {
        On {
            some_level: i32,
            #[serde(flatten)]
            extra: Extra,
        },
        Boxed(Box<Oci>),
        Off,
    }

    /// `value`'s JSON, and its configuration's after a round trip through JSON.
    fn both<T>(value: &T) -> (serde_json::Value, serde_json::Value)
    where
        T: ApplySchema + Serialize,
        T::Apply: Serialize + serde::de::DeserializeOwned + PartialEq + std::fmt::Debug,
    {
        let json = serde_json::to_value(value).unwrap();
        let cfg = kubegen::apply::configuration(value).unwrap();
        let text = serde_json::to_string(&cfg).unwrap();
        let back: T::Apply = serde_json::from_str(&text).unwrap();
        assert_eq!(back, cfg, "{text}");
        (json, serde_json::to_value(&cfg).unwrap())
    }

    #[test]
    fn every_variant_shape_round_trips_under_every_tagging() {
        let oci = || Oci {
            image: "i".into(),
            tag: Some("1".into()),
        };
        let values: Vec<(serde_json::Value, serde_json::Value)> = vec![
            both(&Ext::StructVariant {
                inner_field: 1,
                other: Some("o".into()),
            }),
            both(&Ext::StructVariant {
                inner_field: 1,
                other: None,
            }),
            both(&Ext::Newtype(oci())),
            both(&Ext::Empty {}),
            both(&Int::Git {
                url: "u".into(),
                ports: vec![Port {
                    name: "http".into(),
                    container_port: 80,
                    protocol: None,
                }],
            }),
            both(&Int::Oci(oci())),
            both(&Int::Off),
            both(&Adj::On {
                some_level: 2,
                extra: Extra {
                    log_level: Some("debug".into()),
                },
            }),
            both(&Adj::Boxed(Box::new(oci()))),
            both(&Adj::Off),
        ];
        // The configuration leaves out what is `None` (the type writes `null`), and is the same
        // JSON otherwise.
        fn without_nulls(json: &serde_json::Value) -> serde_json::Value {
            match json {
                serde_json::Value::Object(fields) => fields
                    .iter()
                    .filter(|(_, v)| !v.is_null())
                    .map(|(k, v)| (k.clone(), without_nulls(v)))
                    .collect(),
                serde_json::Value::Array(items) => items.iter().map(without_nulls).collect(),
                other => other.clone(),
            }
        }
        for (json, cfg) in &values {
            assert_eq!(&without_nulls(json), cfg);
        }
        // What the type's own serde writes, spelled out once.
        let jsons: Vec<&serde_json::Value> = values.iter().map(|(j, _)| j).collect();
        assert_eq!(
            jsons,
            [
                &json!({"struct-variant": {"innerField": 1, "x": "o"}}),
                &json!({"struct-variant": {"innerField": 1, "x": null}}),
                &json!({"newtype": {"image": "i", "tag": "1"}}),
                &json!({"bare": {}}),
                &json!({"type": "GIT", "url": "u", "ports": [{"name": "http", "containerPort": 80, "protocol": null}]}),
                &json!({"type": "OCI", "image": "i", "tag": "1"}),
                &json!({"type": "OFF"}),
                &json!({"t": "On", "c": {"SOME_LEVEL": 2, "logLevel": "debug"}}),
                &json!({"t": "Boxed", "c": {"image": "i", "tag": "1"}}),
                &json!({"t": "Off"}),
            ]
        );
    }

    #[test]
    fn unset_fields_are_left_out_and_the_json_reads_back() {
        let cases = [
            (
                serde_json::to_value(ExtApply::StructVariant {
                    inner_field: None,
                    other: Some("o".into()),
                })
                .unwrap(),
                json!({"struct-variant": {"x": "o"}}),
            ),
            (
                serde_json::to_value(ExtApply::Empty {}).unwrap(),
                json!({"bare": {}}),
            ),
            (
                serde_json::to_value(IntApply::Git {
                    url: None,
                    ports: None,
                })
                .unwrap(),
                json!({"type": "GIT"}),
            ),
            (
                serde_json::to_value(IntApply::Oci(OciApply::default())).unwrap(),
                json!({"type": "OCI"}),
            ),
            (
                serde_json::to_value(AdjApply::On {
                    some_level: None,
                    extra: Some(ExtraApply::default().with_log_level("info")),
                })
                .unwrap(),
                json!({"t": "On", "c": {"logLevel": "info"}}),
            ),
            (
                serde_json::to_value(AdjApply::Boxed(Box::new(OciApply::default().with_tag("2"))))
                    .unwrap(),
                json!({"t": "Boxed", "c": {"tag": "2"}}),
            ),
        ];
        for (written, expected) in cases {
            assert_eq!(written, expected);
        }
        let read = |json: serde_json::Value| serde_json::from_value::<AdjApply>(json);
        assert_eq!(
            read(json!({"c": {"SOME_LEVEL": 3}, "t": "On"})).unwrap(),
            AdjApply::On {
                some_level: Some(3),
                extra: None,
            }
        );
        assert_eq!(read(json!({"t": "Off"})).unwrap(), AdjApply::Off);
        assert_eq!(
            serde_json::from_value::<ExtApply>(json!({"newtype": {"image": "i"}})).unwrap(),
            ExtApply::Newtype(OciApply::default().with_image("i"))
        );
        assert_eq!(
            serde_json::from_value::<IntApply>(json!({"url": "u", "type": "GIT"})).unwrap(),
            IntApply::Git {
                url: Some("u".into()),
                ports: None,
            }
        );
    }

    #[test]
    fn what_is_not_a_variant_is_refused() {
        let e = serde_json::from_value::<IntApply>(json!({"type": "SVN"})).unwrap_err();
        assert_eq!(
            e.to_string(),
            "unknown variant `SVN`, expected one of `GIT`, `OCI`, `OFF`"
        );
        let e = serde_json::from_value::<IntApply>(json!({"url": "u"})).unwrap_err();
        assert_eq!(e.to_string(), "missing field `type`");
        let e = serde_json::from_value::<AdjApply>(json!({"t": "Boxed"})).unwrap_err();
        assert_eq!(e.to_string(), "missing field `c`");
        let e = serde_json::from_value::<ExtApply>(json!({"bare": {}, "newtype": {}})).unwrap_err();
        assert!(e.to_string().contains("an object with one entry"), "{e}");
        // A list map item in a variant must carry its keys, as in a struct.
        let keyless = IntApply::Git {
            url: None,
            ports: Some(vec![PortApply::default().with_container_port(80)]),
        };
        let e = serde_json::to_value(&keyless).unwrap_err().to_string();
        assert!(
            e.starts_with("item 0 of the list map `ports` has no `name`"),
            "{e}"
        );
    }

    #[test]
    fn clone_equality_and_debug_are_the_derived_ones() {
        let on = AdjApply::On {
            some_level: Some(1),
            extra: None,
        };
        assert_eq!(on.clone(), on);
        assert_ne!(on, AdjApply::Off);
        assert_ne!(
            on,
            AdjApply::On {
                some_level: Some(2),
                extra: None
            }
        );
        assert_eq!(format!("{on:?}"), "On { some_level: Some(1), extra: None }");
        assert_eq!(format!("{:?}", AdjApply::Off), "Off");
        assert_eq!(
            format!("{:?}", ExtApply::Newtype(OciApply::default())),
            "Newtype(OciApply { image: None, tag: None })"
        );
    }
}
