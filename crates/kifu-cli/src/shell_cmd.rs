//! `kifu completions SHELL` and `kifu man`: generated from the argument
//! definitions, so they never disagree with the program.

use clap::Args;

use crate::CmdResult;

/// `kifu completions bash|zsh|fish|elvish|powershell`, for the program's
/// argument definitions `cmd`.
pub fn completions(mut cmd: clap::Command, a: CompletionsArgs) -> CmdResult {
    let mut out = Vec::new();
    clap_complete::generate(a.shell, &mut cmd, "kifu", &mut out);
    write_out(&out)
}

/// Writes to standard output; a reader that went away ends quietly.
fn write_out(bytes: &[u8]) -> CmdResult {
    use std::io::Write as _;
    let mut stdout = std::io::stdout().lock();
    match stdout.write_all(bytes).and_then(|()| stdout.flush()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(e.into()),
        _ => Ok(()),
    }
}

/// `kifu man`: the manual page in roff, for the program's argument
/// definitions `cmd`.
pub fn man(cmd: clap::Command) -> CmdResult {
    let page = clap_mangen::Man::new(cmd);
    let mut out = Vec::new();
    page.render(&mut out)?;
    write_out(&out)
}

/// `kifu completions`.
#[derive(Debug, Args)]
pub struct CompletionsArgs {
    /// The shell.
    pub shell: clap_complete::Shell,
}
