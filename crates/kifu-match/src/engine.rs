//! A program playing over GTP, as the referee sees it: one exchange at a
//! time, each bounded in time.

use std::time::Duration;

use crate::gtp::Reply;

/// Why an exchange with a program gave no answer. Every one of these,
/// except [`EngineFailure::Interrupted`], is an abnormal termination of the
/// program (UEC Cup, "h) Abnormal termination of programs").
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EngineFailure {
    /// No complete answer within the time allowed.
    #[error("no answer within {} s", crate::referee::tenths_text(.0.as_millis() as u64))]
    TimedOut(Duration),
    /// The program exited (or closed its output).
    #[error("the program exited ({0})")]
    Exited(String),
    /// The program sent text that is not GTP.
    #[error("broken GTP: {0}")]
    Broken(String),
    /// The program could not be reached (start or write failed).
    #[error("cannot talk to the program: {0}")]
    Io(String),
    /// The server was asked to stop (Ctrl-C) while waiting.
    #[error("interrupted")]
    Interrupted,
}

/// One side's program.
pub trait Engine {
    /// Sends `command` and waits at most `limit` for the complete answer.
    fn exchange(&mut self, command: &str, limit: Duration) -> Result<Reply, EngineFailure>;

    /// Stops the program at once: it may not answer anything more. Safe to
    /// call more than once.
    fn stop(&mut self);

    /// Asks the program to quit (`quit`), waits briefly, then stops it.
    fn quit(&mut self, limit: Duration) {
        let _ = self.exchange("quit", limit);
        self.stop();
    }
}

impl<E: Engine + ?Sized> Engine for Box<E> {
    fn exchange(&mut self, command: &str, limit: Duration) -> Result<Reply, EngineFailure> {
        (**self).exchange(command, limit)
    }
    fn stop(&mut self) {
        (**self).stop()
    }
    fn quit(&mut self, limit: Duration) {
        (**self).quit(limit)
    }
}
