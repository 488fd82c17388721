//! A field's configuration is its type's `ApplySchema::Apply`, so the compiler resolves type
//! aliases of containers of derived types and types imported under short names.

use std::collections::BTreeMap;

use kubegen::KubeSchema;
use serde::{Deserialize, Serialize};
use serde_json::json;

#[derive(KubeSchema, Serialize, Deserialize, Clone, Debug)]
pub struct Item {
    pub name: String,
}

type Items = Vec<Item>;
type ByName = BTreeMap<String, Option<Item>>;

mod short {
    pub use k8s_openapi::apimachinery::pkg::apis::meta::v1::Time as Stamp;
}

#[derive(KubeSchema, Serialize, Deserialize)]
pub struct Spec {
    pub items: Items,
    pub by_name: Option<ByName>,
    pub at: Option<short::Stamp>,
}

#[test]
fn serializes() {
    let items: Vec<ItemApply> = vec![ItemApply::default().with_name("a")];
    let by_name: BTreeMap<String, Option<ItemApply>> = BTreeMap::from([("b".into(), None)]);
    let spec = SpecApply::default().with_items(items).with_by_name(by_name);
    assert_eq!(
        serde_json::to_value(&spec).unwrap(),
        json!({"items": [{"name": "a"}], "by_name": {"b": null}})
    );
}
