#!/usr/bin/env python3
"""Writes the fuzz corpora's seed inputs (fuzz/seeds/<target>/) from real protocol messages:
a device hello, frames of each cell format, an ack, framed streams; every browser event of
docs/browser-protocol.md in MessagePack and JSON; captures of each analysis kind.
Needs the `msgpack` package from PyPI (pip install msgpack). Run from the repository root."""
import json, os, random, struct
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
msgs = {'hello': hello, 'frame_u8': frame8, 'frame_u16': frame16, 'ack': ack}
for name, m in msgs.items():
    write('device_protocol', name, msgpack.packb(m, use_bin_type=True))
stream = b''.join(struct.pack('>I', len(b)) + b for b in (msgpack.packb(m, use_bin_type=True) for m in msgs.values()))
write('device_protocol', 'stream', stream)

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
