#!/usr/bin/env python3
"""Writes the fuzz corpora's seed inputs (fuzz/seeds/<target>/) from real protocol messages:
a device hello, frames of each cell format, an ack, framed streams; ingest connections (a hello of
a registered device, then frames, acks and a second hello); every browser event of
docs/browser-protocol.md in MessagePack and JSON; every REST body the hub validates; captures of
each analysis kind.
Needs the `msgpack` package from PyPI (pip install msgpack). Run from the repository root."""
import base64, json, os, random, struct
import msgpack

random.seed(7)
root = os.path.join(os.path.dirname(__file__), 'seeds')

def write(target, name, data):
    d = os.path.join(root, target)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, name), 'wb') as f:
        f.write(data)

def body(rows, cols, scale=255):
    # an elliptical load in the middle, like a body or a foot
    out = []
    for r in range(rows):
        for c in range(cols):
            dr, dc = (r - rows / 2) / (rows / 3 + 0.1), (c - cols / 2) / (cols / 4 + 0.1)
            v = max(0.0, 1 - dr * dr - dc * dc)
            out.append(int(v * scale))
    return out

hello = {'type': 'hello', 'version': 1, 'serial': 'DEMO-MAT-0001', 'secret': 'a' * 64,
         'device_type': 'Mattress Mat IoT', 'rows': 48, 'cols': 48, 'cell_format': 'u8', 'firmware': 'sim 1.0'}
frame8 = {'type': 'frame', 'seq': 42, 'device_time_ms': 1_763_900_000_000, 'cells': bytes(body(48, 48))}
frame16 = {'type': 'frame', 'seq': 7, 'device_time_ms': 1_763_900_000_500,
           'cells': b''.join(struct.pack('<H', v) for v in [0, 1200, 4095, 300])}
ack = {'type': 'ack', 'command_id': 3, 'ok': False, 'reason': 'busy'}

def varint(n):
    out = bytearray()
    while n >= 0x80:
        out.append((n & 0x7f) | 0x80)
        n >>= 7
    out.append(n)
    return bytes(out)

def runs(cells):
    # protocol version 2 (docs/device-protocol.md §2): blocks of bytes of one width (0, 2, 4 or 8
    # bits), each a varint header count << 2 | kind, then the bytes packed low bits first
    bits = [0, 2, 4, 8]
    kind = lambda v: 0 if v == 0 else 1 if v < 4 else 2 if v < 16 else 3
    blocks = []
    for v in cells:
        k = kind(v)
        if blocks and blocks[-1][0] == k:
            blocks[-1][1] += 1
        else:
            blocks.append([k, 1])
    widened = True
    while widened:
        widened = False
        for i, (k, n) in enumerate(blocks):
            wider = [blocks[j][0] for j in (i - 1, i + 1) if 0 <= j < len(blocks) and blocks[j][0] > k]
            if wider and n * (bits[min(wider)] - bits[k]) <= 16:
                blocks[i][0] = min(wider)
                widened = True
        merged = []
        for b in blocks:
            if merged and merged[-1][0] == b[0]:
                merged[-1][1] += b[1]
            else:
                merged.append(b)
        blocks = merged
    out, at = bytearray(), 0
    for k, n in blocks:
        out += varint(n << 2 | k)
        block = cells[at:at + n]
        if k == 3:
            out += bytes(block)
        elif k in (1, 2):
            w = bits[k]
            per = 8 // w
            for c in range(0, n, per):
                out.append(sum(v << (j * w) for j, v in enumerate(block[c:c + per])))
        at += n
    return bytes(out)

hello2 = dict(hello, version=2)
frame8_runs = {'type': 'frame', 'seq': 43, 'device_time_ms': 1_763_900_000_100, 'runs': runs(bytes(body(48, 48)))}
frame16_runs = {'type': 'frame', 'seq': 8, 'device_time_ms': 1_763_900_000_600, 'runs': runs(frame16['cells'])}
msgs = {'hello': hello, 'frame_u8': frame8, 'frame_u16': frame16, 'ack': ack,
        'hello_v2': hello2, 'frame_u8_runs': frame8_runs, 'frame_u16_runs': frame16_runs}
for name, m in msgs.items():
    write('device_protocol', name, msgpack.packb(m, use_bin_type=True))
stream = b''.join(struct.pack('>I', len(b)) + b for b in (msgpack.packb(m, use_bin_type=True) for m in msgs.values()))
write('device_protocol', 'stream', stream)

# ingest connections: the fuzz catalogue registers DeviceType::ALL[i] as SERIAL-<i> / secret-<i>
def framed(messages):
    return b''.join(struct.pack('>I', len(b)) + b for b in (msgpack.packb(m, use_bin_type=True) for m in messages))

def device_hello(index, type_name, rows, cols, fmt, **changes):
    h = {'type': 'hello', 'version': 1, 'serial': f'SERIAL-{index}', 'secret': f'secret-{index}',
         'device_type': type_name, 'rows': rows, 'cols': cols, 'cell_format': fmt, 'firmware': 'sim 1.0'}
    h.update(changes)
    return h

mattress = device_hello(1, 'Mattress Mat IoT', 48, 48, 'u8')
force = device_hello(11, 'Force Mat', 1, 4, 'u16le')
short = {'type': 'frame', 'seq': 43, 'device_time_ms': 1_763_900_000_100, 'cells': bytes(47)}
write('ingest_hello', 'mattress_session', framed([mattress, frame8, ack, short, mattress, frame8]))
write('ingest_hello', 'force_session', framed([force, frame16, frame16, ack]))
write('ingest_hello', 'sleep_mat', framed([device_hello(12, 'Sleep Mat', 24, 48, 'u8'),
                                           {'type': 'frame', 'seq': 1, 'device_time_ms': 5, 'cells': bytes(body(24, 48))}]))
