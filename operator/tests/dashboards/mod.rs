//! What the Grafana dashboards of kubebuilder's `grafana/v1-alpha` plugin query, as test data:
//! each panel's PromQL and the labels its legend shows, and the series kubebuilder's
//! scaffolded e2e test reads; and the metric selectors of a query (names, label matchers, the
//! labels it groups by), read with a small PromQL tokenizer.

/// Every query of `controller-runtime-metrics.json` and `controller-resources-metrics.json`,
/// with the panel's legend format.
pub const DASHBOARDS: &[(&str, &str)] = &[
    (
        r#"controller_runtime_active_workers{job="$job", namespace="$namespace"}"#,
        "{{controller}} {{instance}}",
    ),
    (
        r#"sum(rate(controller_runtime_reconcile_total{job="$job", namespace="$namespace"}[5m])) by (instance, pod)"#,
        "{{instance}} {{pod}}",
    ),
    (
        r#"sum(rate(controller_runtime_reconcile_errors_total{job="$job", namespace="$namespace"}[5m])) by (instance, pod)"#,
        "{{instance}} {{pod}}",
    ),
    (r#"workqueue_depth{job="$job", namespace="$namespace"}"#, ""),
    (
        r#"histogram_quantile(0.50, sum(rate(workqueue_queue_duration_seconds_bucket{job="$job", namespace="$namespace"}[5m])) by (instance, name, le))"#,
        "P50 {{name}} {{instance}} ",
    ),
    (
        r#"histogram_quantile(0.90, sum(rate(workqueue_queue_duration_seconds_bucket{job="$job", namespace="$namespace"}[5m])) by (instance, name, le))"#,
        "P90 {{name}} {{instance}} ",
    ),
    (
        r#"histogram_quantile(0.99, sum(rate(workqueue_queue_duration_seconds_bucket{job="$job", namespace="$namespace"}[5m])) by (instance, name, le))"#,
        "P99 {{name}} {{instance}} ",
    ),
    (
        r#"sum(rate(workqueue_adds_total{job="$job", namespace="$namespace"}[5m])) by (instance, name)"#,
        "{{name}} {{instance}}",
    ),
    (
        r#"rate(workqueue_unfinished_work_seconds{job="$job", namespace="$namespace"}[5m])"#,
        "",
    ),
    (
        r#"histogram_quantile(0.50, sum(rate(workqueue_work_duration_seconds_bucket{job="$job", namespace="$namespace"}[5m])) by (instance, name, le))"#,
        "P50 {{name}} {{instance}} ",
    ),
    (
        r#"histogram_quantile(0.90, sum(rate(workqueue_work_duration_seconds_bucket{job="$job", namespace="$namespace"}[5m])) by (instance, name, le))"#,
        "P90 {{name}} {{instance}} ",
    ),
    (
        r#"histogram_quantile(0.99, sum(rate(workqueue_work_duration_seconds_bucket{job="$job", namespace="$namespace"}[5m])) by (instance, name, le))"#,
        "P99 {{name}} {{instance}} ",
    ),
    (
        r#"sum(rate(workqueue_retries_total{job="$job", namespace="$namespace"}[5m])) by (instance, name)"#,
        "{{name}} {{instance}} ",
    ),
    (
        r#"rate(process_cpu_seconds_total{job="$job", namespace="$namespace", pod="$pod"}[5m]) * 100"#,
        "Pod: {{pod}} | Container: {{container}}",
    ),
    (
        r#"process_resident_memory_bytes{job="$job", namespace="$namespace", pod="$pod"}"#,
        "Pod: {{pod}} | Container: {{container}}",
    ),
];

/// The series kubebuilder's scaffolded e2e test looks for once the controller has run, with
/// `controller` the controller's name.
pub const E2E: &str =
    r#"controller_runtime_reconcile_total{controller="$controller",result="success"}"#;

/// Labels Prometheus puts on every series of a scrape target (from its service discovery and
/// the target's address): a query may filter or group on them, `/metrics` does not carry them.
pub const TARGET_LABELS: &[&str] = &[
    "job",
    "namespace",
    "pod",
    "instance",
    "container",
    "service",
    "endpoint",
];

/// One vector selector of a query: `name{label="value", ...}`, and the labels the aggregation
/// around it groups by (`by (...)`).
#[derive(Debug, PartialEq)]
pub struct Selector {
    pub name: String,
    pub matchers: Vec<(String, String)>,
    pub by: Vec<String>,
}

/// The vector selectors of `query`. Function and aggregation names (an identifier before
/// `(`), `by`/`without` lists, ranges (`[5m]`), numbers and operators are not selectors; the
/// labels of a `by` list are given to every selector of the query (each query here has one).
pub fn selectors(query: &str) -> Vec<Selector> {
    let chars: Vec<char> = query.chars().collect();
    let mut found = Vec::new();
    let mut by = Vec::new();
    let mut i = 0;
    let ident = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == ':';
    while i < chars.len() {
        let c = chars[i];
        if c == '[' {
            while chars[i] != ']' {
                i += 1;
            }
        } else if (c.is_ascii_alphabetic() || c == '_') && (i == 0 || !ident(chars[i - 1])) {
            let start = i;
            while i < chars.len() && ident(chars[i]) {
                i += 1;
            }
            let word: String = chars[start..i].iter().collect();
            let next = chars[i..].iter().find(|c| !c.is_whitespace()).copied();
            if word == "by" || word == "without" {
                let open = i + chars[i..].iter().position(|c| *c == '(').unwrap();
                let close = open + chars[open..].iter().position(|c| *c == ')').unwrap();
                let list: String = chars[open + 1..close].iter().collect();
                by.extend(list.split(',').map(|l| l.trim().to_string()));
                i = close;
            } else if next != Some('(') {
                let mut matchers = Vec::new();
                if next == Some('{') {
                    let open = i + chars[i..].iter().position(|c| *c == '{').unwrap();
                    let close = open + chars[open..].iter().position(|c| *c == '}').unwrap();
                    let inside: String = chars[open + 1..close].iter().collect();
                    for matcher in inside.split(',').filter(|m| !m.trim().is_empty()) {
                        let (label, value) = matcher.split_once('=').expect("label=\"value\"");
                        let value = value.trim().trim_matches('"');
                        matchers.push((label.trim().to_string(), value.to_string()));
                    }
                    i = close;
                }
                found.push(Selector {
                    name: word,
                    matchers,
                    by: Vec::new(),
                });
                continue;
            }
            continue;
        }
        i += 1;
    }
    for selector in &mut found {
        selector.by = by.clone();
    }
    found
}

/// The labels a legend format shows: `{{name}} {{instance}}` shows `name` and `instance`.
pub fn legend_labels(legend: &str) -> Vec<String> {
    legend
        .split("{{")
        .skip(1)
        .filter_map(|part| Some(part.split_once("}}")?.0.trim().to_string()))
        .collect()
}

/// One series of a scrape: its name and labels.
#[derive(Debug)]
pub struct Series {
    pub name: String,
    pub labels: Vec<(String, String)>,
}

/// The series of an OpenMetrics text (`# ` lines are not series).
pub fn series(text: &str) -> Vec<Series> {
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
        .map(|line| {
            let head = match line.find('{') {
                Some(open) => &line[..line[open..].find('}').unwrap() + open + 1],
                None => line.split(' ').next().unwrap(),
            };
            let (name, labels) = head.split_once('{').unwrap_or((head, "}"));
            let labels = labels
                .strip_suffix('}')
                .unwrap()
                .split(',')
                .filter(|l| !l.is_empty())
                .map(|l| {
                    let (k, v) = l.split_once('=').unwrap();
                    (k.to_string(), v.trim_matches('"').to_string())
                })
                .collect();
            Series {
                name: name.to_string(),
                labels,
            }
        })
        .collect()
}
