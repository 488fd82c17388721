//! `validate`: admitting objects in process with `check::admit`, as `kubegen validate` and
//! `kubegen::Validate` do, against the bundled operator's CRD (v1beta1: bounds, a CEL rule,
//! defaults, a map list, quantity patterns), or against Gateway API's HTTPRoute (v1 of the
//! standard channel, from `../shared/golden/gateway-api`: some 80 CEL rules, patterns, nested
//! lists). Objects are all different; a fifth of them are refused.

use std::path::Path;
use std::time::Instant;

use kubegen_core::check::admit::Validator;
use serde_json::{Value, json};

/// The CRD objects are admitted against.
#[derive(Clone, Copy, clap::ValueEnum)]
pub enum Against {
    /// The bundled operator's Memcached, v1beta1.
    Operator,
    /// Gateway API's HTTPRoute, v1 (standard channel).
    Httproute,
}

/// The schema of version `version` of the CRD at `path`.
fn validator(path: &Path, version: &str) -> Validator {
    let crd = crate::read_crd(path);
    let versions = crd["spec"]["versions"].as_array().expect("versions");
    let served = versions
        .iter()
        .find(|v| v["name"] == version)
        .unwrap_or_else(|| panic!("no version {version}"));
    Validator::from_json(&served["schema"]["openAPIV3Schema"]).expect("the rules parse")
}

/// Memcached `i`: every fifth too many replicas.
fn memcached(i: usize) -> Value {
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

/// HTTPRoute `i`: one to three rules of path and header matches, filters and weighted
/// backends; every fifth has a path that does not start with `/`.
fn httproute(i: usize) -> Value {
    let rules: Vec<Value> = (0..1 + i % 3)
        .map(|r| {
            let path = if i.is_multiple_of(5) && r == 0 {
                format!("api/v{r}")
            } else {
                format!("/api/v{r}/{}", i % 97)
            };
            json!({
                "matches": [{
                    "path": {"type": "PathPrefix", "value": path},
                    "headers": [{"name": "x-tenant", "value": format!("t{}", i % 13)}],
                }],
                "filters": [{
                    "type": "RequestHeaderModifier",
                    "requestHeaderModifier": {"set": [{"name": "x-route", "value": format!("r{r}")}]},
                }],
                "backendRefs": [
                    {"name": format!("svc-{}", i % 50), "port": 8080, "weight": 1 + r},
                    {"name": "canary", "port": 8080, "weight": i % 10},
                ],
            })
        })
        .collect();
    json!({
        "apiVersion": "gateway.networking.k8s.io/v1",
        "kind": "HTTPRoute",
        "metadata": {"name": format!("route-{i}"), "namespace": "default"},
        "spec": {
            "parentRefs": [{"name": "gateway", "sectionName": "https"}],
            "hostnames": [format!("app{}.example.com", i % 100)],
            "rules": rules,
        }
    })
}

/// Admits `count` objects `runs` times; prints objects per second (median run) and how many
/// were refused.
pub fn run(repo: &Path, against: Against, count: usize, runs: usize) {
    let (v, object, what): (Validator, fn(usize) -> Value, &str) = match against {
        Against::Operator => (
            validator(&repo.join(crate::OPERATOR_CRD), "v1beta1"),
            memcached,
            "the operator's CRD (v1beta1)",
        ),
        Against::Httproute => (
            validator(
                &repo.join("../shared/golden/gateway-api/config/crd/standard/gateway.networking.k8s.io_httproutes.yaml"),
                "v1",
            ),
            httproute,
            "Gateway API's HTTPRoute (v1)",
        ),
    };
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
        "admitted {count} objects against {what}, {refused} refused: \
         median {median:.0} objects/s (min {:.0}, max {:.0}, {runs} runs, one thread)",
        rates[0],
        rates[rates.len() - 1]
    );
}
