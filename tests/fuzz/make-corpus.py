#!/usr/bin/env python3
"""Writes the committed seed corpora (tests/fuzz/corpus/<target>/) and the dictionary (tests/fuzz/tracefold.dict)
from the samples and the conformance vectors. Run it again when those change; run-fuzzers.sh adds the samples
themselves and freshly generated recordings (tracefold-cli generate) at fuzzing time, so they are not copied here.

    python3 tests/fuzz/make-corpus.py
"""
import glob
import hashlib
import json
import os
import shutil

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, '..', 'data')
CORPUS = os.path.join(HERE, 'corpus')


def compact(v):
    return json.dumps(v, ensure_ascii=False, separators=(',', ':'))


def write(target, text):
    data = text.encode('utf-8', 'surrogatepass') if isinstance(text, str) else text
    d = os.path.join(CORPUS, target)
    os.makedirs(d, exist_ok=True)
    name = hashlib.sha1(data).hexdigest()[:16]
    with open(os.path.join(d, name), 'wb') as f:
        f.write(data)


def samples():
    out = {}
    for f in sorted(glob.glob(os.path.join(DATA, 'samples', '*.json'))):
        with open(f, encoding='utf-8') as fh:
            out[os.path.basename(f)] = json.load(fh)
    return out


def vectors(name):
    with open(os.path.join(DATA, 'conformance', name), encoding='utf-8') as fh:
        return [json.loads(line) for line in fh if line.strip()]


