"""Schemathesis hooks for Roster, loaded with SCHEMATHESIS_HOOKS=hooks (PYTHONPATH=tools/schemathesis)."""

import schemathesis


@schemathesis.hook
def map_case(context, case):
    # Roster reads every request body as JSON whatever Content-Type says (the fixed interface's clients
    # send `*/*`), and its document declares the JSON schema under `*/*` too. A `*/*` body is therefore
    # JSON: Schemathesis would otherwise serialise it as YAML, XML or multipart, which no client sends.
    if case.media_type is not None and case.media_type != "application/json":
        case.media_type = "application/json"
    return case
