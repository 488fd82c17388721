//! `validate`: admitting objects in process with `check::admit`, as `kubegen validate` and
//! `kubegen::Validate` do, against the bundled operator's CRD (v1beta1: bounds, a CEL rule,
//! defaults, a map list, quantity patterns). Objects are all different (replicas, image, port,
//! resources); a fifth of them are refused.

use std::path::Path;
use std::time::Instant;

use kubegen_core::check::admit::Validator;
use serde_json::{Value, json};

/// The operator CRD's v1beta1 schema.
fn validator(repo: &Path) -> Validator {
    let path = repo.join("operator/config/crd/bases/cache.example.com_memcacheds.yaml");
    let text = std::fs::read_to_string(&path).expect("the operator's CRD is generated");
    let crd: Value = serde_saphyr::from_str(&text).expect("the CRD is YAML");
    let versions = crd["spec"]["versions"].as_array().expect("versions");
    let beta = versions
        .iter()
        .find(|v| v["name"] == "v1beta1")
        .expect("a v1beta1 version");
    Validator::from_json(&beta["schema"]["openAPIV3Schema"]).expect("the rules parse")
}

/// Object `i`: every fifth too many replicas.
fn object(i: usize) -> Value {
    json!({
        "apiVersion": "cache.example.com/v1beta1",
        "kind": "Memcached",
        "metadata": {"name": format!("memcached-{i}"), "namespace": "default"},
        "spec": {
            "replicas": if i.is_multiple_of(5) { 9 } else { 1 + i % 5 },
            "image": format!("memcached:1.6.{}", i % 40),
            "containerPort": 11211 + i % 100,
            "resources": {
                "limits": {"memory": format!("{}Mi", 64 + i % 64), "cpu": "500m"},
                "requests": {"memory": "64Mi"}
            }
        }
    })
}

/// Admits `count` objects `runs` times; prints objects per second (median run) and how many
/// were refused.
pub fn run(repo: &Path, count: usize, runs: usize) {
    let v = validator(repo);
    let objects: Vec<Value> = (0..count).map(object).collect();
    let mut rates = Vec::new();
    let mut refused = 0;
    for _ in 0..runs {
        let start = Instant::now();
        refused = objects
            .iter()
            .filter(|o| !v.admit(o, None).errors.is_empty())
            .count();
        rates.push(count as f64 / start.elapsed().as_secs_f64());
    }
    rates.sort_by(f64::total_cmp);
    let median = rates[rates.len() / 2];
    println!(
        "admitted {count} objects against the operator's CRD (v1beta1), {refused} refused: \
         median {median:.0} objects/s (min {:.0}, max {:.0}, {runs} runs, one thread)",
        rates[0],
        rates[rates.len() - 1]
    );
}
