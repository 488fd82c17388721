//! Objects admitted as the API server would admit them, without one: `kubegen::Validate` runs
//! the CRD's OpenAPI validation and its CEL rules in process. `cargo run --example validation
//! --features validate` prints what the server would answer for a good and a bad object.

use kubegen::{CustomResource, Validate};
use serde::{Deserialize, Serialize};

// ANCHOR: kind
/// PoolSpec defines the desired state of Pool.
#[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
#[kube_marker(group = "example.com", version = "v1", kind = "Pool")]
#[kube_marker(x_validation(rule = "self.min <= self.max", message = "min must not exceed max"))]
pub struct PoolSpec {
    /// The fewest workers.
    #[kube_marker(minimum = 0)]
    pub min: i32,
    /// The most workers.
    #[kube_marker(maximum = 10)]
    pub max: i32,
}
// ANCHOR_END: kind

fn main() {
    // ANCHOR: validate
    let specs = [
        PoolSpec { min: 1, max: 3 },
        PoolSpec { min: 5, max: 3 },
        PoolSpec { min: 5, max: 20 },
    ];
    for spec in specs {
        match Pool::validate(&Pool::new("workers", spec)) {
            Ok(()) => println!("accepted"),
            Err(refused) => println!("{refused}"),
        }
    }
    // ANCHOR_END: validate
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bounds_and_the_rule_are_checked() {
        assert_eq!(
            Pool::validate(&Pool::new("p", PoolSpec { min: 1, max: 3 })),
            Ok(())
        );
        let refused = Pool::validate(&Pool::new("p", PoolSpec { min: 5, max: 3 })).unwrap_err();
        assert_eq!(
            refused.to_string(),
            "Pool.example.com \"p\" is invalid: spec: Invalid value: min must not exceed max"
        );
        // As the API server, the CEL rules wait for the schema's checks to pass.
        let refused = Pool::validate(&Pool::new("p", PoolSpec { min: 5, max: 20 })).unwrap_err();
        assert_eq!(
            refused.to_string(),
            "Pool.example.com \"p\" is invalid: spec.max: Invalid value: 20: spec.max in body \
             should be less than or equal to 10"
        );
    }
}
