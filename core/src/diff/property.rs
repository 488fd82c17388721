//! The rules about one schema node (without its children), old against new: crdify's property
//! validations, and kubegen's about formats, list and map types, unknown fields and CEL rules.

use serde_json::{Map, Value};

use super::{Config, Finding, Policy};

/// What KEP-4008's validation ratcheting (GA in Kubernetes 1.33) does for a tightened
/// constraint.
pub const RATCHETED: &str = "ratcheted (KEP-4008, Kubernetes 1.33+): an update that leaves \
    this value unchanged still passes; creates, and updates that change it, must satisfy it";

/// What ratcheting does not cover.
pub const NOT_RATCHETED: &str = "not covered by ratcheting (KEP-4008): existing objects that \
    lack the field fail validation on every update until it is set";

/// Defaults are applied when objects are read.
const DEFAULTING: &str = "the apiserver applies defaults when it reads objects from etcd: \
    existing objects without the field read differently from now on";

/// Transition rules.
const TRANSITION: &str = "a transition rule (it uses oldSelf): checked on updates against \
    the stored value, and not ratcheted";

/// The `x-kubernetes-*` keywords a rule of this module looks at. The other keywords it looks at
/// are named as their rules (`enum`, `maxLength`, ...); a change to any other keyword is
/// `unhandled`.
const EXTENSIONS: &[&str] = &[
    "x-kubernetes-list-type",
    "x-kubernetes-list-map-keys",
    "x-kubernetes-map-type",
    "x-kubernetes-preserve-unknown-fields",
    "x-kubernetes-validations",
];

/// Whether a rule of this module looks at `keyword`.
fn handled(keyword: &str) -> bool {
    EXTENSIONS.contains(&keyword) || super::RULES.contains(&keyword)
}

/// Every finding from `old` to `new`, two schema nodes without their children.
pub(super) fn compare(
    old: &Map<String, Value>,
    new: &Map<String, Value>,
    config: &Config,
) -> Vec<Finding> {
    let mut found = Vec::new();
    enums(old.get("enum"), new.get("enum"), config, &mut found);
    defaults(old.get("default"), new.get("default"), &mut found);
    for rule in ["minimum", "minLength", "minItems", "minProperties"] {
        bound(rule, old.get(rule), new.get(rule), Bound::Min, &mut found);
    }
    for rule in ["maximum", "maxLength", "maxItems", "maxProperties"] {
        bound(rule, old.get(rule), new.get(rule), Bound::Max, &mut found);
    }
    required(old.get("required"), new.get("required"), &mut found);
    let text =
        |m: &Map<String, Value>, k: &str| m.get(k).and_then(Value::as_str).map(str::to_string);
    let flag = |m: &Map<String, Value>, k: &str| m.get(k).and_then(Value::as_bool).unwrap_or(false);
    let (old_type, new_type) = (text(old, "type"), text(new, "type"));
    if old_type != new_type {
        found.push(Finding::flagged(
            "type",
            format!(
                "type changed: {} -> {}",
                quoted(&old_type),
                quoted(&new_type)
            ),
            old.get("type").cloned(),
            new.get("type").cloned(),
        ));
    }
    nullable(
        flag(old, "nullable"),
        flag(new, "nullable"),
        config,
        &mut found,
    );
    pattern(old.get("pattern"), new.get("pattern"), config, &mut found);
    if old.get("description") != new.get("description") {
        found.push(Finding::flagged(
            "description",
            "description changed".to_string(),
            old.get("description").cloned(),
            new.get("description").cloned(),
        ));
    }
    match (old.get("format"), new.get("format")) {
        (a, b) if a == b => {}
        (Some(_), None) => found.push(Finding::safe(
            "format",
            "format removed".into(),
            old.get("format").cloned(),
            None,
        )),
        (a, b) => found.push(
            Finding::flagged(
                "format",
                "format added or changed".into(),
                a.cloned(),
                b.cloned(),
            )
            .with_note(RATCHETED),
        ),
    }
    let list_type = |m: &Map<String, Value>| {
        text(m, "x-kubernetes-list-type").unwrap_or_else(|| "atomic".into())
    };
    if text(old, "type").as_deref() == Some("array") && list_type(old) != list_type(new) {
        found.push(
            Finding::flagged(
                "listType",
                format!("x-kubernetes-list-type changed: {} -> {}", list_type(old), list_type(new)),
                Some(Value::from(list_type(old))),
                Some(Value::from(list_type(new))),
            )
            .with_note("server-side apply merges the list differently; `set` and `map` also reject duplicates, which ratcheting does not cover"),
        );
    }
    let keys = |m: &Map<String, Value>| m.get("x-kubernetes-list-map-keys").cloned();
    if keys(old) != keys(new) {
        found.push(Finding::flagged(
            "listMapKeys",
            "x-kubernetes-list-map-keys changed".into(),
            keys(old),
            keys(new),
        ));
    }
    let map_type = |m: &Map<String, Value>| {
        text(m, "x-kubernetes-map-type").unwrap_or_else(|| "granular".into())
    };
    if map_type(old) != map_type(new) {
        found.push(
            Finding::flagged(
                "mapType",
                format!(
                    "x-kubernetes-map-type changed: {} -> {}",
                    map_type(old),
                    map_type(new)
                ),
                Some(Value::from(map_type(old))),
                Some(Value::from(map_type(new))),
            )
            .with_note("server-side apply merges the object differently: field managers change"),
        );
    }
    let preserve = "x-kubernetes-preserve-unknown-fields";
    match (flag(old, preserve), flag(new, preserve)) {
        (true, false) => found.push(
            Finding::flagged(
                "preserveUnknownFields",
                format!("{preserve} removed: unknown fields are pruned"),
                Some(Value::Bool(true)),
                new.get(preserve).cloned(),
            )
            .with_note("fields the schema does not list are dropped from stored objects when they are next written"),
        ),
        (false, true) => found.push(Finding::safe(
            "preserveUnknownFields",
            format!("{preserve} added"),
            old.get(preserve).cloned(),
            Some(Value::Bool(true)),
        )),
        _ => {}
    }
    cel(
        old.get("x-kubernetes-validations"),
        new.get("x-kubernetes-validations"),
        &mut found,
    );
    let mut others: Vec<&String> = old
        .keys()
        .chain(new.keys())
        .filter(|k| !handled(k))
        .collect();
    others.sort();
    others.dedup();
    for key in others {
        if old.get(key) != new.get(key) {
            found.push(Finding::flagged(
                "unhandled",
                format!("`{key}` changed, which no rule knows"),
                old.get(key).cloned(),
                new.get(key).cloned(),
            ));
        }
    }
    found
}

