//! libFuzzer catches a crash in its SIGSEGV handler, which reports it and
//! writes the input as an artifact. A stack overflow is a SIGSEGV on the
//! guard page, where the handler cannot run on the exhausted stack: the
//! process died with no report and no artifact. libFuzzer keeps
//! `SA_ONSTACK` from the handler it replaces, so this installs the default
//! action with that flag and an alternate signal stack for the main thread
//! (where libFuzzer runs the target) before libFuzzer sets its handler.

pub fn install() {
    // Room for libFuzzer's report (a symbolized stack trace) and artifact.
    const SIZE: usize = 8 << 20;
    let stack: &'static mut [u8] = Box::leak(vec![0u8; SIZE].into_boxed_slice());
    // SAFETY: the stack lives for the process; the structures are plain
    // data initialised here; both calls only register them.
    unsafe {
        let ss = libc::stack_t { ss_sp: stack.as_mut_ptr().cast(), ss_flags: 0, ss_size: SIZE };
        assert_eq!(libc::sigaltstack(&ss, std::ptr::null_mut()), 0, "sigaltstack");
        let mut sa: libc::sigaction = std::mem::zeroed();
        sa.sa_sigaction = libc::SIG_DFL;
        sa.sa_flags = libc::SA_ONSTACK;
        assert_eq!(libc::sigaction(libc::SIGSEGV, &sa, std::ptr::null_mut()), 0, "sigaction");
    }
}
