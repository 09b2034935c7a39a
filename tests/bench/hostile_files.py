#!/usr/bin/env python3
"""Writes the hostile recordings of the README's "Limits on hostile input" table and times `tracefold-cli inspect`
on each (CPU seconds and peak RSS from /usr/bin/time), so the table can be rerun:

    tests/bench/hostile_files.py build/app/tracefold-cli [DIR]      (DIR defaults to /tmp/tracefold-hostile)

Not a test: it prints a Markdown table. The files take about 1.2 GB in DIR.
"""

import os
import subprocess
import sys


def event(type_, payload="{}", run_id="run-1-1"):
    return '{"type":"%s","payload":%s,"meta":{"runId":"%s"}}' % (type_, payload, run_id)


def write(path, parts):
    with open(path, "w", encoding="utf-8") as f:
        for p in parts:
            f.write(p)


def chunks(unit, count, per_chunk=1 << 16):
    """`unit` repeated `count` times, in pieces (the files are larger than is comfortable in one string)."""
    while count > 0:
        n = min(count, per_chunk)
        yield unit * n
        count -= n


def joined(items_per_chunk, count, make):
    for start in range(0, count, items_per_chunk):
        yield ",".join(make(i) for i in range(start, min(count, start + items_per_chunk))) + (
            "," if start + items_per_chunk < count else "")


FILES = {
    "one 200 MB string (plain)":
        ("string-plain.json", lambda: ['{"events":[],"s":"', *chunks("abcdefghij", 20_000_000), '"}']),
    "one 200 MB string (100 M `\\n` escapes)":
        ("string-escaped.json", lambda: ['{"events":[],"s":"', *chunks("\\n", 100_000_000), '"}']),
    "a 200 MB object key":
        ("key.json", lambda: ['{"events":[],"o":{"', *chunks("abcdefghij", 20_000_000), '":1}}']),
    "10 M-element array (20 MB)":
        ("array.json", lambda: ['{"events":[],"data":[', *joined(100_000, 10_000_000, lambda i: "7"), "]}"]),
    "nesting 10⁶ deep":
        ("deep.json", lambda: ['{"events":[],"d":', "[" * 1_000_000, "]" * 1_000_000, "}"]),
    "10⁶ names in one object (12 MB)":
        ("names.json", lambda: ['{"events":[],"o":{', *joined(100_000, 1_000_000, lambda i: '"k%d":%d' % (i, i % 10)),
                                "}}"]),
    "NDJSON with two 100 MB lines":
        ("two-lines.ndjson", lambda: [
            event("agentfootprint.agent.turn_start", '{"userMessage":"' + "x" * 100_000_000 + '"}'), "\n",
            event("agentfootprint.agent.turn_end", '{"content":"' + "y" * 100_000_000 + '"}'), "\n"]),
    "10⁶ tiny events, as a recording (26 MB)":
        ("tiny-events.json", lambda: ['{"events":[', *joined(100_000, 1_000_000, lambda i: event("x")), "]}"]),
    "10⁶ tiny events, as NDJSON (26 MB)":
        ("tiny-events.ndjson", lambda: [event("x") + "\n" for _ in range(1_000_000)]),
    "200 000 LLM calls (49 MB)":
        ("calls.json", lambda: ['{"events":[', *joined(10_000, 200_000, lambda i: event(
            "agentfootprint.stream.llm_start", '{"iteration":%d,"messagesCount":1}' % (i + 1))), "]}"]),
}


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    cli = os.path.abspath(sys.argv[1])
    out_dir = sys.argv[2] if len(sys.argv) > 2 else "/tmp/tracefold-hostile"
    os.makedirs(out_dir, exist_ok=True)
    print("| hostile file | result |\n|---|---|")
    for label, (name, make) in FILES.items():
        path = os.path.join(out_dir, name)
        if not os.path.exists(path):
            write(path, make())
        run = subprocess.run(["/usr/bin/time", "-f", "%U %S %M", cli, "inspect", path], capture_output=True,
                             text=True)
        user, system, rss_kb = run.stderr.strip().splitlines()[-1].split()
        seconds = float(user) + float(system)
        if run.returncode == 0:
            result = "opens"
        else:
            lines = [l for l in run.stderr.strip().splitlines()[:-1] if l.strip() and not l.startswith("Command exited")]
            result = "refused (%s)" % (lines[-1].strip() if lines else "exit %d" % run.returncode)
        print("| %s | %s; %.1f s, %d MB |" % (label, result, seconds, round(int(rss_kb) / 1024)))
        sys.stdout.flush()


if __name__ == "__main__":
    main()
