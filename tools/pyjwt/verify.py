"""Verifies an access token with PyJWT against the key set at a URL, as a product in Python would:
the key its `kid` names, the algorithm that key names, the issuer, the audience and the time. Reads
`jwks_url issuer audience` as arguments and the token on standard input; writes the claims as JSON,
or the refusal on standard error (exit 1)."""
import json
import sys

import jwt

jwks_url, issuer, audience = sys.argv[1:4]
token = sys.stdin.read().strip()
try:
    header = jwt.get_unverified_header(token)
    if header.get("typ") not in ("at+jwt", "application/at+jwt"):
        raise jwt.InvalidTokenError(f"typ {header.get('typ')!r} is not an access token's")
    key = jwt.PyJWKClient(jwks_url).get_signing_key_from_jwt(token)
    claims = jwt.decode(
        token,
        key.key,
        algorithms=[key.algorithm_name],
        issuer=issuer,
        audience=audience,
        options={"require": ["exp", "iat", "iss", "aud", "sub"]},
    )
except jwt.PyJWTError as error:
    print(f"{type(error).__name__}: {error}", file=sys.stderr)
    sys.exit(1)
json.dump(claims, sys.stdout)
