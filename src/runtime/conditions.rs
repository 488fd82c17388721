//! Status conditions (`metav1.Condition`, a list keyed by `type`), set as apimachinery's
//! `meta.SetStatusCondition` sets them.

use k8s_openapi::apimachinery::pkg::apis::meta::v1::{Condition, Time};

/// The current time, for a condition's `lastTransitionTime`.
pub fn now() -> Time {
    Time(k8s_openapi::jiff::Timestamp::now())
}

/// Puts `condition` in `conditions`, replacing the one of the same `type`; that one's
/// `lastTransitionTime` is kept unless the `status` changes. Returns whether anything
/// changed (`false`: no need to write the status).
pub fn set(conditions: &mut Vec<Condition>, mut condition: Condition) -> bool {
    let Some(old) = conditions.iter_mut().find(|c| c.type_ == condition.type_) else {
        conditions.push(condition);
        return true;
    };
    if old.status == condition.status {
        condition.last_transition_time = old.last_transition_time.clone();
    }
    let changed = *old != condition;
    *old = condition;
    changed
}

#[cfg(test)]
mod tests {
    use super::*;

    fn condition(type_: &str, status: &str, at: i64) -> Condition {
        Condition {
            type_: type_.to_string(),
            status: status.to_string(),
            reason: "Because".to_string(),
            message: String::new(),
            observed_generation: Some(1),
            last_transition_time: Time(k8s_openapi::jiff::Timestamp::from_second(at).unwrap()),
        }
    }

    #[test]
    fn keeps_the_transition_time_until_the_status_changes() {
        let mut list = vec![condition("Degraded", "False", 1)];
        assert!(set(&mut list, condition("Available", "True", 10)));
        assert!(
            !set(&mut list, condition("Available", "True", 20)),
            "same status"
        );
        assert_eq!(
            list[1].last_transition_time,
            condition("", "", 10).last_transition_time
        );
        assert!(set(&mut list, condition("Available", "False", 30)));
        assert_eq!(
            list[1].last_transition_time,
            condition("", "", 30).last_transition_time
        );
        assert_eq!(list.len(), 2, "one per type; the others are kept");
        let mut newer = condition("Available", "False", 40);
        newer.observed_generation = Some(2);
        assert!(set(&mut list, newer), "a new generation is a change");
    }
}
