//! Saying a long-running task's failures to a person: when it starts
//! failing, fails differently, goes on failing (counted, said again every
//! few seconds), and works again; never a line per retry.

use std::time::Duration;

use crate::Failures;

/// What was last said of a NATS task's failures.
#[derive(Debug, Default)]
pub struct Said {
    count: u64,
    text: Option<String>,
    at: Option<std::time::Instant>,
}

/// A failure repeated is said again this often, with its count.
const SAY_AGAIN: Duration = Duration::from_secs(5);

impl Said {
    /// The line to say about `failures` now, if any: when the task starts
    /// failing, fails differently, goes on failing (every five seconds,
    /// with the count), and when it works again.
    pub fn line(
        &mut self,
        failures: &Failures,
        doing: &str,
        waiting: Option<u64>,
    ) -> Option<String> {
        let now = failures.now();
        let count = failures.count();
        let waiting = waiting
            .map(|n| format!(", {n} records waiting"))
            .unwrap_or_default();
        let line = match (&now, &self.text) {
            (None, None) => None,
            (None, Some(_)) => Some(format!("{doing} again{waiting}")),
            (Some(e), last) => {
                let repeated = last.as_ref() == Some(e);
                let due = self.at.is_none_or(|t| t.elapsed() >= SAY_AGAIN);
                (count != self.count && (!repeated || due)).then(|| {
                    format!(
                        "{doing} paused, retrying ({count} failures so far{waiting}): {}",
                        e.replace('\n', " ")
                    )
                })
            }
        };
        if line.is_some() {
            self.count = count;
            self.at = Some(std::time::Instant::now());
        }
        self.text = now;
        line
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::NatsError;

    #[test]
    fn a_failure_is_said_when_it_starts_changes_and_ends_and_counted_when_it_repeats() {
        let f = Failures::default();
        let mut said = Said::default();
        assert_eq!(said.line(&f, "publishing", Some(0)), None);
        let away = NatsError::Nats("timed out".into());
        f.fail(&away);
        assert_eq!(
            said.line(&f, "publishing", Some(3)).as_deref(),
            Some("publishing paused, retrying (1 failures so far, 3 records waiting): NATS: timed out")
        );
        // The same failure again within a few seconds: counted, said later.
        f.fail(&away);
        assert_eq!(said.line(&f, "publishing", Some(4)), None);
        assert_eq!(f.count(), 2);
        // Another failure is said at once, with every failure counted.
        f.fail(&NatsError::Nats("no responders".into()));
        assert_eq!(
            said.line(&f, "mirroring", None).as_deref(),
            Some("mirroring paused, retrying (3 failures so far): NATS: no responders")
        );
        f.clear();
        assert_eq!(
            said.line(&f, "publishing", Some(0)).as_deref(),
            Some("publishing again, 0 records waiting")
        );
        assert_eq!(said.line(&f, "publishing", Some(0)), None);
    }
}
