//! Webhooks into configurations, ordered as controller-gen orders them.

use crate::model::Error;

use super::{Configuration, ConfigurationName, DEFAULT_MUTATING, DEFAULT_VALIDATING, Webhook};

/// The mutating configuration (if any webhook is mutating), then the validating one, each
/// holding its webhooks stably sorted by name. Two webhooks of one configuration with the same
/// name are an error: the apiserver refuses the configuration (controller-gen writes both).
/// `names` renames a configuration; two names for the same kind are an error.
pub fn configurations(
    webhooks: &[Webhook],
    names: &[ConfigurationName],
) -> Result<Vec<Configuration>, Vec<Error>> {
    let mut errors = Vec::new();
    let mut out = Vec::new();
    for (mutating, default) in [(true, DEFAULT_MUTATING), (false, DEFAULT_VALIDATING)] {
        let kind = if mutating { "mutating" } else { "validating" };
        let given: Vec<&ConfigurationName> =
            names.iter().filter(|n| n.mutating == mutating).collect();
        if let [first, rest @ ..] = given.as_slice() {
            for dup in rest {
                errors.push(Error::new(
                    dup.loc.as_ref(),
                    "",
                    format!(
                        "a second `#[webhook_configuration]` names the {kind} configuration \
                         `{}`; it is already named `{}`{}: keep one",
                        dup.name,
                        first.name,
                        first
                            .loc
                            .as_ref()
                            .map(|l| format!(" at {l}"))
                            .unwrap_or_default()
                    ),
                ));
            }
        }
        let mut entries: Vec<Webhook> = webhooks
            .iter()
            .filter(|w| w.mutating == mutating)
            .cloned()
            .collect();
        if entries.is_empty() {
            continue;
        }
        entries.sort_by(|a, b| a.name.cmp(&b.name));
        let neighbours = entries.iter().zip(entries.iter().skip(1));
        for (first, second) in neighbours.filter(|(a, b)| a.name == b.name) {
            errors.push(Error::new(
                second.loc.as_ref(),
                "",
                format!(
                    "a second {kind} webhook is named `{}`{}: the API server refuses a \
                     configuration whose webhooks share a name; give each its own `name`",
                    second.name,
                    first
                        .loc
                        .as_ref()
                        .map(|l| format!(" (the first is at {l})"))
                        .unwrap_or_default()
                ),
            ));
        }
        out.push(Configuration {
            mutating,
            name: given
                .first()
                .map_or_else(|| default.to_string(), |n| n.name.clone()),
            webhooks: entries,
        });
    }
    if errors.is_empty() {
        Ok(out)
    } else {
        Err(errors)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::webhook::SideEffects;

    fn hook(name: &str, mutating: bool, side_effects: SideEffects) -> Webhook {
        Webhook {
            name: name.into(),
            mutating,
            side_effects,
            ..Webhook::default()
        }
    }

    #[test]
    fn mutating_first_sorted_stably() {
        let hooks = [
            hook("b.x.io", false, SideEffects::None),
            hook("a.x.io", false, SideEffects::None),
            hook("c.x.io", false, SideEffects::NoneOnDryRun),
            hook("m.x.io", true, SideEffects::None),
        ];
        let configs = configurations(&hooks, &[]).unwrap();
        assert_eq!(configs.len(), 2);
        assert_eq!(configs[0].name, DEFAULT_MUTATING);
        assert_eq!(configs[0].webhooks, [hooks[3].clone()]);
        assert_eq!(configs[1].name, DEFAULT_VALIDATING);
        assert_eq!(
            configs[1].webhooks,
            [hooks[1].clone(), hooks[0].clone(), hooks[2].clone()]
        );
    }

    #[test]
    fn names_shared_within_a_configuration_are_refused() {
        let hooks = [
            hook("b.x.io", false, SideEffects::None),
            hook("b.x.io", false, SideEffects::NoneOnDryRun),
            hook("b.x.io", true, SideEffects::None),
        ];
        let errors = configurations(&hooks, &[]).unwrap_err();
        assert_eq!(errors.len(), 1, "{errors:?}");
        assert!(
            errors[0]
                .message
                .contains("a second validating webhook is named `b.x.io`"),
            "{errors:?}"
        );
    }

    #[test]
    fn no_webhooks_no_configuration_and_names_apply() {
        let name = |mutating, name: &str| ConfigurationName {
            mutating,
            name: name.into(),
            loc: None,
        };
        assert_eq!(configurations(&[], &[name(true, "foo")]).unwrap(), []);
        let configs = configurations(
            &[hook("a.b.c", false, SideEffects::None)],
            &[name(false, "bar")],
        )
        .unwrap();
        assert_eq!(configs[0].name, "bar");
        let errors = configurations(&[], &[name(true, "foo"), name(true, "bar")]).unwrap_err();
        assert_eq!(errors.len(), 1);
        assert!(
            errors[0].message.contains("already named `foo`"),
            "{errors:?}"
        );
    }
}
