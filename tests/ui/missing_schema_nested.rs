// The limits of "one error per field" for a type without a schema (README, "What is refused"):
// inside a container inside an `Option`, the configuration's type is resolved in two steps, and
// the second step's error names one requirement fewer, so the compiler shows both; behind an
// alias of a list, the derive cannot see the list, and the builder's conversion adds one.
use kubegen::KubeSchema;

pub struct NotDerived {
    pub x: i32,
}

pub type Many = Vec<NotDerived>;

#[derive(KubeSchema)]
pub struct Spec {
    pub maybe_many: Option<Vec<NotDerived>>,
    pub maybe_boxed: Option<Box<NotDerived>>,
    pub aliased: Many,
}

fn main() {}
