"""A chapter page gzipped without compressing the chapter again for every visitor.

A chapter page is three pieces: the page around the chapter (header with the visitor's CSRF
token and name, heading, pager: a few kB, different per request), the chapter body (about
250 kB, the same for every visitor, cached per process by ``views.chapter_body``) and the rest.
Compressing 250 kB costs a few milliseconds per request, more than the rest of the page; so
the body is compressed once and kept, and each response is put together as one gzip member:

- a gzip header (with random padding in the name field, the same BREACH mitigation as
  Django's ``GZipMiddleware``),
- the raw deflate data of the prefix, ended by a *full flush* (byte-aligned, no block marked
  final, nothing later refers back into it),
- the cached deflate data of the body, made by its own compressor and ended the same way,
- the deflate data of the suffix, ended as the final block,
- CRC-32 and length of the whole page.

A deflate stream may consist of any sequence of blocks, so the three parts are one valid
stream; a full flush makes each part independent of the ones before it. ``GZipMiddleware``
leaves the response alone because it already has a ``Content-Encoding``.
"""

from __future__ import annotations

import re
import secrets
import struct
import threading
import zlib
from collections import OrderedDict

from django.http import HttpRequest

__all__ = ["CACHE_SIZE", "LEVEL", "accepts_gzip", "gzip_page"]

LEVEL = 6
CACHE_SIZE = 64
_ACCEPTS_GZIP = re.compile(r"\bgzip\b")
_deflated: OrderedDict[str, tuple[bytes, bytes]] = OrderedDict()
_lock = threading.Lock()


def accepts_gzip(request: HttpRequest) -> bool:
    return bool(_ACCEPTS_GZIP.search(request.META.get("HTTP_ACCEPT_ENCODING", "")))


def _deflate(data: bytes, final: bool) -> bytes:
    compressor = zlib.compressobj(LEVEL, zlib.DEFLATED, -zlib.MAX_WBITS)
    return compressor.compress(data) + compressor.flush(zlib.Z_FINISH if final else zlib.Z_FULL_FLUSH)


def deflated_body(body: str) -> tuple[bytes, bytes]:
    """(UTF-8 bytes, deflate data ending in a full flush) of a shared body, computed once."""
    with _lock:
        found = _deflated.get(body)
        if found is not None:
            _deflated.move_to_end(body)
            return found
    raw = body.encode()
    data = _deflate(raw, final=False)
    with _lock:
        _deflated[body] = (raw, data)
        while len(_deflated) > CACHE_SIZE:
            _deflated.popitem(last=False)
    return raw, data


def clear() -> None:
    with _lock:
        _deflated.clear()


def gzip_page(prefix: str, body: str, suffix: str) -> bytes:
    """``prefix + body + suffix`` as a gzip member, the body's compression reused."""
    head, tail = prefix.encode(), suffix.encode()
    raw_body, deflated = deflated_body(body)
    crc = zlib.crc32(tail, zlib.crc32(raw_body, zlib.crc32(head)))
    size = len(head) + len(raw_body) + len(tail)
    padding = secrets.token_hex(secrets.randbelow(50) + 1).encode()  # FNAME: random length against BREACH
    header = b"\x1f\x8b\x08\x08" + b"\x00\x00\x00\x00" + b"\x00\xff" + padding + b"\x00"
    return b"".join(
        (
            header,
            _deflate(head, final=False),
            deflated,
            _deflate(tail, final=True),
            struct.pack("<II", crc, size & 0xFFFFFFFF),
        )
    )
