//! The derive names a field's configuration by its type as written: a type alias of a
//! container, or a type imported under a short name that has no configuration, is refused
//! with the fix.

use kubegen::KubeSchema;
use serde::{Deserialize, Serialize};

#[derive(KubeSchema, Serialize, Deserialize, Clone, Debug)]
pub struct Item {
    pub name: String,
}

type Items = Vec<Item>;

#[derive(KubeSchema, Serialize, Deserialize)]
pub struct Spec {
    pub items: Items,
}

fn main() {}