fn quoted(text: &Option<String>) -> String {
    format!("{:?}", text.as_deref().unwrap_or(""))
}

/// A list of JSON values as one line.
fn listed(values: &[&Value]) -> String {
    let texts: Vec<String> = values.iter().map(|v| v.to_string()).collect();
    format!("[{}]", texts.join(", "))
}

fn enums(old: Option<&Value>, new: Option<&Value>, config: &Config, found: &mut Vec<Finding>) {
    let values = |v: Option<&Value>| -> Vec<Value> {
        v.and_then(Value::as_array).cloned().unwrap_or_default()
    };
    let (before, after) = (values(old), values(new));
    if before == after {
        return;
    }
    let removed: Vec<&Value> = before.iter().filter(|v| !after.contains(v)).collect();
    let added: Vec<&Value> = after.iter().filter(|v| !before.contains(v)).collect();
    let (old, new) = (old.cloned(), new.cloned());
    let addition_allowed = config.enum_addition == Policy::Allow;
    let finding = if before.is_empty() {
        Finding::flagged(
            "enum",
            format!(
                "enum constraint added when there was none previously: {}",
                listed(&added)
            ),
            old,
            new,
        )
        .with_note(RATCHETED)
    } else if after.is_empty() {
        // Any value is allowed now: clients that switch over the values see new ones.
        let message = "enum constraint removed: any value is allowed".to_string();
        if addition_allowed {
            Finding::safe("enum", message, old, new)
        } else {
            Finding::flagged("enum", message, old, new)
        }
    } else if !removed.is_empty() {
        Finding::flagged(
            "enum",
            format!("allowed enum values removed: {}", listed(&removed)),
            old,
            new,
        )
        .with_note(RATCHETED)
    } else if added.is_empty() {
        Finding::safe("enum", "enum values reordered".into(), old, new)
    } else if addition_allowed {
        Finding::safe(
            "enum",
            format!("allowed enum values added: {}", listed(&added)),
            old,
            new,
        )
    } else {
        Finding::flagged(
            "enum",
            format!("allowed enum values added: {}", listed(&added)),
            old,
            new,
        )
        .with_note("clients that switch over the values meet ones they do not know")
    };
    found.push(finding);
}

fn defaults(old: Option<&Value>, new: Option<&Value>, found: &mut Vec<Finding>) {
    let message = match (old, new) {
        (None, Some(v)) => format!("default added when there was none previously: {v}"),
        (Some(v), None) => format!("default value removed: {v}"),
        (Some(a), Some(b)) if a != b => format!("default value changed: {a} -> {b}"),
        _ => return,
    };
    found.push(
        Finding::flagged("default", message, old.cloned(), new.cloned()).with_note(DEFAULTING),
    );
}

#[derive(Clone, Copy, PartialEq)]
enum Bound {
    Min,
    Max,
}

