"""The 16 German states of the place cards' pictures and the map: the `states-map` layer of the pinned
`germany-boundaries` source (GADM-derived, non-commercial); for a kit for sale, states drawn from the deck's
own places stand in for them (`Drawn`: each state the union of its places' Voronoi cells in Natural Earth's
public-domain outline of Germany, pipeline/geo/divisions.py)."""

import json

from pyproj import Transformer
from shapely.geometry import shape

from pipeline.errors import GeodeckError
from pipeline.extract import load_sources, names
from pipeline.geo import divisions
from pipeline.render.maps import draw_alone, per_store, project, world
from pipeline.render.text import Box
from pipeline.transform.german_states import BY_ENGLISH

SOURCE = names.GERMANY_BOUNDARIES
LAYER = "states-map"
FOR_SALE = {SOURCE: names.NATURAL_EARTH}  # what stands in for the states in a kit for sale


class Germany:
    """The 16 states (lon/lat as published, and projected once to ETRS89 / UTM 32N for the card pictures)."""

    def __init__(self, store):
        features = json.loads(store.read(load_sources()[SOURCE].layer(LAYER)))["features"]
        self._shapes({f["properties"]["id"]: (f["properties"]["name"], shape(f["geometry"])) for f in features})

    def _shapes(self, by_id: dict) -> None:
        self.utm = utm = Transformer.from_crs("EPSG:4326", "EPSG:25832", always_xy=True)
        self.lonlat = dict(by_id.values())
        self.states = {name: project(geom, utm) for name, geom in self.lonlat.items()}
        self.ids = {key: name for key, (name, _) in by_id.items()}

    def state_name(self, state: str, card_id: str) -> str:
        name = self.ids.get(state) or BY_ENGLISH.get(state, state)
        if name not in self.states:
            raise GeodeckError(f"card {card_id}: unknown state {state!r}; known: {', '.join(sorted(self.states))}")
        return name

    def draw_state(self, canvas, box: Box, state: str, card_id: str, fill, edge) -> None:
        """The state alone (no neighbours), filling its picture's `box`; one form XObject per state and
        document."""
        name = self.state_name(state, card_id)
        form = "state_" + next(k for k, v in self.ids.items() if v == name).replace("-", "_")
        draw_alone(canvas, form, box, self.states[name], fill, edge)


class Drawn(Germany):
    """The states as the deck's places draw them (pipeline/geo/divisions.py) in Natural Earth's Germany (50m,
    public domain): every place card shows its state's picture and the map the borders between them, in a
    kit for sale too."""

    def __init__(self, store, places: tuple):
        land = shape(world(store).detail["DEU"]["geometry"])
        drawn = divisions.voronoi(places, land, "EPSG:25832")
        self._shapes({f"drawn_{i}": (name, geom) for i, (name, geom) in enumerate(sorted(drawn.items()))})

    def state_name(self, state: str, card_id: str) -> str:
        if state not in self.states:
            raise GeodeckError(
                f"card {card_id}: no place of the deck with coordinates lies in {state!r}, so its state "
                "cannot be drawn; rebuild the deck with `geodeck build`"
            )
        return state


_DRAWN: dict[tuple, Drawn] = {}


def germany(store, for_sale: bool = False, cards: list[dict] | None = None) -> Germany:
    """The states, or for a kit for sale the states the deck's place `cards` draw (once per process, store
    and deck)."""
    if not for_sale:
        return per_store(Germany, store)
    places = divisions.places(cards or [])
    key = (store.root, store.mirror, places)
    if key not in _DRAWN:
        _DRAWN[key] = Drawn(store, places)
    return _DRAWN[key]
