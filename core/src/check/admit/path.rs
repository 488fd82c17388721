//! Where a value is in an object, written the two ways the server writes it.

use std::fmt::Write;

/// One step from a value into a child.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Step {
    /// A property the schema names.
    Field(String),
    /// A map entry (`additionalProperties`).
    Key(String),
    /// A list item.
    Index(usize),
}

/// A path from the object's root.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Path(Vec<Step>);

impl Path {
    /// `self` and one more step.
    pub fn child(&self, step: Step) -> Path {
        let mut steps = self.0.clone();
        steps.push(step);
        Path(steps)
    }

    /// The steps.
    pub fn steps(&self) -> &[Step] {
        &self.0
    }

    /// As kube-openapi names a value in its messages: `spec.ports[0].name`, map entries as
    /// fields (`spec.labels.app`).
    pub fn openapi(&self) -> String {
        self.render(|out, key| {
            let _ = write!(out, ".{key}");
        })
    }

    /// As `field.Path` prints it: map entries in brackets (`spec.labels[app]`).
    pub fn field(&self) -> String {
        self.render(|out, key| {
            let _ = write!(out, "[{key}]");
        })
    }

    fn render(&self, key: impl Fn(&mut String, &str)) -> String {
        let mut out = String::new();
        for step in &self.0 {
            match step {
                Step::Field(name) => {
                    if !out.is_empty() {
                        out.push('.');
                    }
                    out.push_str(name);
                }
                Step::Key(k) if out.is_empty() => out.push_str(k),
                Step::Key(k) => key(&mut out, k),
                Step::Index(i) => {
                    let _ = write!(out, "[{i}]");
                }
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_print_as_kube_openapi_and_field_path_do() {
        let p = Path::default()
            .child(Step::Field("spec".into()))
            .child(Step::Field("ports".into()))
            .child(Step::Index(0))
            .child(Step::Key("a".into()));
        assert_eq!(p.openapi(), "spec.ports[0].a");
        assert_eq!(p.field(), "spec.ports[0][a]");
    }
}
