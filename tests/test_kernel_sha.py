"""scarbook.kernel.sha: the built-in SHA-256 (small inputs) and OpenSSL's (large ones) give the digests
`hashlib` gives, so a ledger's recorded sha256 and a page's expected sha256 mean what they meant before."""

from __future__ import annotations

import hashlib

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scarbook.kernel import sha


@given(st.binary(max_size=4096), st.binary(max_size=4096))
def test_small_inputs_hash_as_hashlib_does_also_when_continued(first: bytes, more: bytes) -> None:
    hasher = sha.sha256(first)
    assert hasher.hexdigest() == hashlib.sha256(first).hexdigest()
    copy = hasher.copy()
    copy.update(more)
    assert copy.hexdigest() == hashlib.sha256(first + more).hexdigest()
    assert hasher.hexdigest() == hashlib.sha256(first).hexdigest()  # the copy left the original alone
    assert sha.hexdigest(first + more) == hashlib.sha256(first + more).hexdigest()


@pytest.mark.parametrize("size", [sha.LARGE - 1, sha.LARGE, sha.LARGE + 1, 3 * sha.LARGE])
def test_either_side_of_the_large_threshold_the_digest_is_the_same(size: int) -> None:
    data = bytes(range(256)) * (size // 256) + b"x" * (size % 256)
    assert sha.hexdigest(data) == hashlib.sha256(data).hexdigest()
    assert sha.sha256(data[:10], large=True).hexdigest() == hashlib.sha256(data[:10]).hexdigest()


def test_small_inputs_use_the_built_in_hasher_and_large_ones_openssl() -> None:
    assert sha._BUILTIN is not None  # CPython builds SHA-256 in
    assert type(sha.sha256(b"abc")) is type(sha._BUILTIN(b""))
    assert type(sha.sha256(b"a" * sha.LARGE)) is type(hashlib.sha256())


def test_cache_keys_are_blake2b() -> None:
    assert sha.key(b"entry").hexdigest() == hashlib.blake2b(b"entry").hexdigest()
    assert sha.key(b"entry").hexdigest() != sha.key(b"entry2").hexdigest()