fn bound(
    rule: &'static str,
    old: Option<&Value>,
    new: Option<&Value>,
    kind: Bound,
    found: &mut Vec<Finding>,
) {
    let number = |v: Option<&Value>| v.and_then(Value::as_f64);
    let name = if kind == Bound::Min {
        "minimum"
    } else {
        "maximum"
    };
    let (o, n) = (old.cloned(), new.cloned());
    let finding = match (number(old), number(new)) {
        (None, None) => return,
        (None, Some(_)) => Finding::flagged(
            rule,
            format!(
                "{name} constraint added when there was none previously: {}",
                new.unwrap_or(&Value::Null)
            ),
            o,
            n,
        )
        .with_note(RATCHETED),
        (Some(_), None) => Finding::safe(rule, format!("{name} constraint removed"), o, n),
        (Some(a), Some(b)) if a == b => return,
        (Some(a), Some(b)) => {
            let tighter = if kind == Bound::Min { b > a } else { b < a };
            let verb = if b > a { "increased" } else { "decreased" };
            let message = format!(
                "{name} {verb}: {} -> {}",
                old.unwrap_or(&Value::Null),
                new.unwrap_or(&Value::Null)
            );
            if tighter {
                Finding::flagged(rule, message, o, n).with_note(RATCHETED)
            } else {
                Finding::safe(rule, message, o, n)
            }
        }
    };
    found.push(finding);
}

fn required(old: Option<&Value>, new: Option<&Value>, found: &mut Vec<Finding>) {
    let names = |v: Option<&Value>| -> Vec<Value> {
        v.and_then(Value::as_array).cloned().unwrap_or_default()
    };
    let (before, after) = (names(old), names(new));
    let added: Vec<&Value> = after.iter().filter(|v| !before.contains(v)).collect();
    let dropped: Vec<&Value> = before.iter().filter(|v| !after.contains(v)).collect();
    if !added.is_empty() {
        found.push(
            Finding::flagged(
                "required",
                format!("new required fields: {}", listed(&added)),
                old.cloned(),
                new.cloned(),
            )
            .with_note(NOT_RATCHETED),
        );
    }
    if !dropped.is_empty() {
        found.push(Finding::safe(
            "required",
            format!("fields no longer required: {}", listed(&dropped)),
            old.cloned(),
            new.cloned(),
        ));
    }
}

fn nullable(old: bool, new: bool, config: &Config, found: &mut Vec<Finding>) {
    let (policy, message) = match (old, new) {
        (false, true) => (config.nullable_addition, "nullable added"),
        (true, false) => (config.nullable_removal, "nullable removed"),
        _ => return,
    };
    let (o, n) = (Some(Value::Bool(old)), Some(Value::Bool(new)));
    found.push(match policy {
        Policy::Allow => Finding::safe("nullable", message.into(), o, n),
        Policy::Disallow => Finding::flagged("nullable", message.into(), o, n),
    });
}

fn pattern(old: Option<&Value>, new: Option<&Value>, config: &Config, found: &mut Vec<Finding>) {
    let (o, n) = (old.cloned(), new.cloned());
    found.push(match (old, new) {
        (a, b) if a == b => return,
        (None, Some(p)) => {
            Finding::flagged("pattern", format!("pattern added: {p}"), o, n).with_note(RATCHETED)
        }
        (Some(p), None) if config.pattern_removal == Policy::Allow => {
            Finding::safe("pattern", format!("pattern removed: {p}"), o, n)
        }
        (Some(p), None) => Finding::flagged("pattern", format!("pattern removed: {p}"), o, n),
        (Some(a), Some(b)) => {
            Finding::flagged("pattern", format!("pattern changed: {a} -> {b}"), o, n)
                .with_note(RATCHETED)
        }
        (None, None) => return,
    });
}

/// CEL rules, matched by their `rule` text: a new text is a rule added (or tightened), a text
/// gone is a rule removed; a rule whose message or other fields changed is safe.
fn cel(old: Option<&Value>, new: Option<&Value>, found: &mut Vec<Finding>) {
    let rules = |v: Option<&Value>| -> Vec<Value> {
        v.and_then(Value::as_array).cloned().unwrap_or_default()
    };
    let (before, after) = (rules(old), rules(new));
    let text = |r: &Value| r["rule"].as_str().unwrap_or_default().to_string();
    for rule in &after {
        match before.iter().find(|b| text(b) == text(rule)) {
            None => {
                let note = if text(rule).contains("oldSelf") {
                    TRANSITION
                } else {
                    RATCHETED
                };
                found.push(
                    Finding::flagged(
                        "cel",
                        format!("CEL rule added or changed: `{}`", text(rule)),
                        None,
                        Some(rule.clone()),
                    )
                    .with_note(note),
                );
            }
            Some(was) if was != rule => found.push(Finding::safe(
                "cel",
                format!("CEL rule `{}`: its message or options changed", text(rule)),
                Some(was.clone()),
                Some(rule.clone()),
            )),
            Some(_) => {}
        }
    }
    for rule in &before {
        if !after.iter().any(|a| text(a) == text(rule)) {
            found.push(Finding::safe(
                "cel",
                format!("CEL rule removed: `{}`", text(rule)),
                Some(rule.clone()),
                None,
            ));
        }
    }
}
