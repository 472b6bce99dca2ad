"""Schemathesis hooks for scripts/api-fuzz.sh.

Two rules of the hub depend on the clock, which a static OpenAPI document cannot state: a
patient's `birthDate` is not after today (spec §5) and an analysis's `creationDate` is not in the
future. The document types both as Unix seconds; these hooks move generated values that lie in the
future back to now, so that a body the document describes is one the hub accepts.
"""

import time

import schemathesis

INT64_MAX = 2**63 - 1


def _not_in_the_future(body, field):
    value = body.get(field)
    # Only values the document calls valid (an int64): a larger one is the fuzzer's invalid case.
    if isinstance(value, int) and not isinstance(value, bool) and int(time.time()) < value <= INT64_MAX:
        body[field] = int(time.time())


@schemathesis.hook
def map_case(context, case):
    # `map_case` runs in every phase (`map_body` only where Hypothesis draws the body).
    if isinstance(case.body, dict):
        _not_in_the_future(case.body, "birthDate")
        _not_in_the_future(case.body, "creationDate")
    return case
