"""Ids from names: the one escaper of ids, a page's id from its URL, a file name as text.

An id never holds white space (TREC files split their columns at it): ``safe_id`` percent-encodes
it, and '%' too, so two names never give one id. Every id qrelsmith makes goes through it;
``spaceless_id`` is the same escaper for ids given to qrelsmith (align's chunk ids).
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit

#: Ports left out of an article id because the scheme implies them.
DEFAULT_PORTS = {"http": 80, "https": 443}

_UNSAFE_IN_ID = re.compile(r"[\s%]")
_WHITE_SPACE = re.compile(r"\s")
_SCHEME = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.\-]*://")
_UNDECODED = re.compile("[\udc80-\udcff]")


def _percent_encoded(match: re.Match[str]) -> str:
    return "".join(f"%{b:02X}" for b in match.group(0).encode("utf-8"))


def safe_id(text: str) -> str:
    """An id with no white space: white space and '%' are percent-encoded (UTF-8)."""
    return _UNSAFE_IN_ID.sub(_percent_encoded, text)


def spaceless_id(text: str) -> str:
    """An id given to qrelsmith (a chunk's) with its white space percent-encoded as ``safe_id``
    does, and its '%' kept: the user's runs spell such an id as it is, ``c%201`` stays ``c%201``."""
    return _WHITE_SPACE.sub(_percent_encoded, text)


def url_id(url: str) -> str:
    """The article id of a URL: no scheme, user or fragment; host lower-cased, default port dropped.

    ``https://Example.com:443/blog/rdp#top`` -> ``example.com/blog/rdp``: a re-crawl over http or
    https, or a link with a fragment, gives the same id. The query string is kept (it can name
    a different page).
    """
    try:
        parts = urlsplit(url.strip())
        host = (parts.hostname or "").rstrip(".")
        port = parts.port
    except ValueError:  # a malformed port or IPv6 literal: keep the text, minus scheme/fragment
        text = _SCHEME.sub("", url.strip())
        return safe_id(text.split("#", 1)[0])
    if port is not None and DEFAULT_PORTS.get(parts.scheme.lower()) != port:
        host = f"{host}:{port}"
    location = host + (parts.path or "/") if host else parts.path
    if parts.query:
        location += "?" + parts.query
    return safe_id(location)


def escaped_name(name: str) -> str:
    """A file name with the bytes that are not UTF-8 as ``\\xNN``: ``bad\\xff.html`` keeps
    its backslash form, told apart from a file named ``bad%FF.html``, whose readable name
    (and so id) it shares; "" for a name that is all UTF-8."""
    if not _UNDECODED.search(name):
        return ""
    return _UNDECODED.sub(lambda m: f"\\x{ord(m.group(0)) - 0xDC00:02x}", name)


def readable_name(name: str) -> str:
    """A file name as text every output can hold: bytes of the name that are not UTF-8 (which
    Python keeps as lone surrogates) are percent-encoded, ``bad\\xff.html`` -> ``bad%FF.html``."""
    return _UNDECODED.sub(lambda m: f"%{ord(m.group(0)) - 0xDC00:02X}", name)
