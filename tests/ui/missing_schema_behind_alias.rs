// The limit of "one error per field" for a type without a schema (the book's apply guide, "What is refused"):
// behind an alias of a list of such types, the derive sees a name, not a list, and the
// builder's conversion into the partly resolved configuration (`Vec<_>`) is one more error.
use kubegen::KubeSchema;

pub struct NotDerived {
    pub x: i32,
}

pub type Many = Vec<NotDerived>;

#[derive(KubeSchema)]
pub struct Spec {
    pub aliased: Many,
}

fn main() {}
