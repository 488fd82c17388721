//! A field whose type has no schema, in struct and newtype variants under every tagging, bare
//! or inside an `Option`, a `Vec` or a `Box`: one error at the field's type each, with the `apply`
//! feature (the variants' configurations) as without it.

use kubegen::KubeSchema;
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize)]
pub struct NotDerived {
    pub x: i32,
}

#[derive(KubeSchema, Serialize, Deserialize)]
pub enum External {
    Named { inner: NotDerived, fine: Option<i32> },
    Newtype(NotDerived),
    Maybe(Option<NotDerived>),
    Empty {},
}

#[derive(KubeSchema, Serialize, Deserialize)]
#[serde(tag = "kind")]
pub enum Internal {
    Named { inner: Option<NotDerived> },
    Newtype(NotDerived),
}

#[derive(KubeSchema, Serialize, Deserialize)]
#[serde(tag = "t", content = "c")]
pub enum Adjacent {
    Named { fine: i32, inner: Vec<NotDerived> },
    Newtype(NotDerived),
    Boxed(Box<NotDerived>),
    Unit,
}

#[derive(KubeSchema, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Untagged {
    Named { inner: NotDerived },
    Newtype(NotDerived),
}

fn main() {}
