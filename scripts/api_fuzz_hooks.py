"""Schemathesis hooks for scripts/api-fuzz.sh.

Three rules of the hub depend on the clock, which a static OpenAPI document cannot state: a
patient's `birthDate` is not after today (spec §5), an analysis's `creationDate` is not in the
future, and a recorded turn's `atMs` lies within the last 12 hours (issue 23). The document types
them as Unix seconds or milliseconds and says the rule in words; these hooks move generated values
outside it to now, so that a body the document describes is one the hub accepts.
"""

import time

import schemathesis

INT64_MAX = 2**63 - 1


def _not_in_the_future(body, field):
    value = body.get(field)
    # Only values the document calls valid (an int64): a larger one is the fuzzer's invalid case.
    if isinstance(value, int) and not isinstance(value, bool) and int(time.time()) < value <= INT64_MAX:
        body[field] = int(time.time())


def _within_the_last_hours(body, field, hours):
    value = body.get(field)
    now_ms = int(time.time() * 1000)
    if isinstance(value, int) and not isinstance(value, bool) and -INT64_MAX - 1 <= value <= INT64_MAX:
        if not now_ms - hours * 3_600_000 < value <= now_ms:
            body[field] = now_ms


@schemathesis.hook
def map_case(context, case):
    # `map_case` runs in every phase (`map_body` only where Hypothesis draws the body).
    if isinstance(case.body, dict):
        _not_in_the_future(case.body, "birthDate")
        _not_in_the_future(case.body, "creationDate")
        _within_the_last_hours(case.body, "atMs", 12)
    return case
