// A struct's field whose type holds a type without a schema, in a container or behind a path:
// one error at the field's type (inside an `Option`, at what the `Option` holds); with `apply`,
// a `Box` or a path, whose builder converts, gets a second: `ApplySchema`'s supertrait checked
// for the builder's bound at the type's last token (the book's apply guide: "What is refused, and why").
use std::collections::{BTreeMap, HashMap, VecDeque};

use kubegen::KubeSchema;

pub struct NotDerived {
    pub x: i32,
}

pub mod inner {
    pub struct Deep;
}

#[derive(KubeSchema)]
pub struct Spec {
    pub maybe: Option<NotDerived>,
    pub many: Vec<NotDerived>,
    pub queue: VecDeque<NotDerived>,
    pub by_name: BTreeMap<String, NotDerived>,
    pub hashed: HashMap<String, NotDerived>,
    pub boxed: Box<NotDerived>,
    pub deep: crate::inner::Deep,
    pub maybe_deep: Option<inner::Deep>,
    pub maybe_many: Option<Vec<NotDerived>>,
    pub maybe_boxed: Option<Box<NotDerived>>,
}

fn main() {}
