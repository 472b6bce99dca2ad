"""An independent IHE PCD ACM alarm manager for the hub's tests, written apart from the hub's
code: an MLLP listener that parses every PCD-04 report with the PyPI `hl7` package, checks its
segments and facets, and answers as told.

    manager.py [--answers AE,NONE,CLOSE,AR] [--default AA]

The n-th message received (retries included) gets the n-th answer of --answers, then --default:
AA, AE or AR (an ACK with that MSA-1), NONE (no answer; the connection stays open) or CLOSE (the
connection is closed without an answer). Prints `listening PORT`, then one JSON line per message:
{"controlId", "alarm", "phase", "state", "inactivation", "priority", "event", "source",
"answer", "receivedMs", "problems": [...]} (problems empty when the message is a valid report).
"""

import argparse
import json
import socket
import sys
import threading
import time
from datetime import datetime, timezone

import hl7

START, END = b"\x0b", b"\x1c\x0d"
PROFILE = "IHE_PCD_ACM_001^IHE PCD^1.3.6.1.4.1.19376.1.6.4.4^ISO"
FACETS = {
    "68480": "source",
    "68481": "phase",
    "68482": "state",
    "68483": "inactivation",
    "68484": "priority",
    "68485": "alertType",
    "68546": "text",
}

lock = threading.Lock()
counter = [0]


def field(segment, n):
    try:
        return str(segment[n])
    except (IndexError, KeyError):
        return ""


def check(text):
    """The report's facts and what is wrong with it."""
    problems = []
    facts = {}
    try:
        message = hl7.parse(text)
    except Exception as error:  # noqa: BLE001 - any parse failure is a finding
        return facts, [f"unparsable: {error}"]
    msh = message.segment("MSH")
    facts["controlId"] = field(msh, 10)
    if field(msh, 9) != "ORU^R40^ORU_R40":
        problems.append(f"MSH-9 {field(msh, 9)!r}")
    if field(msh, 11) != "P" or field(msh, 12) != "2.6":
        problems.append(f"MSH-11/12 {field(msh, 11)!r} {field(msh, 12)!r}")
    if field(msh, 15) != "AL":
        problems.append("MSH-15 is not AL")
    if field(msh, 21) != PROFILE:
        problems.append(f"MSH-21 {field(msh, 21)!r}")
    try:
        datetime.strptime(field(msh, 7)[:14], "%Y%m%d%H%M%S").replace(tzinfo=timezone.utc)
    except ValueError:
        problems.append(f"MSH-7 {field(msh, 7)!r}")
    for name in ("PID", "PV1", "OBR"):
        try:
            message.segment(name)
        except KeyError:
            problems.append(f"no {name}")
    try:
        obrs = message.segments("OBR")
    except KeyError:
        obrs = []
    if len(obrs) != 1:
        problems.append(f"{len(obrs)} OBR segments for one alarm")
    else:
        obr = obrs[0]
        if field(obr, 4) != "196616^MDC_EVT_ALARM^MDC":
            problems.append(f"OBR-4 {field(obr, 4)!r}")
        facts["alarm"] = str(obr[3][0][0]) if field(obr, 3) else ""
        if field(obr, 2) != field(obr, 3) or not facts["alarm"]:
            problems.append("OBR-2/3 do not name the alarm")
    try:
        obxs = message.segments("OBX")
    except KeyError:
        obxs = []
    if obxs:
        first = obxs[0]
        if field(first, 3) != "196616^MDC_EVT_ALARM^MDC":
            problems.append(f"OBX-3 of the alarm type {field(first, 3)!r}")
        event = field(first, 5).split("^")
        facts["event"] = event[1] if len(event) > 1 else ""
        if not facts["event"].startswith("MDCX_EVT_PMAT_"):
            problems.append(f"event code {field(first, 5)!r}")
        flags = field(first, 8).split("~")
        if len(flags) != 2 or flags[0] not in ("PH", "PM", "PL") or flags[1] != "SP":
            problems.append(f"OBX-8 {field(first, 8)!r}")
        if not field(first, 18):
            problems.append("no equipment instance (OBX-18)")
    for obx in obxs[1:]:
        code = field(obx, 3).split("^")[0]
        if code in FACETS:
            facts[FACETS[code]] = field(obx, 5)
        if not field(obx, 4).startswith("1.0.0.0."):
            problems.append(f"OBX-4 {field(obx, 4)!r}")
    for name in FACETS.values():
        if name not in facts:
            problems.append(f"no {name} facet")
    if facts.get("phase") not in ("start", "continue", "end"):
        problems.append(f"phase {facts.get('phase')!r}")
    expected = ("inactive", "alert-acknowledged") if facts.get("phase") == "end" else ("active", "enabled")
    if (facts.get("state"), facts.get("inactivation")) != expected:
        problems.append(f"state {facts.get('state')!r} / {facts.get('inactivation')!r} in phase {facts.get('phase')!r}")
    if obxs and facts.get("priority") != field(obxs[0], 8).split("~")[0]:
        problems.append("the priority facet differs from OBX-8")
    return facts, problems


def ack(code, control_id):
    now = datetime.now(timezone.utc).strftime("%Y%m%d%H%M%S")
    return f"MSH|^~\\&|TEST_AM|WARD|PMAT_HUB||{now}||ACK^R40^ACK|ack-{control_id}|P|2.6\rMSA|{code}|{control_id}|{code} from the test manager\r"


def serve(connection, answers, default):
    buffer = b""
    with connection:
        while True:
            data = connection.recv(65536)
            if not data:
                return
            buffer += data
            while START in buffer and END in buffer[buffer.index(START):]:
                start = buffer.index(START)
                end = buffer.index(END, start)
                payload, buffer = buffer[start + 1:end], buffer[end + 2:]
                text = payload.decode("utf-8")
                facts, problems = check(text)
                with lock:
                    n = counter[0]
                    counter[0] += 1
                answer = answers[n] if n < len(answers) else default
                facts.update(answer=answer, problems=problems, receivedMs=int(time.time() * 1000))
                print(json.dumps(facts), flush=True)
                if answer == "CLOSE":
                    return
                if answer in ("AA", "AE", "AR"):
                    connection.sendall(START + ack(answer, facts.get("controlId", "")).encode() + END)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--answers", default="")
    parser.add_argument("--default", default="AA")
    parser.add_argument("--port", type=int, default=0)
    args = parser.parse_args()
    answers = [a for a in args.answers.split(",") if a]
    server = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    server.bind(("127.0.0.1", args.port))
    server.listen()
    print(f"listening {server.getsockname()[1]}", flush=True)
    while True:
        connection, _ = server.accept()
        threading.Thread(target=serve, args=(connection, answers, args.default), daemon=True).start()


if __name__ == "__main__":
    sys.exit(main())
