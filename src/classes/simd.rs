//! Proofs that the processor has the vector extensions that the byte-shuffle paths of canonical
//! forms and fingerprints are compiled for.
//!
//! Each path is a `#[target_feature]` function that takes a token as an argument, and a token is a
//! zero-sized value that only its run-time check makes: so such a function cannot be reached on a
//! processor that lacks its extension, and each call's `unsafe` block has the token to point to.
//! Every path has a plain twin for other processors, which the tests compare it with.

/// Proof that the processor has SSSE3 (`pshufb`): only [`Ssse3::detect`] makes one.
#[cfg(target_arch = "x86_64")]
#[derive(Clone, Copy)]
pub(crate) struct Ssse3(());

#[cfg(target_arch = "x86_64")]
impl Ssse3 {
    /// An `Ssse3` if the processor has the extension (the answer is cached after the first call).
    #[inline(always)]
    pub(crate) fn detect() -> Option<Ssse3> {
        is_x86_feature_detected!("ssse3").then_some(Ssse3(()))
    }
}

/// Proof that the processor has AVX2: only [`Avx2::detect`] makes one.
#[cfg(target_arch = "x86_64")]
#[derive(Clone, Copy)]
pub(crate) struct Avx2(());

#[cfg(target_arch = "x86_64")]
impl Avx2 {
    /// An `Avx2` if the processor has the extension (the answer is cached after the first call).
    #[inline(always)]
    pub(crate) fn detect() -> Option<Avx2> {
        is_x86_feature_detected!("avx2").then_some(Avx2(()))
    }
}
