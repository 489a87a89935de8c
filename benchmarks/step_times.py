"""One forced `geodeck build` (every step run) in this process, printing each step's wall and CPU seconds as
JSON ({step: [wall, cpu]}); `make bench` runs it in a fresh interpreter, against $GEODECK_STORE and
$GEODECK_BUILD. A step's time includes the imports it is the first to need (pandas for the first one)."""

import json
import time
from itertools import pairwise

from pipeline.build import Context, build
from pipeline.extract import open_store


def main() -> None:
    marks: list[tuple[str, float, float]] = []
    on_step = lambda name, units: marks.append((name, time.perf_counter(), time.process_time()))  # noqa: E731
    build(Context(open_store(online=False), force=True, on_step=on_step))
    marks.append(("", time.perf_counter(), time.process_time()))
    print(json.dumps({name: [t2 - t1, c2 - c1] for (name, t1, c1), (_, t2, c2) in pairwise(marks)}))


if __name__ == "__main__":
    main()
