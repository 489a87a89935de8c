"""The build (`geodeck build`): the step graph, its runner and the workers that run steps side by side.

Data flows one way: `step` (what a step is and how one runs) <- `graph` (every step of the build) and
`parallel` (worker processes running steps) <- `runner` (fingerprints, stamps, order; `build` runs the graph).
This file imports nothing, so a game that declares steps (pipeline.build.step) does not load the graph.
"""