write('ingest_hello', 'bad_secret', framed([device_hello(1, 'Mattress Mat IoT', 48, 48, 'u8', secret='wrong')]))
write('ingest_hello', 'wrong_shape', framed([device_hello(1, 'Mattress Mat IoT', 16, 16, 'u8')]))
write('ingest_hello', 'old_version', framed([device_hello(1, 'Mattress Mat IoT', 48, 48, 'u8', version=3)]))
write('ingest_hello', 'mattress_session_v2', framed([device_hello(1, 'Mattress Mat IoT', 48, 48, 'u8', version=2), frame8_runs, frame8,
                                                     ack, {'type': 'frame', 'seq': 44, 'device_time_ms': 1, 'runs': runs(bytes(47))}]))
write('ingest_hello', 'force_session_v2', framed([device_hello(11, 'Force Mat', 1, 4, 'u16le', version=2), frame16_runs, frame16]))
write('ingest_hello', 'runs_on_version_1', framed([mattress, frame8_runs]))
write('ingest_hello', 'frame_first', framed([frame8]))

# REST bodies: [body type] + the JSON a client sends (see fuzz_targets/rest_bodies.rs)
png = base64.b64encode(bytes.fromhex('89504e470d0a1a0a0000000d4948445200000001000000010806000000'
                                     '1f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082')).decode()
bodies = {
    'account': (0, {'email': 'ana@clinic.example', 'password': 'secret1', 'passwordRepeat': 'secret1'}),
    'company': (1, {'companyName': 'Clínica Sur', 'address': 'Calle Mayor 1', 'pageColor': '#336699',
                    'layoutNumber': 3, 'logo': 'data:image/png;base64,' + png}),
    'company_old_names': (1, {'company': 'Clinic', 'location': 'Main St 1'}),
    'device_settings': (2, {'name': 'Bed 1', 'room': '101', 'bed': 'A'}),
    'registration': (3, {'hardwareSerial': 'MAT-0001', 'hardwarePassword': 'x', 'name': 'Bed 4', 'healthSystem': 'North',
                         'building': 'B', 'floor': 2, 'room': '204', 'bed': 'A', 'deviceType': 'Mattress Mat IoT',
                         'added_by': 'company:abc', 'currentPatient': None, 'numberOfSubdevices': -1}),
    'registration_horse': (3, {'hardwareSerial': 'HORSE-1', 'name': 'Horse', 'deviceType': 'Sensing Horse', 'numberOfSubdevices': '4'}),
    'patient': (4, {'name': 'Ana López', 'weight': '70,5', 'height': 168, 'birthDate': 631152000, 'notes': 'diabetes',
                    'email': 'ana@example.com', 'phone': '+34 600 000 000', 'phone2': -1, 'gender': 'Female', 'size': '38',
                    'healthIns': 'X', 'medicalCond': '', 'profession': 'nurse', 'address': 'Calle 2', 'postalCode': 'SW1A 1AA',
                    'country': 'ES', 'agreeDataTreatment': True}),
    'layout': (5, {'mapColorIndex': 2, 'smoothenIndex': 1, 'thresholdValue': 15, 'contoursEnabled': True, 'is3Dmode': True,
                   'cameraPosition': {'up': {'x': 0, 'y': 1, 'z': 0}, 'center': {'x': 0, 'y': 0, 'z': 0},
                                      'eye': {'x': 0.5, 'y': -0.25, 'z': 1.25}},
                   'manualScale': True, 'manualScaleValue': 275}),
}
for name, (kind, value) in bodies.items():
    write('rest_bodies', name, bytes([kind]) + json.dumps(value, ensure_ascii=False).encode())

events = [
    ('authenticate', {'token': 'x.y.z'}), ('joinCompany', {}), ('joinUser', {'deviceId': 'device:abc'}),
    ('leaveUser', {'deviceId': 'device:abc'}), ('startStreaming', {'deviceId': 'device:abc', 'seconds': 180}),
    ('streamingRemaining', {'deviceId': 'device:abc'}),
    ('startCapture', {'deviceId': 'device:abc', 'analysisType': 'Dynamic', 'seconds': 15, 'patientId': 'patient:p'}),
    ('ActivateRemote', {'deviceId': 'device:abc', 'action': 'startDynamicCapture'}),
    ('startAnalysisTimer', {'deviceId': 'device:abc', 'period': 3_600_000, 'count': 24}),
    ('attendAlarm', {'deviceId': 'device:abc', 'alarmId': 5}),
]
for name, data in events:
    env = {'event': name, 'data': data}
    write('browser_messages', f'{name}.mp', msgpack.packb(env, use_bin_type=True))
    write('browser_messages', f'{name}.json', json.dumps(env).encode())

# captures: [kind, device, rows-1, cols-1, frames-1, step] + cell bytes (see fuzz_targets/common.rs)
for kind in range(6):
    for device, rows, cols in ((1, 48, 48), (3, 16, 16), (4, 24, 24), (14, 48, 48)):
        cells = bytes(v // 4 for v in body(rows, cols, 1000))
        header = bytes([kind, device, rows - 1, cols - 1, 5, 9])
        write('analysis', f'k{kind}_d{device}', header + cells)
        layout = json.dumps({'widgets': ['MainPage', 'PressureMap', 'Notes'], 'language': 'ja', 'palette': 'Jet'}).encode()
        write('reports', f'k{kind}_d{device}', header + bytes([len(layout)]) + layout + 'notas ñ 日本'.encode())
print('seeds written to', root)
