"""One forced `geodeck build` (every step run, steps side by side on all cores as `geodeck build` runs them)
from this process, printing as JSON each step's wall and CPU seconds (`steps`: {step: [wall, cpu]}, the CPU
measured in the process that ran the step) and the critical path (`path`): the CPU seconds of this process
plus those along the chain of dependent steps that needs the most, which is about what the forced build
takes on an idle machine with enough cores. `make bench` runs it in a fresh interpreter, against
$GEODECK_STORE and $GEODECK_BUILD. A step's time includes the imports it is the first in its process to need
(pandas for the first step of each worker)."""

import json
import os
import time

from pipeline.build import graph, runner
from pipeline.build.runner import build
from pipeline.build.step import Context
from pipeline.extract import open_store


def main() -> None:
    started: dict[str, float] = {}
    walls: dict[str, float] = {}
    ctx = Context(
        open_store(online=False),
        force=True,
        jobs=os.cpu_count() or 1,
        on_step=lambda name, units: started.__setitem__(name, time.perf_counter()),
        on_done=lambda name: walls.__setitem__(name, time.perf_counter() - started[name]),
    )
    results = build(ctx)
    cpu = {r.step: r.cpu for r in results}
    path = time.process_time() + runner.critical_path(graph.steps(), cpu)
    print(json.dumps({"steps": {name: [walls[name], cpu[name]] for name in cpu}, "path": path}))


if __name__ == "__main__":
    main()