def main():
    shutil.rmtree(CORPUS, ignore_errors=True)
    loaded = samples()

    # loader: one small file of every shape and every refusal of spec/recording.md §1.
    ev = {"type": "agentfootprint.stream.llm_start", "payload": {"iteration": 1}, "meta": {"runId": "run-1-1"}}
    for text in [
        '', ' ', '\ufeff{}', '[]', '"x"', '{}', '{"events":[]}', '{"events":{}}', '{"events":[1]}',
        '{"events":[{"type":1}]}', compact({"events": [ev]}),
        compact({"format": "agentfootprint.recording.v1", "run": {"runId": "run-1-1"},
                 "configuration": {"manifest": {"reactMode": "dynamic", "llm": {"model": "m", "provider": "p"}}},
                 "recording": {"events": [ev]}}),
        '{"format":"agentfootprint.recording.v2","recording":{}}', '{"format":1}',
        '{"format":"agentfootprint.recording.v1"}',
        '{"header":{"format":"audit.v1"},"records":[],"finalHash":"x"}',
        '{"version":1,"events":[],"redaction":"none"}',
        '{"commitLog":[],"served":[]}', '{"commitLog":[],"served":[1]}',
        '{"commits":[],"subflowResults":{},"finalState":{},"events":[]}',
        '{"commitLog":[],"sharedState":{"findingsLedger":[]}}',
        compact(ev) + '\n' + compact(ev) + '\n', compact(ev) + '\r\n\r\n' + compact(ev) + '\n{"type":',
        compact(ev) + '\n[1]\n', '{"a":1} {"b":2}', 'PK\x03\x04rest',
        '{"snapshot":{"commitLog":[],"initialState":{}},"events":[]}',
        # packed recordings (spec/upstream-since-9.113.md §1): references, an escape, and each refusal
        compact({"format": "agentfootprint.recording.packed.v1",
                 "recording": {"events": [{"$af:ref": 0}, {"$af:ref": 0}], "snapshot": {"$af:esc": {"$af:ref": 1}}},
                 "values": [ev, [{"$af:ref": 0}]]}),
        '{"values":[],"recording":{"events":[]},"format":"agentfootprint.recording.packed.v1"}',
        '{"format":"agentfootprint.recording.packed.v2","recording":{},"values":[]}',
        '{"format":"agentfootprint.recording.packed.v1","recording":{}}',
        '{"format":"agentfootprint.recording.packed.v1","recording":{"$af:ref":3},"values":[]}',
        '{"format":"agentfootprint.recording.packed.v1","recording":{"$af:ref":0},"values":[[{"$af:ref":0}]]}',
    ]:
        write('loader', text)
    # The samples' events as NDJSON and trimmed recordings (the full samples are added by run-fuzzers.sh).
    for name, doc in loaded.items():
        events = doc.get('events') or doc.get('recording', {}).get('events') or []
        if events:
            write('loader', '\n'.join(compact(e) for e in events[:40]) + '\n')
        if 'snapshot' in doc and isinstance(doc['snapshot'], dict) and 'commitLog' in doc['snapshot']:
            snap = dict(doc['snapshot'])
            snap['commitLog'] = snap['commitLog'][:12]
            write('loader', compact({"snapshot": snap, "events": events[:30]}))
        if 'commitLog' in doc and 'served' in doc:
            write('loader', compact({"commitLog": doc['commitLog'][:20], "served": doc['served'][:2]}))

    # ndjson: the first byte picks the fuzz target's first line; the rest is event lines of the samples.
    for name, doc in loaded.items():
        events = doc.get('events') or []
        for start in range(0, min(len(events), 240), 30):
            lines = '\n'.join(compact(e) for e in events[start:start + 30])
            write('ndjson', chr(start // 30 % 4) + lines + '\n')
            write('ndjson', chr(1) + lines.replace('\n', '\r\n'))  # CRLF, torn last line

    # commitlog: every 3rd conformance vector as {initialState, commitLog}, plus the samples' logs.
    for i, v in enumerate(vectors('commitlog-vectors.jsonl')):
        if i % 3 == 0:
            write('commitlog', compact({"initialState": v.get('initialState'), "commitLog": v['commitLog']}))
    for name, doc in loaded.items():
        log = doc.get('commitLog') or (doc.get('snapshot') or {}).get('commitLog')
        if log:
            write('commitlog', compact(log[:40]))

    # findings: every 3rd conformance vector as {rows, served, messages}, plus the samples' final ledgers.
    for i, v in enumerate(vectors('findings-vectors.jsonl')):
        if i % 3 == 0 and 'rows' in v:
            case = {"rows": v['rows']}
            for key in ('served', 'messages'):
                if key in v:
                    case[key] = v[key]
            write('findings', compact(case))
    for name, doc in loaded.items():
        shared = ((doc.get('snapshot') or {}).get('sharedState') or {})
        if isinstance(shared.get('findingsLedger'), list):
            write('findings', compact(shared['findingsLedger']))
            if isinstance(shared.get('history'), list):
                write('findings', compact({"rows": shared['findingsLedger'], "messages": shared['history']}))

    write_dictionary(loaded)


def dict_escape(s):
    out = ''
    for b in s.encode('utf-8', 'surrogatepass'):
        c = chr(b)
        if c in '"\\':
            out += '\\' + c
        elif 32 <= b < 127:
            out += c
        else:
            out += '\\x%02x' % b
    return '"' + out + '"'


def write_dictionary(loaded):
    keys, values = set(), set()
    enum_keys = {'type', 'kind', 'verb', 'standing', 'role', 'stratum', 'basis', 'gap', 'slot', 'source',
                 'reactMode', 'format', 'findingsServe', 'findingsAnswerAsk', 'mode'}

    def walk(v):
        if isinstance(v, dict):
            for k, x in v.items():
                keys.add(k)
                if k in enum_keys and isinstance(x, str) and len(x) <= 48 and x.isprintable() and ' ' not in x:
                    values.add(x)
                walk(x)
        elif isinstance(v, list):
            for x in v:
                walk(x)

    for doc in loaded.values():
        walk(doc)
    for name in ('commitlog-vectors.jsonl', 'findings-vectors.jsonl'):
        for v in vectors(name):
            walk(v)
    tokens = ['{', '}', '[', ']', ':', ',', '"', '""', '{}', '[]', '\\"', '\\\\', '\\u', '\\ud800', '\\udc00',
              '\\ud83d\\ude00', '\\u001f', '\\u0000', 'true', 'false', 'null', '-0', '1e308', '1e-400', '-1e+21',
              '0.1', '4294967294', '4294967295', '\ufeff', '\x1f', '\r\n', '\n', '\t', 'constructor', '__proto__',
              'prototype', 'agentfootprint.recording.v1', 'PK\x03\x04', 'agentfootprint.recording.packed.v1',
              '{"$af:ref":0}', '"$af:esc"', 'REDACTED', '[REDACTED]', 'chain-v1:']
    lines = ['# libFuzzer dictionary for the Tracefold fuzz targets (written by tests/fuzz/make-corpus.py):',
             '# JSON tokens, then every key and short enum value of the samples and conformance vectors.']
    lines += [dict_escape(t) for t in tokens]
    lines += [dict_escape('"%s"' % k) for k in sorted(keys) if 0 < len(k) <= 48 and k.isprintable()]
    lines += [dict_escape('"%s"' % v) for v in sorted(values - keys)]
    with open(os.path.join(HERE, 'tracefold.dict'), 'w', encoding='utf-8') as f:
        f.write('\n'.join(lines) + '\n')


if __name__ == '__main__':
    main()
