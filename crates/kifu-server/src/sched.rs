//! Whose threads the system runs first: the boards' appends, then
//! everything else, then the spectators.
//!
//! Three classes of thread, so that a server whose CPU is spent spends it
//! on the facts being signed at the boards (`docs/SCALE.md`, "Who goes
//! first"):
//!
//! - **The async workers**, which read a board's request, hand its records
//!   to the writer and write its answer. With `kifu serve
//!   --realtime-priority N` ([`runtime`]) they run under the real-time
//!   policy `SCHED_FIFO` at priority N: the system gives them the core the
//!   moment they are woken, whatever ordinary or idle thread is running.
//!   Without it they are ordinary threads.
//! - **Ordinary threads**: the writer's pipeline (verify, commit, sync),
//!   the blocking threads that answer reads (projections, pages, bundles),
//!   the feed's encoder (at a higher nice value). Never
//!   real-time, and neither are the threads they start: the store's own
//!   I/O threads spin while they wait for each other, and under
//!   `SCHED_FIFO` a spinning thread keeps a core from the one it waits for.
//!   A thread a real-time worker starts is made ordinary as it starts
//!   ([`ordinary`]).
//! - **Followers** of the whole feed: `SCHED_IDLE` (`crate::conn`), run
//!   when nothing else wants the core.
//!
//! Why more than `SCHED_IDLE` for the followers: under the fair scheduler
//! (EEVDF, Linux 6.6 on) an idle-policy thread is still a fair thread of
//! tiny weight, and a woken worker that has used more than its share is
//! not yet "eligible": the follower runs on until the next timer tick (4 ms
//! at 250 Hz). Measured in `docs/PERFORMANCE.md` ("A crowd at the
//! server"). The real-time class is chosen before the fair class every
//! time.
//!
//! Real-time scheduling needs the privilege to ask for it: `CAP_SYS_NICE`,
//! or a `RLIMIT_RTPRIO` of at least N (systemd's `LimitRTPRIO=`). [`check`]
//! tells before anything starts; the workers then ask for it as they
//! first wake. Elsewhere than Linux, [`check`] refuses.

use std::cell::Cell;

/// The system refused a scheduling policy.
#[derive(Debug, thiserror::Error)]
#[error("the system refused real-time priority {priority} ({why}): it needs CAP_SYS_NICE or a RLIMIT_RTPRIO of at least {priority} (systemd: LimitRTPRIO={priority})")]
pub struct Refused {
    /// The priority asked for.
    pub priority: u8,
    /// What the system said.
    pub why: String,
}

/// The highest priority [`check`] takes: above it are the kernel's own
/// interrupt threads (50), which the appends must not hold off.
pub const MAX_PRIORITY: u8 = 49;

thread_local! {
    /// Whether this thread has asked for the real-time policy.
    static REALTIME: Cell<bool> = const { Cell::new(false) };
}

/// Has the calling thread run under `SCHED_FIFO` at `priority` (1 to
/// [`MAX_PRIORITY`]).
pub fn realtime(priority: u8) -> Result<(), Refused> {
    let refused = |why: String| Refused { priority, why };
    if !(1..=MAX_PRIORITY).contains(&priority) {
        return Err(refused(format!("a priority is 1 to {MAX_PRIORITY}")));
    }
    #[cfg(target_os = "linux")]
    {
        use thread_priority::{
            set_thread_priority_and_policy, thread_native_id, RealtimeThreadSchedulePolicy,
            ThreadPriority, ThreadPriorityValue, ThreadSchedulePolicy,
        };
        let value = ThreadPriorityValue::try_from(priority).map_err(|e| refused(e.to_string()))?;
        let fifo = ThreadSchedulePolicy::Realtime(RealtimeThreadSchedulePolicy::Fifo);
        set_thread_priority_and_policy(
            thread_native_id(),
            ThreadPriority::Crossplatform(value),
            fifo,
        )
        .map_err(|e| match e {
            thread_priority::Error::OS(code) => {
                refused(std::io::Error::from_raw_os_error(code).to_string())
            }
            other => refused(other.to_string()),
        })?;
        REALTIME.with(|r| r.set(true));
        Ok(())
    }
    #[cfg(not(target_os = "linux"))]
    Err(refused(
        "real-time threads are asked for on Linux only".into(),
    ))
}

/// Has the calling thread run as an ordinary thread (`SCHED_OTHER`) again,
/// at the nice value it had, when it runs under another policy (a thread
/// inherits its creator's: a blocking thread started by a real-time worker
/// would be real-time too, a thread started by a follower's idle).
/// Returns whether it is ordinary.
pub fn ordinary() -> bool {
    #[cfg(target_os = "linux")]
    {
        use thread_priority::{
            set_thread_priority_and_policy, thread_native_id, thread_schedule_policy,
            NormalThreadSchedulePolicy, ThreadPriority, ThreadSchedulePolicy,
        };
        REALTIME.with(|r| r.set(false));
        let other = ThreadSchedulePolicy::Normal(NormalThreadSchedulePolicy::Other);
        if matches!(thread_schedule_policy(), Ok(p) if p == other) {
            return true;
        }
        // The nice value is kept under another policy. The library sets
        // one with the policy: asked for the highest (-20), which a thread
        // without the privilege is refused after its policy is changed (its
        // nice value stays), and one with it is given; either way it is
        // then put back where it was, which never needs the privilege (a
        // lowest of 19 would: with only `RLIMIT_RTPRIO` it could not come
        // back).
        let Ok(nice) = rustix::process::getpriority_process(None) else {
            return false;
        };
        let _ = set_thread_priority_and_policy(thread_native_id(), ThreadPriority::Max, other);
        matches!(
            thread_schedule_policy(),
            Ok(ThreadSchedulePolicy::Normal(_))
        ) && rustix::process::setpriority_process(None, nice).is_ok()
    }
    #[cfg(not(target_os = "linux"))]
    true
}

