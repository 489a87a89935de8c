"""Why a place is in a grid game's deck or not when no rule pinned it: the spread. A card the search chose
names its nearest other card; a candidate it left out names the card that stands for it (a larger one nearby:
familiarity). Distances are
geodesic km on WGS84 (pyproj), for any country's table of places (`lat`, `lon`)."""

import numpy as np
from pyproj import Geod

_GEOD = Geod(ellps="WGS84")


def nearest_card(lat, lon, in_deck) -> tuple[np.ndarray, np.ndarray]:
    """For every place, the row of the nearest card other than itself and its distance in km."""
    lat, lon = np.asarray(lat, dtype=float), np.asarray(lon, dtype=float)
    cards = np.flatnonzero(np.asarray(in_deck, dtype=bool))
    rows, columns = np.broadcast_arrays(np.arange(len(lat))[:, None], cards[None, :])
    km = _GEOD.inv(lon[columns].ravel(), lat[columns].ravel(), lon[rows].ravel(), lat[rows].ravel())[2]
    km = km.reshape(rows.shape) / 1000
    km[rows == columns] = np.inf
    best = km.argmin(axis=1)
    return cards[best], km[np.arange(len(lat)), best]


def spread_reasons(names, lat, lon, in_deck, population=None, familiar_km: float = 0.0) -> list[str]:
    """The reason of each place (a candidate of the search) being in or out, named by its nearest card; a place
    left out whose nearest card is more populous and within `familiar_km` names familiarity (the selection's
    weight_familiarity: the larger town stands for its part of the country)."""
    names, in_deck = list(names), np.asarray(in_deck, dtype=bool)
    near, km = nearest_card(lat, lon, in_deck)
    people = np.zeros(len(names)) if population is None else np.asarray(population)
    return [
        f"spread: nearest card {names[n]}, {d:.0f} km away"
        if chosen
        else f"familiarity: the larger {names[n]} is a card, {d:.0f} km away"
        if d <= familiar_km and people[n] > people[row]
        else f"replaced for the spread: card {names[n]}, {d:.0f} km away"
        for row, (chosen, n, d) in enumerate(zip(in_deck, near, km))
    ]
