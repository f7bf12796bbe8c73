"""Runs scim2-tester's check_server against a SCIM service; exits 1 on any check that is not a success.

Usage: python check_server.py BASE_URL TOKEN
"""

import sys

from httpx2 import Client
from scim2_client.engines.httpx2 import SyncSCIMClient
from scim2_tester import Status, check_server


def main() -> int:
    base, token = sys.argv[1], sys.argv[2]
    http = Client(base_url=base, headers={"Authorization": f"Bearer {token}"}, timeout=30)
    results = check_server(SyncSCIMClient(http))
    failed = [r for r in results if r.status not in (Status.SUCCESS, Status.SKIPPED)]
    for result in failed:
        print(f"{result.status.name} {result.resource_type or ''} {result.title}: {result.reason}")
    succeeded = sum(1 for r in results if r.status == Status.SUCCESS)
    skipped = sum(1 for r in results if r.status == Status.SKIPPED)
    print(f"scim2-tester: {succeeded} succeeded, {len(failed)} failed, {skipped} skipped")
    return 1 if failed or succeeded == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
