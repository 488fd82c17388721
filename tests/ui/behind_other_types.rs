//! Keys whose fit depends on another type are checked against that type's compile-time
//! `KIND`/`INFO`: the syntax of this struct alone cannot tell.

use kubegen::KubeSchema;

#[derive(KubeSchema, serde::Serialize)]
pub struct Item {
    pub name: Option<String>,
    pub tags: Vec<String>,
    pub id: String,
}

/// A string at least four long.
#[derive(KubeSchema, serde::Serialize)]
#[serde(transparent)]
pub struct Word(pub String);

type Items = Vec<Item>;

#[derive(KubeSchema, serde::Serialize)]
pub struct Spec {
    #[kube_marker(list_type = "map", list_map_keys = ["name", "tags", "nope"])]
    pub items: Vec<Item>,
    #[kube_marker(max_items = 3)]
    pub word: Word,
    #[kube_marker(min_length = 3)]
    pub item: Item,
    /// Through a type alias, too; `id` is a required string, so it is a fine key.
    #[kube_marker(list_type = "map", list_map_keys = "id")]
    pub aliased: Items,
    #[kube_marker(min_length = 2)]
    pub fine: Word,
}

fn main() {}
