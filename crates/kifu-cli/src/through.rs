//! Which commands act through a server: the one place that decides what
//! `--server URL` (or `KIFU_SERVER`) does to each command.
//!
//! With a server named, a command either acts through it, or needs no store
//! at all (it reads only the files it is given), or is refused in one line
//! saying what to do instead. No command then opens or creates a data
//! directory: [`crate::store_open`] refuses to, as a second line of defence.

use crate::cli::Command;
use crate::clock_cmd::ClockCommand;
use crate::renju_cmd::RenjuCommand;
use crate::sgf_cmd::SgfCommand;
use crate::tlog_cmd::{CheckProofCommand, ProveCommand};

/// What a command does when a server is named.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reach {
    /// It acts through the server.
    Server,
    /// It reads no store, only the files it is given (or a NATS stream):
    /// the server does not matter to it.
    NoStore,
    /// It cannot act through a server: the line to tell the user.
    Refused(&'static str),
}

/// What `cmd` does when a server is named.
pub fn reach(cmd: &Command) -> Reach {
    use Reach::*;
    match cmd {
        Command::Key(crate::key_cmd::KeyCommand::Fingerprint(_)) => NoStore,
        Command::Checkpoint(a) if a.rotate_to.is_some() => Refused(
            "kifu checkpoint --rotate-to rotates the key of a data directory's log and cannot act through a server yet: run it with --data DIR without --server, while no server holds the store",
        ),
        Command::NewGame(_)
        | Command::Append(_)
        | Command::Log(_)
        | Command::Export(_)
        | Command::Import(_)
        | Command::Demo(_)
        | Command::Soak(_)
        | Command::Replay(_)
        | Command::Sanctions(_)
        | Command::Explain(_)
        | Command::Match(_)
        | Command::Rehearse(_)
        | Command::Checkpoint(_)
        | Command::Witness(_)
        | Command::Key(_)
        | Command::Games(_)
        | Command::Sgf(SgfCommand::Import(_) | SgfCommand::Export(_))
        | Command::Audit(_)
        | Command::Devices(_)
        | Command::Prove(
            ProveCommand::Inclusion(_) | ProveCommand::Consistency(_) | ProveCommand::Map(_),
        ) => Server,
        // A file given is verified offline; without one, the server's store.
        Command::Verify(a) if a.file.is_some() => NoStore,
        Command::Verify(_) => Server,
        Command::Feed(a) if a.nats.nats.is_some() => NoStore,
        Command::Feed(_) => Server,
        Command::Keygen(_)
        | Command::Clock(ClockCommand::Replay(_))
        | Command::Renju(RenjuCommand::Check(_))
        | Command::Sgf(SgfCommand::Board(_))
        | Command::CheckProof(
            CheckProofCommand::Inclusion(_)
            | CheckProofCommand::Consistency(_)
            | CheckProofCommand::Map(_),
        )
        | Command::Completions(_)
        | Command::Man => NoStore,
        Command::Publish(_) => Refused(
            "kifu publish reads a data directory itself and cannot act through a server: have the server publish (`kifu serve --nats URL`), or run `kifu publish --data DIR` without --server (unset KIFU_SERVER)",
        ),
        Command::Mirror(_) => Refused(
            "kifu mirror writes a store of its own and cannot act through a server: run `kifu mirror --data DIR` without --server (unset KIFU_SERVER)",
        ),
        Command::Serve(_) => Refused(
            "kifu serve serves a data directory itself: name it with --data DIR and drop --server (unset KIFU_SERVER)",
        ),
        // The chain is read from and written to the server
        // (`POST /tournaments[/{t}/records]`), signed here.
        Command::Tournament(_) => Server,
        Command::Tiles(_) => Refused(
            "kifu tiles cannot act through a server: the server serves the same tiles itself at /tile/... (docs/API.md); or run `kifu tiles --data DIR` without --server",
        ),
        Command::Bundle(_) => Refused(
            "kifu bundle cannot act through a server: the server gives a game's bundle at its latest checkpoint itself (GET /games/ID/bundle, docs/API.md); or run it with --data DIR on a copy of the store, without --server",
        ),
        Command::Prove(ProveCommand::Rotation(_)) => Refused(
            "kifu prove rotation cannot act through a server yet: run it with --data DIR on a copy of the store, without --server",
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    fn reach_of(args: &[&str]) -> Reach {
        let cli = crate::cli::Cli::try_parse_from(args).unwrap();
        reach(&cli.command)
    }

    #[test]
    fn a_file_to_verify_needs_no_store_and_the_store_goes_through_the_server() {
        assert_eq!(reach_of(&["kifu", "verify", "a.kifu"]), Reach::NoStore);
        assert_eq!(reach_of(&["kifu", "verify"]), Reach::Server);
        assert_eq!(
            reach_of(&["kifu", "feed", "--nats", "nats://127.0.0.1:1"]),
            Reach::NoStore
        );
        assert_eq!(reach_of(&["kifu", "feed"]), Reach::Server);
        assert_eq!(
            reach_of(&["kifu", "tournament", "standings", "Open"]),
            Reach::Server
        );
        assert!(matches!(
            reach_of(&["kifu", "publish", "--nats", "nats://127.0.0.1:1"]),
            Reach::Refused(_)
        ));
    }
}
