//! CEL rules reading fields the derive cannot see (behind another type) are checked when
//! `crd()` runs: `try_crd()` reports type and cost problems as the apiserver would, with the
//! bounds to add (the derive checks what its syntax shows: see `tests/ui-cel/`).
#![cfg(feature = "cel")]

use kubegen::{CustomResource, KubeSchema};
use serde::{Deserialize, Serialize};

#[derive(KubeSchema, Serialize, Deserialize, Clone, Debug)]
pub struct Tags {
    pub items: Vec<String>,
}

#[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
#[kube_marker(group = "t.example.com", version = "v1", kind = "Tagged")]
#[kube_marker(x_validation(rule = "self.tags.items.all(t, t.contains('a'))", message = "a"))]
#[kube_marker(x_validation(rule = "self.tags.items.all(t, t > 0)", message = "b"))]
pub struct TaggedSpec {
    pub tags: Tags,
}

#[test]
fn try_crd_reports_cel_types_and_costs_behind_other_types() {
    let errors = kubegen::try_crd::<Tagged>().unwrap_err().to_string();
    assert!(
        errors.contains(
            "Tagged v1: .spec: rule `self.tags.items.all(t, t.contains('a'))`: estimated cost \
             329857577779 exceeds the apiserver's limit of 10000000 by factor of more than \
             100x; add `max_items = 100` (maxItems) on `.spec.tags.items`, `max_length = 256` \
             (maxLength) on `.spec.tags.items[*]`: the estimate would become 10704"
        ),
        "{errors}"
    );
    assert!(
        errors.contains(
            "Tagged v1: .spec: rule `self.tags.items.all(t, t > 0)`: found no matching overload \
             for '_>_' applied to '(string, int)'"
        ),
        "{errors}"
    );
}
