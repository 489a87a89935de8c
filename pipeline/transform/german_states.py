"""The 16 German states: German name, ISO 3166-2 code, Destatis Land key, GeoNames admin1 code, English name,
capital (its Destatis name)."""

import pandas as pd

# (German name, ISO 3166-2, Destatis Land key, GeoNames admin1 code, English name as on en.wikipedia, capital)
_ROWS = [
    ("Schleswig-Holstein", "DE-SH", "01", "10", "Schleswig-Holstein", "Kiel"),
    ("Hamburg", "DE-HH", "02", "04", "Hamburg", "Hamburg"),
    ("Niedersachsen", "DE-NI", "03", "06", "Lower Saxony", "Hannover"),
    ("Bremen", "DE-HB", "04", "03", "Bremen", "Bremen"),
    ("Nordrhein-Westfalen", "DE-NW", "05", "07", "North Rhine-Westphalia", "Düsseldorf"),
    ("Hessen", "DE-HE", "06", "05", "Hesse", "Wiesbaden"),
    ("Rheinland-Pfalz", "DE-RP", "07", "08", "Rhineland-Palatinate", "Mainz"),
    ("Baden-Württemberg", "DE-BW", "08", "01", "Baden-Württemberg", "Stuttgart"),
    ("Bayern", "DE-BY", "09", "02", "Bavaria", "München"),
    ("Saarland", "DE-SL", "10", "09", "Saarland", "Saarbrücken"),
    ("Berlin", "DE-BE", "11", "16", "Berlin", "Berlin"),
    ("Brandenburg", "DE-BB", "12", "11", "Brandenburg", "Potsdam"),
    ("Mecklenburg-Vorpommern", "DE-MV", "13", "12", "Mecklenburg-Western Pomerania", "Schwerin"),
    ("Sachsen", "DE-SN", "14", "13", "Saxony", "Dresden"),
    ("Sachsen-Anhalt", "DE-ST", "15", "14", "Saxony-Anhalt", "Magdeburg"),
    ("Thüringen", "DE-TH", "16", "15", "Thuringia", "Erfurt"),
]

STATES = pd.DataFrame(_ROWS, columns=["state", "iso", "destatis_land", "geonames_admin1", "name_en", "capital"])
BY_DESTATIS = dict(zip(STATES["destatis_land"], STATES["state"]))
BY_GEONAMES = dict(zip(STATES["geonames_admin1"], STATES["state"]))
BY_ENGLISH = dict(zip(STATES["name_en"], STATES["state"]))
BY_ISO = dict(zip(STATES["iso"], STATES["state"]))
CAPITALS = dict(zip(STATES["state"], STATES["capital"]))
