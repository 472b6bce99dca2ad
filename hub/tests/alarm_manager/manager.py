"""An independent IHE PCD ACM alarm manager for the hub's tests, written apart from the hub's
code: an MLLP listener that parses every PCD-04 report with the PyPI `hl7` package, checks its
segments and facets, and answers as told.

    manager.py [--answers AE,NONE,CLOSE,AR] [--default AA] [--tls-cert CERT.pem --tls-key KEY.pem]

The n-th message received (retries included) gets the n-th answer of --answers, then --default:
AA, AE or AR (an ACK with that MSA-1), NONE (no answer; the connection stays open) or CLOSE (the
connection is closed without an answer). With --tls-cert and --tls-key every connection is MLLP
over TLS (Python's `ssl`, the server side; a failed handshake is printed as
{"tlsError": ...}). Prints `listening PORT`, then one JSON line per message:
{"controlId", "alarm", "phase", "state", "inactivation", "priority", "event", "source",
"answer", "receivedMs", "problems": [...]} (problems empty when the message is a valid report).

PCD-05: commands on stdin, one JSON object per line, make it report an alarm's status back to the
hub's status listener as an alarm manager would, over MLLP with the `hl7` package's client:

    {"status": {"to": "HOST:PORT", "alarm": ALARM_ID, "value": "accepted", "who": "N42^Okafor^Grace",
                "controlId": "st-1"}}
    {"raw": {"to": "HOST:PORT", "text": "anything"}}

Either takes "tls": {"ca": CA.pem, "cert": CERT.pem, "key": KEY.pem} to speak MLLP over TLS to a
hub whose listener uses TLS (Python's `ssl`, the client side, wrapped around the `hl7` client's
socket): the hub's certificate must chain to "ca" and name the host; "cert"/"key", when given, are
the manager's client certificate for mutual TLS.

Each is answered on stdout with {"pcd05": {"controlId", "ack": MSA-1, "ackControlId": MSA-2,
"ackText": MSA-3}} (the hub's ACK parsed with `hl7`), or {"pcd05": {"error": ...}}.
"""

import argparse
import json
import socket
import ssl
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


def serve(connection, answers, default, tls=None):
    buffer = b""
    if tls is not None:
        try:
            connection = tls.wrap_socket(connection, server_side=True)
        except (ssl.SSLError, OSError) as error:
            print(json.dumps({"tlsError": str(error)}), flush=True)
            connection.close()
            return
    with connection:
        while True:
            try:
                data = connection.recv(65536)
            except (ssl.SSLError, OSError):
                return
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


def alert_status(alarm, value, who, control_id):
    """An ORA^R41 Report Alert Status for one alarm the hub reported (OBR-3 as the hub sent it)."""
    now = datetime.now(timezone.utc).strftime("%Y%m%d%H%M%S+0000")
    text = "\r".join([
        f"MSH|^~\\&|TEST_AM|WARD|PMAT_HUB||{now}||ORA^R41^ORA_R41|{control_id}|P|2.6|||AL|NE||UNICODE UTF-8|||{PROFILE}",
        "PID|1",
        f"OBR|1|{alarm}^PMAT_HUB|{alarm}^PMAT_HUB|196616^MDC_EVT_ALARM^MDC",
        f"OBX|1|ST|0^MDCX_ATTR_ALERT_STATUS^MDC|1.0.0.0.1|{value}||||||F|||{now}||{who}",
    ]) + "\r"
    message = hl7.parse(text)
    assert str(message.segment("MSH")[9]) == "ORA^R41^ORA_R41"
    return str(message)


def send_to_hub(to, payload, tls=None):
    import hl7.client

    host, port = to.rsplit(":", 1)
    with hl7.client.MLLPClient(host, int(port)) as client:
        if tls is not None:
            context = ssl.create_default_context(ssl.Purpose.SERVER_AUTH, cafile=tls["ca"])
            if tls.get("cert"):
                context.load_cert_chain(tls["cert"], tls["key"])
            client.socket = context.wrap_socket(client.socket, server_hostname=host)
        answer = client.send_message(payload)
    if isinstance(answer, bytes):
        answer = answer.decode("utf-8")
    reply = hl7.parse(answer.strip("\x0b\x1c\r\n"))
    msa = reply.segment("MSA")
    return {"ack": field(msa, 1), "ackControlId": field(msa, 2), "ackText": field(msa, 3)}


def commands():
    for line in sys.stdin:
        if not line.strip():
            continue
        command = json.loads(line)
        try:
            if "status" in command:
                c = command["status"]
                status = alert_status(c["alarm"], c["value"], c.get("who", ""), c["controlId"])
                out = send_to_hub(c["to"], status, c.get("tls"))
                out["controlId"] = c["controlId"]
            else:
                c = command["raw"]
                out = send_to_hub(c["to"], c["text"].encode(), c.get("tls"))
        except Exception as error:  # noqa: BLE001 - reported to the test
            out = {"error": repr(error)}
        print(json.dumps({"pcd05": out}), flush=True)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--answers", default="")
    parser.add_argument("--default", default="AA")
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--tls-cert")
    parser.add_argument("--tls-key")
    args = parser.parse_args()
    tls = None
    if args.tls_cert:
        tls = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        tls.load_cert_chain(args.tls_cert, args.tls_key)
    answers = [a for a in args.answers.split(",") if a]
    server = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    server.bind(("127.0.0.1", args.port))
    server.listen()
    print(f"listening {server.getsockname()[1]}", flush=True)
    threading.Thread(target=commands, daemon=True).start()
    while True:
        connection, _ = server.accept()
        threading.Thread(target=serve, args=(connection, answers, args.default, tls), daemon=True).start()


if __name__ == "__main__":
    sys.exit(main())
