"""Schemathesis hooks for Roster, loaded with SCHEMATHESIS_HOOKS=hooks (PYTHONPATH=tools/schemathesis)."""

import unicodedata
import uuid
from urllib.parse import urlencode

import schemathesis


def _headers_are_positive(case):
    """Whether the case's headers were generated to fit the schema (or are not generated at all)."""
    meta = getattr(case, "meta", None)
    components = getattr(meta, "components", None) or {}
    for location, info in components.items():
        if str(getattr(location, "value", location)) == "header":
            return info.mode.is_positive
    return True


@schemathesis.hook
def map_case(context, case):
    # Roster reads every request body as JSON whatever Content-Type says (the fixed interface's clients
    # send `*/*`), and its document declares the JSON schema under `*/*` too. A `*/*` body is therefore
    # JSON: Schemathesis would otherwise serialise it as YAML, XML or multipart, which no client sends.
    # A SAML IdP's post is a form (HTTP-POST binding), declared as one: it stays one.
    saml_post = case.operation.path == "/api/v1/sso/saml/acs"
    if case.media_type is not None and case.media_type != "application/json" and not saml_post:
        case.media_type = "application/json"
    # An Idempotency-Key names one request: sent again with another request it is refused (422) by
    # contract, which no schema can say; nor can it say "printable ASCII" without starving generation.
    # So a request generated to be valid gets a key of its own; an invalid one keeps its key (400).
    headers = case.headers or {}
    if "Idempotency-Key" in headers and _headers_are_positive(case):
        headers["Idempotency-Key"] = uuid.uuid4().hex
    return case


def _strings(value):
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _strings(key)
            yield from _strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)


def _hidden_beyond_bmp(text):
    return any(ord(char) > 0xFFFF and unicodedata.category(char) in ("Cf", "Co") for char in text)


@schemathesis.hook
def filter_body(context, body):
    # Stored text refuses format and private-use characters (400). The published pattern lists those of
    # the Basic Multilingual Plane: a pattern for those beyond it (private-use planes 15 and 16, tags)
    # reads differently in ECMAScript and in Python, so no schema can say it. Bodies holding them are
    # not generated as valid ones.
    return not any(_hidden_beyond_bmp(text) for text in _strings(body))


@schemathesis.hook
def filter_query(context, query):
    # Bun refuses a request whose line and headers pass 16 KB (431) before Roster reads it. Long
    # query parameters (an OIDC callback's code, issuer and error description), percent-encoded from
    # characters of up to four bytes, pass that limit; such a request is the runtime's to refuse.
    return len(urlencode(query or {}, doseq=True)) < 12_000