/// Whether the system gives this process real-time `priority`, and lets a
/// thread leave it again for an ordinary one at its own nice value (the
/// blocking threads do, [`ordinary`]): asked on a thread of its own, which
/// then ends, so that the caller's own scheduling is unchanged.
pub fn check(priority: u8) -> Result<(), Refused> {
    std::thread::Builder::new()
        .name("kifu-sched-check".into())
        .spawn(move || {
            realtime(priority)?;
            if ordinary() {
                Ok(())
            } else {
                Err(Refused {
                    priority,
                    why: "a thread could not return to its nice value after it (RLIMIT_NICE)"
                        .into(),
                })
            }
        })
        .map_err(|e| Refused {
            priority,
            why: e.to_string(),
        })?
        .join()
        .unwrap_or_else(|_| {
            Err(Refused {
                priority,
                why: "the check's thread failed".into(),
            })
        })
}

/// For an async worker thread: asks once for the real-time policy when
/// `priority` is given (`tokio::runtime::Builder::on_thread_unpark`, which
/// only the workers run, not the blocking threads). A refusal leaves the
/// thread as it is; [`check`] said so before the start.
pub fn worker(priority: Option<u8>) {
    if let Some(p) = priority {
        if !REALTIME.with(Cell::get) {
            // Asked once: a refusal is not asked again at every wake.
            REALTIME.with(|r| r.set(true));
            let _ = realtime(p);
        }
    }
}

/// A multi-threaded runtime for a server whose appends run first: its
/// async workers ask for `priority` ([`worker`]); its blocking threads
/// (reads, projections) stay ordinary threads ([`ordinary`], as every
/// thread starts).
pub fn runtime(priority: Option<u8>) -> tokio::runtime::Builder {
    let mut b = tokio::runtime::Builder::new_multi_thread();
    b.enable_all();
    if priority.is_some() {
        b.on_thread_start(|| {
            ordinary();
        });
        b.on_thread_unpark(move || worker(priority));
    }
    b
}

/// Has the system schedule the calling thread after the others, by `nice`
/// more than the process's own nice value: the appends' threads (the
/// writer's, the async workers) go first, the feed runs with what is left.
/// On Linux the nice value is the thread's own; elsewhere it would be the
/// whole process's, so nothing is done.
pub(crate) fn lower(nice: i32) {
    ordinary();
    #[cfg(target_os = "linux")]
    if let Ok(now) = rustix::process::getpriority_process(None) {
        let _ = rustix::process::setpriority_process(None, now.saturating_add(nice));
    }
    #[cfg(not(target_os = "linux"))]
    let _ = nice;
}

/// Has the system run the calling thread only when no other thread wants
/// the CPU (`SCHED_IDLE`), and take it from this thread at once when one
/// does: a thread of lower nice value alone may run on until its time
/// slice ends (milliseconds) before a woken append's thread gets the core.
/// On Linux the policy is the thread's own; elsewhere nothing is done.
/// When the system refuses, the thread is given the lowest nice value.
pub(crate) fn idle() {
    #[cfg(target_os = "linux")]
    {
        use thread_priority::{
            set_thread_priority_and_policy, thread_native_id, NormalThreadSchedulePolicy,
            ThreadPriority, ThreadSchedulePolicy,
        };
        let idle = ThreadSchedulePolicy::Normal(NormalThreadSchedulePolicy::Idle);
        if set_thread_priority_and_policy(thread_native_id(), ThreadPriority::Min, idle).is_ok() {
            return;
        }
    }
    lower(19);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_priority_out_of_range_is_refused_before_the_system_is_asked() {
        for p in [0, MAX_PRIORITY + 1, 99] {
            let e = check(p).unwrap_err();
            assert_eq!(e.priority, p);
            assert!(e.to_string().contains("1 to 49"), "{e}");
        }
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn a_checked_priority_leaves_the_caller_as_it_was_and_a_worker_gets_it() {
        use thread_priority::{thread_schedule_policy, ThreadSchedulePolicy};
        let before = thread_schedule_policy().unwrap();
        let allowed = check(5);
        assert_eq!(thread_schedule_policy().unwrap(), before);
        let policy = std::thread::spawn(|| {
            worker(Some(5));
            thread_schedule_policy().unwrap()
        })
        .join()
        .unwrap();
        match allowed {
            Ok(()) => assert!(
                matches!(policy, ThreadSchedulePolicy::Realtime(_)),
                "{policy:?}"
            ),
            Err(e) => {
                assert!(e.to_string().contains("CAP_SYS_NICE"), "{e}");
                assert!(
                    matches!(policy, ThreadSchedulePolicy::Normal(_)),
                    "{policy:?}"
                );
            }
        }
    }
}
