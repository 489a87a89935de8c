"""The 16 German states of the place cards' pictures and the map: the `states-map` layer of the pinned
`germany-boundaries` source."""

import json

import shapely
from pyproj import Transformer
from shapely.geometry import shape

from pipeline.errors import GeodeckError
from pipeline.extract import load_sources
from pipeline.render import pages
from pipeline.render.maps import SIMPLIFY_MM, draw_geometry, per_store, project, to_box
from pipeline.render.text import Box
from pipeline.transform.german_states import BY_ENGLISH

SOURCE = "germany-boundaries"
LAYER = "states-map"


class Germany:
    """The 16 states (lon/lat as published, and projected once to ETRS89 / UTM 32N for the card pictures)."""

    def __init__(self, store):
        source = load_sources()[SOURCE]
        self.utm = utm = Transformer.from_crs("EPSG:4326", "EPSG:25832", always_xy=True)
        features = json.loads(store.read(source.layer(LAYER)))["features"]
        self.lonlat = {f["properties"]["name"]: shape(f["geometry"]) for f in features}
        self.states = {name: project(geom, utm) for name, geom in self.lonlat.items()}
        self.ids = {f["properties"]["id"]: f["properties"]["name"] for f in features}

    def state_name(self, state: str, card_id: str) -> str:
        name = self.ids.get(state) or BY_ENGLISH.get(state, state)
        if name not in self.states:
            raise GeodeckError(f"card {card_id}: unknown state {state!r}; known: {', '.join(sorted(self.states))}")
        return name

    def frame(self, box: Box, name: str) -> tuple[float, float, float]:
        """(scale, dx, dy): UTM metres → mm in `box`, one scale for every state (the largest state fills
        the box), the state centred."""
        scale = min(
            min(box.w / (g.bounds[2] - g.bounds[0]), box.h / (g.bounds[3] - g.bounds[1])) for g in self.states.values()
        )
        x0, y0, x1, y1 = self.states[name].bounds
        return (
            scale,
            box.x + (box.w - (x1 - x0) * scale) / 2 - x0 * scale,
            box.y + (box.h - (y1 - y0) * scale) / 2 - y0 * scale,
        )

    def town(self, box: Box, state: str, card_id: str, lat: float, lon: float) -> tuple[float, float]:
        """Where a place lies on its state's picture in `box` (mm)."""
        scale, dx, dy = self.frame(box, self.state_name(state, card_id))
        x, y = self.utm.transform(lon, lat)
        return x * scale + dx, y * scale + dy

    def draw_state(self, canvas, box: Box, state: str, card_id: str, fill, edge) -> None:
        """The state alone (no neighbours), at the one scale of every state's picture in `box`; one form
        XObject per state and document."""
        name = self.state_name(state, card_id)
        form = "state_" + next(k for k, v in self.ids.items() if v == name).replace("-", "_")

        def draw() -> None:
            geom = self.states[name]
            frame = self.frame(Box(0, 0, box.w, box.h), name)
            canvas.setFillColor(fill)
            canvas.setStrokeColor(edge)
            canvas.setLineWidth(0.25)
            canvas.setLineJoin(1)
            draw_geometry(canvas, shapely.simplify(to_box(geom, frame), SIMPLIFY_MM), stroke=True)

        pages.form(canvas, form, box, draw)


def germany(store) -> Germany:
    return per_store(Germany, store)
