"""Page bytes -> text encoding: BOM, then the page's own declaration, then HTTP, then detection.

Japanese sites still serve Shift_JIS and EUC-JP, and declarations are sometimes wrong, so a
declared encoding is only trusted when the bytes decode under it without error — or with a
few undecodable bytes (a page cut and pasted together, one stray byte), which are read as
U+FFFD as a browser shows them and counted (``patterns.REPLACEMENT_MAX_SHARE``). Detection
comes last, and a Western page keeps windows-1252 (``patterns.WESTERN_DEFAULT``).
"""

from __future__ import annotations

import codecs
import re

from ..errors import DataError
from ..patterns import (
    BINARY_NUL_SHARE,
    LATIN_GUESSES,
    PRESCAN_BYTES,
    REPLACEMENT_MAX_SHARE,
    REPLACEMENT_MIN_ALLOWED,
    UTF8_EVIDENCE_RATIO,
    WESTERN_DEFAULT,
)

#: ``[^<>]``: a search never runs past the next tag (``[^>]`` made a page of unclosed ``<meta``
#: tags cost quadratic time).
_META_CHARSET = re.compile(
    rb"""<meta[^<>]+?charset\s*=\s*["']?\s*([a-zA-Z0-9_.:\-]+)""", re.IGNORECASE
)

_BOMS: tuple[tuple[bytes, str], ...] = (
    (codecs.BOM_UTF8, "utf-8"),
    (codecs.BOM_UTF32_LE, "utf-32-le"),
    (codecs.BOM_UTF32_BE, "utf-32-be"),
    (codecs.BOM_UTF16_LE, "utf-16-le"),
    (codecs.BOM_UTF16_BE, "utf-16-be"),
)

#: Labels browsers decode as a superset (WHATWG Encoding Standard): Shift_JIS pages are really
#: windows-31j, ISO-8859-1 pages are windows-1252, EUC-KR pages are windows-949.
_SUPERSETS = {
    "shift_jis": "cp932",
    "ms932": "cp932",
    "latin_1": "cp1252",
    "ascii": "cp1252",
    "euc_kr": "cp949",
    "gb2312": "gb18030",
    "gbk": "gb18030",
}


def canonical(label: str | None) -> str | None:
    """Python's codec name for an encoding label, widened to what browsers use; None if unknown."""
    if not label:
        return None
    try:
        name = codecs.lookup(label.strip().strip("\"'")).name
    except LookupError:
        return None
    return _SUPERSETS.get(name.replace("-", "_"), name)


def declared_encoding(data: bytes) -> str | None:
    """The encoding named by ``<meta charset>`` or ``http-equiv`` near the top of the page."""
    found = _META_CHARSET.search(data[:PRESCAN_BYTES])
    return canonical(found.group(1).decode("ascii", "replace")) if found else None


def _decodes(data: bytes, encoding: str) -> bool:
    try:
        data.decode(encoding)
    except (UnicodeDecodeError, LookupError):
        return False
    return True


def replacements(data: bytes, encoding: str) -> tuple[str, int]:
    """``data`` decoded with U+FFFD for what ``encoding`` cannot decode, and how many were put
    in (U+FFFD the page itself holds are not counted)."""
    text = data.decode(encoding, errors="replace")
    try:
        own = data.count("\ufffd".encode(encoding)) if "\ufffd" in text else 0
    except UnicodeEncodeError:  # the encoding has no U+FFFD: every one is a replacement
        own = 0
    return text, text.count("\ufffd") - own


_ASCII = bytes(range(128))


def _few(replaced: int, data: bytes) -> bool:
    return replaced <= max(REPLACEMENT_MIN_ALLOWED, REPLACEMENT_MAX_SHARE * len(data))


def sniff(
    data: bytes, http_charset: str | None = None, forced: str | None = None
) -> tuple[str, int]:
    """(encoding, BOM length) for ``data``; raises DataError when no encoding fits."""
    encoding, bom, _ = sniff_page(data, http_charset, forced)
    return encoding, bom


def sniff_page(
    data: bytes, http_charset: str | None = None, forced: str | None = None
) -> tuple[str, int, int]:
    """(encoding, BOM length, characters to replace) for ``data``; raises DataError when no
    encoding fits. The last is 0 unless the page is read with a few bytes replaced.

    Order: a forced encoding, the BOM, ``<meta charset>``, the HTTP charset, UTF-8 (each
    taken when the bytes decode under it); then the first of those under which only a few
    bytes do not decode (UTF-8 only when it is clearly UTF-8); then detection.
    """
    if forced:
        encoding = canonical(forced)
        if encoding is None:
            raise DataError(f"unknown encoding {forced!r}")
        return encoding, 0, 0
    for bom, encoding in _BOMS:
        if data.startswith(bom):
            return encoding, len(bom), 0
    head = data[:PRESCAN_BYTES]
    # at least one stray NUL is tolerated, however short the page
    if head and head.count(0) > max(1.0, BINARY_NUL_SHARE * len(head)):
        raise DataError("binary data, not HTML")
    declared = [canonical(label) for label in (None, http_charset)]
    declared[0] = declared_encoding(data)
    # A page that declares UTF-16 but has no BOM is ASCII-compatible in practice.
    candidates = [c for c in (*declared, "utf-8") if c and not c.startswith("utf_16")]
    for candidate in candidates:
        if _decodes(data, candidate):
            return candidate, 0, 0
    for candidate in dict.fromkeys(candidates):
        text, replaced = replacements(data, candidate)
        if not _few(replaced, data):
            continue
        if candidate == "utf-8" and candidate not in declared:
            ascii_bytes = len(data) - len(data.translate(None, _ASCII))
            valid = len(text) - ascii_bytes - replaced  # multi-byte characters decoded
            if valid < UTF8_EVIDENCE_RATIO * replaced:
                continue  # not clearly UTF-8: a Latin-1 page's bytes are each "bad"
        return candidate, 0, replaced
    return _detected(data), 0, 0


def _detected(data: bytes) -> str:
    from charset_normalizer import from_bytes  # rarely needed: imported when it is

    best = from_bytes(data).best()
    guess = None if best is None or best.encoding is None else canonical(best.encoding)
    if (guess is None or guess in LATIN_GUESSES) and _decodes(data, WESTERN_DEFAULT):
        return WESTERN_DEFAULT
    if guess is None:
        raise DataError("cannot detect the text encoding")
    return guess


def decode(
    data: bytes, http_charset: str | None = None, forced: str | None = None
) -> tuple[str, str]:
    """(text, encoding) of a page's bytes."""
    encoding, skip = sniff(data, http_charset, forced)
    return data[skip:].decode(encoding, errors="replace"), encoding
