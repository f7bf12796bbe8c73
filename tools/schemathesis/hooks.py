"""Schemathesis hooks for Roster, loaded with SCHEMATHESIS_HOOKS=hooks (PYTHONPATH=tools/schemathesis)."""

import uuid

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
    if case.media_type is not None and case.media_type != "application/json":
        case.media_type = "application/json"
    # An Idempotency-Key names one request: sent again with another request it is refused (422) by
    # contract, which no schema can say; nor can it say "printable ASCII" without starving generation.
    # So a request generated to be valid gets a key of its own; an invalid one keeps its key (400).
    headers = case.headers or {}
    if "Idempotency-Key" in headers and _headers_are_positive(case):
        headers["Idempotency-Key"] = uuid.uuid4().hex
    return case
