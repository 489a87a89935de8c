"""The baseline `make bench` compares the World Game card print with: what a Python user would write with
matplotlib and geopandas, one figure per card side (63 × 88 mm) into a multi-page PDF: the front with the
country's name, facts, capital, map number and a geopandas locator map (Natural Earth 50m countries, the
country in red), the back with the world map and the title. Flags are left out (matplotlib draws no SVG),
which only flatters the baseline.

    python benchmarks/matplotlib_cards.py DECK.json OUT.pdf   (needs $GEODECK_MIRROR or a warm store)
"""

import json
import sys
from pathlib import Path

import geopandas
import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
from matplotlib.backends.backend_pdf import PdfPages

from pipeline.extract import load_sources, open_store

CARD_IN = (63 / 25.4, 88 / 25.4)


def main(deck_path: str, out: str) -> None:
    deck = json.loads(Path(deck_path).read_text(encoding="utf-8"))
    store = open_store(online=False)
    layer = store.resolve(load_sources()["natural-earth"].file("ne_50m_admin_0_countries.geojson"))
    world = geopandas.read_file(layer).to_crs("+proj=robin")
    with PdfPages(out) as pdf:
        for card in deck["cards"]:
            f = card["fields"]
            fig = plt.figure(figsize=CARD_IN)
            fig.text(0.06, 0.93, f["name_en"], fontsize=11, weight="bold")
            facts = [
                f"Area: {f['area_km2']:,} km²",
                f"Population: {f['population']:,}",
                f"Highest point: {f['highest_point_m']:,} m",
                f"Neighbouring countries: {f['land_neighbours']}",
                f"Continent: {', '.join(f['continents'])}",
                f"Capital: {', '.join(f.get('capitals') or [])}",
            ]
            for i, line in enumerate(facts):
                fig.text(0.06, 0.85 - 0.05 * i, line, fontsize=6.5)
            fig.text(0.8, 0.06, str(f["map_number"]), fontsize=14, weight="bold")
            ax = fig.add_axes((0.05, 0.12, 0.9, 0.38))
            world.plot(ax=ax, color="#D9D9D9", edgecolor="white", linewidth=0.1)
            world[world["ADM0_A3"] == f["iso3"]].plot(ax=ax, color="#D7191C")
            ax.set_axis_off()
            pdf.savefig(fig)
            plt.close(fig)
            fig = plt.figure(figsize=CARD_IN, facecolor="#12355B")
            fig.text(0.5, 0.8, "The World Game", fontsize=16, color="white", ha="center", weight="bold")
            ax = fig.add_axes((0.05, 0.3, 0.9, 0.35))
            world.plot(ax=ax, color="#2E5A88", edgecolor="#12355B", linewidth=0.1)
            ax.set_axis_off()
            pdf.savefig(fig, facecolor=fig.get_facecolor())
            plt.close(fig)


if __name__ == "__main__":
    main(*sys.argv[1:3])
